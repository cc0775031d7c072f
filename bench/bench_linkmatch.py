"""Link-match benchmark: path queries, available_pairs, board generation.

Run: ``.venv/bin/python bench/bench_linkmatch.py``. Each figure is printed with
a baseline measured in the same run, so the ratio means something on any
machine:

* find_path vs. a brute-force reference that tries every pair of corners;
* available_pairs vs. calling find_path on every same-kind pair;
* generation vs. dealing the same tiles at random (which is not solvable).
"""

from __future__ import annotations

import functools
import itertools
import random
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gridhall.server.games.linkmatch import available_pairs, find_path  # noqa: E402
from gridhall.server.games.linkmatch.board import (  # noqa: E402
    Gravity,
    Point,
    Rows,
    copy_rows,
    remove_pair,
)
from gridhall.server.games.linkmatch.generate import generate  # noqa: E402


def per_call(fn: Callable[[], object], min_time: float = 0.3) -> float:
    """Seconds per call, repeating until at least ``min_time`` has passed."""
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / n


def brute_links(rows: Rows, a: Point, b: Point) -> bool:
    """Reference: try every corner pair on the two tiles' row and column lines."""
    h, w = len(rows), len(rows[0])

    def free(p: Point) -> bool:
        return not (0 <= p[0] < w and 0 <= p[1] < h) or rows[p[1]][p[0]] == 0

    def clear(p: Point, q: Point) -> bool:
        if p[0] != q[0] and p[1] != q[1]:
            return False
        n = max(abs(p[0] - q[0]), abs(p[1] - q[1]))
        dx, dy = (q[0] > p[0]) - (q[0] < p[0]), (q[1] > p[1]) - (q[1] < p[1])
        return all(free((p[0] + dx * i, p[1] + dy * i)) for i in range(1, n))

    if a == b or rows[a[1]][a[0]] == 0 or rows[a[1]][a[0]] != rows[b[1]][b[0]]:
        return False
    line_a = [(x, a[1]) for x in range(-1, w + 1)] + [(a[0], y) for y in range(-1, h + 1)]
    line_b = [(x, b[1]) for x in range(-1, w + 1)] + [(b[0], y) for y in range(-1, h + 1)]
    return any(
        (p == a or free(p)) and clear(a, p) and (q == b or free(q)) and clear(p, q) and clear(q, b)
        for p in line_a
        for q in line_b
    )


def naive_pairs(rows: Rows) -> list[tuple[Point, Point]]:
    """Baseline: find_path on every same-kind pair."""
    tiles = [(x, y) for y, row in enumerate(rows) for x, k in enumerate(row) if k]
    return [
        (a, b)
        for i, a in enumerate(tiles)
        for b in tiles[i + 1 :]
        if rows[a[1]][a[0]] == rows[b[1]][b[0]] and find_path(rows, a, b) is not None
    ]


def line(name: str, value: float, base_name: str, base: float) -> None:
    print(
        f"{name:<40} {value * 1e6:>11.1f} us   baseline {base_name:<26} "
        f"{base * 1e6:>11.1f} us   ratio {base / value:>7.1f}x faster"
        if value < base
        else f"{name:<40} {value * 1e6:>11.1f} us   baseline {base_name:<26} "
        f"{base * 1e6:>11.1f} us   ratio {value / base:>7.1f}x slower"
    )


def bench_paths() -> None:
    layout = generate(16, 9, 36, "none", random.Random(1))
    rows = copy_rows(layout.rows)
    for a, b in layout.order[:30]:  # a mid-game board: 84 tiles left
        remove_pair(rows, a, b, "none")
    rng = random.Random(2)
    tiles = [(x, y) for y, row in enumerate(rows) for x, k in enumerate(row) if k]
    same = [(a, b) for a in tiles for b in tiles if a != b and rows[a[1]][a[0]] == rows[b[1]][b[0]]]
    queries = rng.sample(same, min(200, len(same)))
    for a, b in queries:
        assert (find_path(rows, a, b) is not None) == brute_links(rows, a, b)
    fast = per_call(lambda: [find_path(rows, a, b) for a, b in queries]) / len(queries)
    slow = per_call(lambda: [brute_links(rows, a, b) for a, b in queries]) / len(queries)
    line("find_path, same-kind pair, 16x9 mid-game", fast, "brute-force corners", slow)


def bench_pairs() -> None:
    full = generate(16, 9, 36, "none", random.Random(3)).rows
    assert sorted(available_pairs(full)) == sorted(naive_pairs(full))
    line(
        "available_pairs, full 16x9/36",
        per_call(lambda: available_pairs(full)),
        "find_path on each pair",
        per_call(lambda: naive_pairs(full)),
    )
    big = generate(30, 16, 36, "none", random.Random(3)).rows
    line(
        "available_pairs, full 30x16/36",
        per_call(lambda: available_pairs(big)),
        "find_path on each pair",
        per_call(lambda: naive_pairs(big)),
    )


def bench_generation() -> None:
    configs: list[tuple[int, int, int, Gravity]] = [
        (16, 9, 36, "none"),
        (16, 9, 36, "down"),
        (30, 16, 36, "none"),
        (30, 16, 36, "down"),
    ]
    seeds = itertools.count()
    for width, height, kinds, gravity in configs:
        gen = per_call(functools.partial(_generate, width, height, kinds, gravity, seeds), 1.0)
        deal = per_call(functools.partial(_deal, width, height, kinds, seeds))
        line(
            f"generate {width}x{height}/{kinds} gravity={gravity}",
            gen,
            "random unsolvable deal",
            deal,
        )


def _generate(w: int, h: int, k: int, g: Gravity, seeds: Iterator[int]) -> Rows:
    return generate(w, h, k, g, random.Random(next(seeds))).rows


def _deal(w: int, h: int, k: int, seeds: Iterator[int]) -> Rows:
    cells = [1 + i % k for i in range(w * h // 2)] * 2
    random.Random(next(seeds)).shuffle(cells)
    return [cells[y * w : (y + 1) * w] for y in range(h)]


def main() -> None:
    print(f"Python {sys.version.split()[0]}; times per call")
    bench_paths()
    bench_pairs()
    bench_generation()


if __name__ == "__main__":
    main()
