"""Board values and the two mutations a link causes: removal, then optional gravity.

A board is ``rows[y][x]`` exactly as the protocol view sends it: 0 is an empty
cell, ``k >= 1`` a tile of kind ``k``; ``x`` is the column, ``y`` the row from
the top. Kept apart from path search so the generator, the solver and the game
all clear tiles the same way.
"""

from __future__ import annotations

from typing import Literal

Rows = list[list[int]]
Point = tuple[int, int]
Pair = tuple[Point, Point]
Gravity = Literal["none", "down"]

EMPTY = 0


def copy_rows(rows: Rows) -> Rows:
    """An independent copy, so one racer's board never aliases another's."""
    return [list(row) for row in rows]


def count_tiles(rows: Rows) -> int:
    """How many tiles are still on the board."""
    return sum(1 for row in rows for cell in row if cell != EMPTY)


def fall_down(rows: Rows, columns: set[int] | None = None) -> None:
    """Let tiles drop to the bottom of their columns (KShisen's gravity), in place."""
    height = len(rows)
    width = len(rows[0]) if height else 0
    for x in sorted(columns) if columns is not None else range(width):
        stack = [rows[y][x] for y in range(height - 1, -1, -1) if rows[y][x] != EMPTY]
        stack.extend([EMPTY] * (height - len(stack)))
        for i, kind in enumerate(stack):
            rows[height - 1 - i][x] = kind


def remove_pair(rows: Rows, a: Point, b: Point, gravity: Gravity) -> None:
    """Clear the two tiles of a link, then apply ``gravity``, in place."""
    rows[a[1]][a[0]] = EMPTY
    rows[b[1]][b[0]] = EMPTY
    if gravity == "down":
        fall_down(rows, {a[0], b[0]})
