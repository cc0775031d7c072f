"""An exact solver: does any clearing order exist? For tests and small boards.

Depth-first search over boards, remembering every board already shown to be a
dead end. Many removal orders reach the same board, so the memo is what keeps
this tractable; it is still exponential and meant for boards of a few dozen
cells, as an independent check on the generator's "solvable by construction".
"""

from __future__ import annotations

from .board import Gravity, Pair, Rows, copy_rows, remove_pair
from .paths import available_pairs

State = tuple[tuple[int, ...], ...]


def solve(rows: Rows, gravity: Gravity = "none") -> list[Pair] | None:
    """A full clearing order for ``rows`` under ``gravity``, or None if there is none."""
    dead: set[State] = set()

    def search(board: Rows) -> list[Pair] | None:
        if all(cell == 0 for row in board for cell in row):
            return []
        key: State = tuple(tuple(row) for row in board)
        if key in dead:
            return None
        for a, b in available_pairs(board):
            after = copy_rows(board)
            remove_pair(after, a, b, gravity)
            rest = search(after)
            if rest is not None:
                return [(a, b), *rest]
        dead.add(key)
        return None

    return search(copy_rows(rows))
