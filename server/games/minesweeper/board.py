"""The mine layout and the two things every other module needs from it.

Cells are flat indices ``y * width + x``: flat ``bytearray`` state is several
times faster than nested lists, which matters for 200x200 floods and for the
solver that the no-guess generator runs many times per board.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

Neighbours = tuple[tuple[int, ...], ...]

MINE = 9
"""The value of a mine cell in :attr:`Board.counts` (0-8 are neighbour counts)."""


@lru_cache(maxsize=32)
def neighbour_table(width: int, height: int) -> Neighbours:
    """The up-to-8 neighbours of every cell, computed once per board size."""
    table: list[tuple[int, ...]] = []
    for y in range(height):
        for x in range(width):
            table.append(
                tuple(
                    ny * width + nx
                    for ny in range(max(0, y - 1), min(height, y + 2))
                    for nx in range(max(0, x - 1), min(width, x + 2))
                    if nx != x or ny != y
                )
            )
    return tuple(table)


class Neighbourhood:
    """The neighbours of a cell, worked out when asked: no table to build first.

    A 200x200 :func:`neighbour_table` takes a long moment to build; the server's
    event loop uses this instead (one lookup costs a little more), and the
    solver in its worker processes keeps the table."""

    __slots__ = ("height", "width")

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    def __getitem__(self, cell: int) -> tuple[int, ...]:
        w, h = self.width, self.height
        x, y = cell % w, cell // w
        xs = range(max(0, x - 1), min(w, x + 2))
        return tuple(
            ny * w + nx
            for ny in range(max(0, y - 1), min(h, y + 2))
            for nx in xs
            if nx != x or ny != y
        )

    def __len__(self) -> int:
        return self.width * self.height


_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")
_VALUES = bytes.maketrans(b"0123456789", bytes(range(10)))


def counts_text(counts: bytes) -> str:
    """:attr:`Board.counts` as plain text (one digit a cell, 9 = mine)."""
    return counts.translate(_DIGITS).decode("ascii")


class Board:
    """A fixed mine layout with every cell's neighbour count (or MINE).

    ``counts`` (from :func:`counts_text`) skips working the counts out again:
    the board was made in a worker, and this side only looks up neighbours."""

    def __init__(
        self, width: int, height: int, mines: Iterable[int], counts: str | None = None
    ) -> None:
        self.width = width
        self.height = height
        self.mines: frozenset[int] = frozenset(mines)
        if any(not 0 <= m < width * height for m in self.mines):
            raise ValueError("a mine lies off the board")
        self.neighbours: Neighbours | Neighbourhood
        if counts is not None:
            if len(counts) != width * height:
                raise ValueError("counts do not fit the board")
            self.neighbours = Neighbourhood(width, height)
            self.counts = counts.encode("ascii").translate(_VALUES)
            return
        self.neighbours = neighbour_table(width, height)
        table = bytearray(width * height)
        for m in self.mines:
            for n in self.neighbours[m]:
                table[n] += 1
        for m in self.mines:
            table[m] = MINE
        self.counts = bytes(table)

    @property
    def cells(self) -> int:
        return self.width * self.height

    def is_mine(self, cell: int) -> bool:
        return self.counts[cell] == MINE

    def layout(self) -> list[list[int]]:
        """Mines as sorted ``[x, y]`` pairs, the form records and replays use."""
        return [[m % self.width, m // self.width] for m in sorted(self.mines)]

    def flood(self, start: int, revealed: bytearray, blocked: bytearray) -> list[int]:
        """Reveal ``start`` (a safe cell) and, iteratively, every region of zeros
        it touches; cells with ``blocked`` set (flags) stay shut. Marks the cells
        in ``revealed`` and returns them in reveal order."""
        counts = self.counts
        neighbours = self.neighbours
        if revealed[start]:
            return []
        revealed[start] = 1
        opened = [start]
        if counts[start]:
            return opened
        stack = [start]
        pop, push, add = stack.pop, stack.append, opened.append
        while stack:
            for n in neighbours[pop()]:
                if revealed[n] or blocked[n]:
                    continue
                revealed[n] = 1
                add(n)
                if not counts[n]:
                    push(n)
        return opened
