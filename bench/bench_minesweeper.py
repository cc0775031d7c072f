"""Minesweeper benchmark: no-guess generation, a big flood fill, the solver's win rate.

Run: ``.venv/bin/python bench/bench_minesweeper.py [--games 1000] [--boards 100]``.
Each figure is printed with a ratio against a baseline measured in the same run:
plain random generation (no-guess cost), a plain loop over the cells (flood fill),
and a rules-only player that guesses at random (win rate).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from multiprocessing import Pool

from gridhall.server.games.minesweeper.board import Board
from gridhall.server.games.minesweeper.generate import no_guess_layout, random_layout
from gridhall.server.games.minesweeper.solver import UNKNOWN, Knowledge, analyse_or_estimate

EXPERT = (30, 16, 99)


def _times(make: Callable[[int], object], n: int) -> list[float]:
    out = []
    for seed in range(n):
        t = time.perf_counter()
        make(seed)
        out.append(time.perf_counter() - t)
    return sorted(out)


def _p95(xs: list[float]) -> float:
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def bench_generation(boards: int) -> None:
    w, h, m = EXPERT
    first = (h // 2) * w + w // 2
    base = _times(lambda s: random_layout(w, h, m, first, "opening", random.Random(s)), boards)
    ng = _times(lambda s: no_guess_layout(w, h, m, first, "opening", random.Random(s)), boards)
    bm = statistics.median(base)
    print(f"no-guess expert generation ({boards} boards): median {statistics.median(ng)*1e3:.1f}"
          f" ms, p95 {_p95(ng)*1e3:.1f} ms, max {ng[-1]*1e3:.1f} ms")
    print(f"  baseline plain random layout: median {bm*1e3:.3f} ms; "
          f"ratio no-guess/random median {statistics.median(ng)/bm:.0f}x")


def bench_flood() -> None:
    board = Board(200, 200, [(199 + 200 * y) for y in range(10)])
    runs = []
    for _ in range(5):
        revealed, flags = bytearray(40000), bytearray(40000)
        t = time.perf_counter()
        opened = board.flood(0, revealed, flags)
        runs.append(time.perf_counter() - t)
    base = []
    for _ in range(5):
        revealed = bytearray(40000)
        t = time.perf_counter()
        for c in range(40000):
            revealed[c] = 1
        base.append(time.perf_counter() - t)
    f, b = min(runs), min(base)
    print(f"200x200 flood fill (10 mines, {len(opened)} cells opened): {f*1e3:.1f} ms")
    print(f"  baseline plain loop over 40000 cells: {b*1e3:.1f} ms; ratio {f/b:.1f}x")


def play(seed: int, smart: bool = True) -> bool:
    """One solo expert game with the opening rule; True on a win."""
    w, h, m = EXPERT
    rng = random.Random(seed)
    first = rng.randrange(w * h)
    board = random_layout(w, h, m, first, "opening", rng)
    k = Knowledge(w, h, m)
    k.reveal(first, board.counts[first])
    while True:
        safe, _ = k.settle(exact=smart)
        for c in safe:
            k.reveal(c, board.counts[c])
        if k.solved():
            return True
        if safe:
            continue
        if smart:
            cell, _ = k.best_guess(analyse_or_estimate(k))
        else:
            cell = rng.choice([c for c in range(w * h) if k.state[c] == UNKNOWN])
        if board.is_mine(cell):
            return False
        k.reveal(cell, board.counts[cell])


def _play_random(seed: int) -> bool:
    return play(seed, smart=False)


def bench_win_rate(games: int) -> None:
    t = time.perf_counter()
    with Pool(2) as pool:
        wins = sum(pool.map(play, range(games), chunksize=10))
        base = sum(pool.map(_play_random, range(games), chunksize=10))
    dt = time.perf_counter() - t
    rate, brate = wins / games, base / games
    print(f"solver win rate, expert, opening rule ({games} games): {rate:.1%}")
    print(f"  baseline rules-only + random guesses: {brate:.1%}; "
          f"ratio {rate / max(brate, 1e-9):.1f}x  (both runs: {dt:.0f} s on 2 processes)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--boards", type=int, default=100)
    args = parser.parse_args()
    bench_generation(args.boards)
    bench_flood()
    bench_win_rate(args.games)


if __name__ == "__main__":
    main()
