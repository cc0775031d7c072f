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
            table.append(tuple(
                ny * width + nx
                for ny in range(max(0, y - 1), min(height, y + 2))
                for nx in range(max(0, x - 1), min(width, x + 2))
                if nx != x or ny != y
            ))
    return tuple(table)


class Board:
    """A fixed mine layout with every cell's neighbour count (or MINE)."""

    def __init__(self, width: int, height: int, mines: Iterable[int]) -> None:
        self.width = width
        self.height = height
        self.neighbours = neighbour_table(width, height)
        self.mines: frozenset[int] = frozenset(mines)
        if any(not 0 <= m < width * height for m in self.mines):
            raise ValueError("a mine lies off the board")
        counts = bytearray(width * height)
        for m in self.mines:
            for n in self.neighbours[m]:
                counts[n] += 1
        for m in self.mines:
            counts[m] = MINE
        self.counts = bytes(counts)

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
