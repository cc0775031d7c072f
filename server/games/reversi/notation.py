"""Reversi games as move lists, the common notation: ``F5 D6 C3 D3 C4``.

One cell a move, as gridhall names cells (:mod:`gridhall.protocol.cells`: column
letters from the left, rows from 1 at the top), black's first; passes are not written
(the side with no legal move passes, so the list says it already). On 6×6 and 8×8
boards this is exactly the notation Othello players trade; on 10×10 the columns skip
``I`` as every gridhall board does. The reader takes either case, spaces, commas, line
breaks, the run-together form (``f5d6c3``) and ``#`` comments, and checks every move
against the rules.

>>> write_moves(8, read_moves(8, "f5d6 c3"))
'F5 D6 C3'
"""

from __future__ import annotations

import re

from gridhall.protocol.cells import COLUMN_LETTERS, cell_name

from .board import SIZES, Position

_CELL = re.compile(r"([A-Za-z])([0-9]{1,2})")
_SEPARATORS = re.compile(r"[\s,;.]*")
MAX_TEXT = 4096
"""Characters a move list may have (a 10×10 game is at most 96 moves)."""


class NotationError(ValueError):
    """A move list that cannot be read or played: ``move`` (from 1) says where."""

    def __init__(self, move: int, reason: str) -> None:
        super().__init__(f"move {move}: {reason}" if move else reason)
        self.move = move
        self.reason = reason


def write_moves(size: int, moves: list[tuple[int, int]]) -> str:
    """``moves`` as the list people write: ``F5 D6 C3``."""
    return " ".join(cell_name(x, y) for x, y in moves)


def _tokens(text: str) -> list[str]:
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    body = " ".join(lines)
    out: list[str] = []
    at = _SEPARATORS.match(body, 0)
    pos = at.end() if at else 0
    while pos < len(body):
        m = _CELL.match(body, pos)
        if m is None:
            raise NotationError(len(out) + 1, f"{body[pos : pos + 8]!r} is not a cell like F5.")
        out.append(m.group(0))
        sep = _SEPARATORS.match(body, m.end())
        pos = sep.end() if sep else m.end()
    return out


def read_moves(size: int, text: str) -> list[tuple[int, int]]:
    """The moves of ``text`` on a ``size`` board, each checked against the rules."""
    if size not in SIZES:
        raise NotationError(0, f"Reversi boards are {', '.join(map(str, SIZES))} wide.")
    if len(text) > MAX_TEXT:
        raise NotationError(0, f"A move list has at most {MAX_TEXT} characters.")
    pos = Position.start(size)
    moves: list[tuple[int, int]] = []
    for number, token in enumerate(_tokens(text), start=1):
        letter, row = token[0].upper(), int(token[1:])
        x, y = COLUMN_LETTERS.find(letter), row - 1
        if x < 0 or not pos.on_board(x, y):
            raise NotationError(number, f"{token} is off the {size}×{size} board.")
        if pos.over():
            raise NotationError(number, "the game was already over.")
        if not pos.flips(x, y):
            raise NotationError(number, f"{cell_name(x, y)} is not a legal move there.")
        pos = pos.play(x, y)
        moves.append((x, y))
    return moves
