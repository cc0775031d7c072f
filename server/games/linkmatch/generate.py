"""Boards that are solvable by construction, and solvable shuffles.

Whether two tiles link depends only on which cells are occupied, not on
kinds. So a layout is made by playing a random game on bare occupancy first:
repeatedly remove any two tiles that link (applying gravity when it is on),
preferring pairs that are not simply neighbours, until the board is empty.
Each removed pair then gets one kind, written back at the cells the two tiles
started on. That random game is a legal clearing order of the finished board
(kept as a witness, tests replay it), so the board is solvable under the same
gravity, and every kind appears an even number of times.

Random play can strand tiles that no longer reach each other (rare; never seen
on full boards). After a few tries the tiles are stacked instead: each pair goes
on top of two columns, and any two column tops link (up, along the outer ring,
down), so stacking never fails; clearing it top-down makes nothing fall.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .board import EMPTY, Gravity, Pair, Point, Rows, remove_pair
from .paths import Grid, Runs

PLAY_ATTEMPTS = 8


@dataclass(frozen=True)
class Layout:
    """A board and one clearing order for it (a witness of solvability)."""

    rows: Rows
    order: list[Pair]


def generate(width: int, height: int, kinds: int, gravity: Gravity, rng: random.Random) -> Layout:
    """A full ``width`` x ``height`` board with ``kinds`` kinds, each an even number
    of times, solvable under ``gravity``."""
    n_pairs = width * height // 2
    pair_kinds = [1 + i % kinds for i in range(n_pairs)]
    rng.shuffle(pair_kinds)
    targets = [(x, y) for y in range(height) for x in range(width)]
    return _build(width, height, targets, pair_kinds, gravity, rng)


def shuffle_tiles(rows: Rows, gravity: Gravity, rng: random.Random) -> Layout:
    """The same tiles rearranged so the board is solvable again.

    Tiles keep their cells; only in the (rare) stacking fallback do they
    settle at the bottom of the same columns.
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


def _build(
    width: int,
    height: int,
    targets: list[Point],
    pair_kinds: list[int],
    gravity: Gravity,
    rng: random.Random,
) -> Layout:
    played: tuple[list[Pair], list[Pair]] | None = None
    for _ in range(PLAY_ATTEMPTS):
        played = _play_out(width, height, targets, gravity, rng)
        if played is not None:
            break
    if played is None:
        heights = [0] * width
        for x, _y in targets:
            heights[x] += 1
        stacked = _place_stacked(height, heights, rng)
        played = (stacked[::-1], stacked[::-1])
    order, starts = played
    rows = [[EMPTY] * width for _ in range(height)]
    for (a, b), kind in zip(starts, pair_kinds, strict=True):
        rows[a[1]][a[0]] = kind
        rows[b[1]][b[0]] = kind
    return Layout(rows, order)


def _play_out(
    width: int, height: int, occupied: list[Point], gravity: Gravity, rng: random.Random
) -> tuple[list[Pair], list[Pair]] | None:
    """Random play on bare occupancy: (the pairs as removed, the same pairs at the
    cells they started on), or None when the tiles got stranded."""
    ids = [[0] * width for _ in range(height)]
    for n, (x, y) in enumerate(occupied, 1):
        ids[y][x] = n
    origin = dict(enumerate(occupied, 1))
    order: list[Pair] = []
    starts: list[Pair] = []
    for _ in range(len(occupied) // 2):
        grid = Grid(ids)
        pick = _random_link(grid, Runs(grid), rng)
        if pick is None:
            return None
        a, b = grid.point(pick[0]), grid.point(pick[1])
        order.append((a, b))
        starts.append((origin[ids[a[1]][a[0]]], origin[ids[b[1]][b[0]]]))
        remove_pair(ids, a, b, gravity)
    return order, starts


def _random_link(grid: Grid, runs: Runs, rng: random.Random) -> tuple[int, int] | None:
    """Two occupied cells that link, preferring a pair that is not just neighbours."""
    cells, stride = grid.cells, grid.stride
    tiles = [i for i, c in enumerate(cells) if c > 0]
    rng.shuffle(tiles)
    fallback: tuple[int, int] | None = None
    for i in tiles:
        reach = sorted(runs.reach_tiles(i))
        if not reach:
            continue
        far = [j for j in reach if abs(j - i) not in (1, stride)]
        if far:
            return i, rng.choice(far)
        if fallback is None:
            fallback = (i, rng.choice(reach))
    return fallback


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
