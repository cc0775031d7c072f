"""Gomoku board rules: placing stones, five-in-a-row through the last stone.

Pure and small on purpose: the game (game.py) adds players, turns and consent
requests; renju fouls live in renju.py; the computer opponent in ai/.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Rule = Literal["freestyle", "standard", "renju"]
EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass
class Board:
    """A square board and the moves played on it, black first."""

    size: int = 15
    moves: list[tuple[int, int]] = field(default_factory=list)
    cells: bytearray = field(init=False)
    """One byte a point (EMPTY, BLACK, WHITE): a 15x15 board is 282 bytes, not the
    1.8 KB of a list, in every room a server keeps."""

    def __post_init__(self) -> None:
        self.cells = bytearray(self.size * self.size)  # every point EMPTY
        replay, self.moves = self.moves, []
        for x, y in replay:
            self.place(x, y)

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def at(self, x: int, y: int) -> int:
        return self.cells[y * self.size + x]

    @property
    def to_move(self) -> int:
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    def full(self) -> bool:
        return len(self.moves) == self.size * self.size

    def place(self, x: int, y: int) -> int:
        """Put the next stone at (x, y); returns its colour. Caller checks legality."""
        colour = WHITE if len(self.moves) % 2 else BLACK  # ``to_move``: every move asks
        self.cells[y * self.size + x] = colour
        self.moves.append((x, y))
        return colour

    def undo(self) -> tuple[int, int]:
        """Take back the last stone."""
        x, y = self.moves.pop()
        self.cells[y * self.size + x] = EMPTY
        return x, y

    def run_length(self, x: int, y: int, dx: int, dy: int) -> int:
        """Stones of (x, y)'s colour in a row through (x, y) along (dx, dy).

        Reads ``cells`` directly: it runs four times on every move a server judges."""
        size, cells = self.size, self.cells
        colour = cells[y * size + x]
        n = 1
        for sx, sy in ((dx, dy), (-dx, -dy)):
            cx, cy = x + sx, y + sy
            while 0 <= cx < size and 0 <= cy < size and cells[cy * size + cx] == colour:
                n += 1
                cx += sx
                cy += sy
        return n

    def wins_at(self, x: int, y: int, rule: Rule) -> bool:
        """Does the stone at (x, y) complete a winning row under ``rule``?

        Only lines through the last stone can have changed, so only they are
        checked. ``standard`` wants exactly five; under ``renju`` black needs
        exactly five (an overline is a foul) and white wins with five or more.
        Counts in place (``run_length``'s loop, once per direction): it runs on
        every move a server judges.
        """
        size, cells = self.size, self.cells
        colour = cells[y * size + x]
        exact = rule == "standard" or (rule == "renju" and colour == BLACK)
        for dx, dy in DIRECTIONS:
            n = 1
            cx, cy = x + dx, y + dy
            while 0 <= cx < size and 0 <= cy < size and cells[cy * size + cx] == colour:
                n += 1
                cx += dx
                cy += dy
            cx, cy = x - dx, y - dy
            while 0 <= cx < size and 0 <= cy < size and cells[cy * size + cx] == colour:
                n += 1
                cx -= dx
                cy -= dy
            if n == 5 or (n > 5 and not exact):
                return True
        return False
