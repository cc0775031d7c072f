"""Boards that are solvable by construction, and solvable shuffles.

Both are built by playing the game backwards: start from the empty cells a
layout must fill and repeatedly put down a pair of tiles that links on the
board as it then stands. Taking the pairs away in the opposite order is a
legal clearing order, so the result is solvable; that order is kept as a
witness (tests replay it).

* ``gravity="none"``: the pair goes on any two open cells that link (a random
  cell, then a random partner reachable in three segments). A run can paint
  itself into a corner; after a few tries it falls back to stacking.
* Stacking (``gravity="down"``, and the fallback): each tile goes on top of a
  column. The space above every column top is empty up to the outer ring, so
  any two column tops link (up, along the ring, down) and stacking never fails.
  Clearing in reverse removes column tops only, so nothing ever falls and the
  witness holds under gravity too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import EMPTY, Gravity, Pair, Point, Rows
from .paths import Grid, Runs

FREE_ATTEMPTS = 20


@dataclass(frozen=True)
class Layout:
    """A board and one clearing order for it (a witness of solvability)."""

    rows: Rows
    order: list[Pair]


def generate(width: int, height: int, kinds: int, gravity: Gravity,
             rng: random.Random) -> Layout:
    """A full ``width`` x ``height`` board with ``kinds`` kinds, each an even number
    of times, solvable under ``gravity``."""
    n_pairs = width * height // 2
    pair_kinds = [1 + i % kinds for i in range(n_pairs)]
    rng.shuffle(pair_kinds)
    targets = [(x, y) for y in range(height) for x in range(width)]
    return _build(width, height, targets, pair_kinds, gravity, rng)


def shuffle_tiles(rows: Rows, gravity: Gravity, rng: random.Random) -> Layout:
    """The same tiles rearranged so the board is solvable again.

    Tiles keep their cells when a solvable arrangement on them is found
    (always under gravity, where columns keep their heights); otherwise they
    are restacked at the bottom of the same columns.
    """
    height = len(rows)
    width = len(rows[0]) if height else 0
    targets = [(x, y) for y in range(height) for x in range(width) if rows[y][x] != EMPTY]
    counts: dict[int, int] = {}
    for x, y in targets:
        counts[rows[y][x]] = counts.get(rows[y][x], 0) + 1
    pair_kinds = [kind for kind in sorted(counts) for _ in range(counts[kind] // 2)]
    rng.shuffle(pair_kinds)
    return _build(width, height, targets, pair_kinds, gravity, rng)


def _build(width: int, height: int, targets: list[Point], pair_kinds: list[int],
           gravity: Gravity, rng: random.Random) -> Layout:
    placed: list[Pair] | None = None
    if gravity == "none":
        for _ in range(FREE_ATTEMPTS):
            placed = _place_free(width, height, targets, rng)
            if placed is not None:
                break
    if placed is None:
        heights = [0] * width
        for x, _y in targets:
            heights[x] += 1
        placed = _place_stacked(height, heights, rng)
    rows = [[EMPTY] * width for _ in range(height)]
    for (a, b), kind in zip(placed, pair_kinds, strict=True):
        rows[a[1]][a[0]] = kind
        rows[b[1]][b[0]] = kind
    return Layout(rows, placed[::-1])


def _place_free(width: int, height: int, targets: list[Point],
                rng: random.Random) -> list[Pair] | None:
    """Pairs covering ``targets``, each linking when put down; None if stuck."""
    rows = [[EMPTY] * width for _ in range(height)]
    open_cells = set(targets)
    placed: list[Pair] = []
    while open_cells:
        order = sorted(open_cells)
        rng.shuffle(order)
        for p in order:
            rows[p[1]][p[0]] = 1  # any kind: reachability ignores kinds
            grid = Grid(rows)
            _, empty = Runs(grid).reach(grid.index(p))
            partners = sorted(q for q in map(grid.point, empty) if q in open_cells)
            if partners:
                q = rng.choice(partners)
                rows[q[1]][q[0]] = 1
                open_cells -= {p, q}
                placed.append((p, q))
                break
            rows[p[1]][p[0]] = EMPTY
        else:
            return None
    return placed


def _place_stacked(height: int, heights: list[int], rng: random.Random) -> list[Pair]:
    """Pairs filling each column ``x`` from the bottom up to ``heights[x]`` tiles."""
    level = [0] * len(heights)
    placed: list[Pair] = []

    def put() -> Point:
        x = rng.choice([c for c, h in enumerate(heights) if level[c] < h])
        level[x] += 1
        return (x, height - level[x])

    for _ in range(sum(heights) // 2):
        a = put()
        placed.append((a, put()))
    return placed
