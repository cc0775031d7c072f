"""Minesweeper benchmark (issue 16): solver win rate, no-guess generation, deduce.

Run: ``nice -n 10 .venv/bin/python bench/bench_minesweeper.py [--games 10000]``.

Every figure comes with a baseline measured in the same run: the implementation
before issue 16, kept in ``bench/minesweeper_baseline/`` for this purpose only.
Simon Tatham's C generator (mines.c, measured on this kind of machine) is
printed as a fixed reference. Times are given as wall clock and as this
process's CPU time: on a shared machine the CPU time is the stable figure.

- Solver: solo expert games (30x16/99) with the opening rule (the first cell
  and its neighbours hold no mine); the win rate with its Wilson 95% interval.
  New: the strategy's first click, (3, 3). Baseline: the old solver exactly as
  the old benchmark played it (random first click) on the same seeds.
- Generation: no-guess expert boards (50, first click at the centre) and
  100x100/2000 boards; every expert board is checked to be cleared by
  ``deduce`` alone from the first click.
- deduce: 100x100/2000 views after 200 random reveals (scattered openings).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from minesweeper_baseline import old_generate, old_solver  # noqa: E402

from gridhall.server.games.minesweeper import deduce, generate_no_guess  # noqa: E402
from gridhall.server.games.minesweeper.board import Board, neighbour_table  # noqa: E402
from gridhall.server.games.minesweeper.play import play_seed  # noqa: E402

EXPERT = (30, 16, 99)
TATHAM_EXPERT_MS = (3.44, 5.49)  # median, max over 50 boards
TATHAM_BIG_MS = (107.0, 147.0)  # 100x100/2000, range of runs
GOAL_EXPERT_MS = (2 * TATHAM_EXPERT_MS[0], 3 * TATHAM_EXPERT_MS[1])
GOAL_BIG_MS = 250.0
GOAL_WIN_RATE = 0.545


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _timed(
    make: Callable[[int], object], seeds: range
) -> tuple[list[float], list[float], list[object]]:
    """Wall and CPU seconds per call, sorted, and the results in seed order."""
    wall, cpu, out = [], [], []
    for seed in seeds:
        t, c = time.perf_counter(), time.process_time()
        out.append(make(seed))
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - t)
    return sorted(wall), sorted(cpu), out


def _ms(xs: list[float]) -> str:
    return f"median {statistics.median(xs) * 1e3:7.1f} ms, max {xs[-1] * 1e3:7.1f} ms"


def cleared_by_deduce(
    width: int, height: int, mines: list[tuple[int, int]], first: tuple[int, int]
) -> bool:
    """Reveal ``first``, then only what ``deduce`` proves; True if all clears."""
    board = Board(width, height, [y * width + x for x, y in mines])
    revealed, flags = bytearray(width * height), bytearray(width * height)
    board.flood(first[1] * width + first[0], revealed, flags)
    while True:
        rows = [
            "".join(
                str(board.counts[y * width + x]) if revealed[y * width + x] else "#"
                for x in range(width)
            )
            for y in range(height)
        ]
        safe, _ = deduce(rows, len(mines))
        if not safe:
            return sum(revealed) == width * height - len(mines)
        for x, y in safe:
            if board.is_mine(y * width + x):
                return False
            board.flood(y * width + x, revealed, flags)


def bench_generation(boards: int, big_boards: int, verify: int) -> None:
    w, h, m = EXPERT
    first = (w // 2, h // 2)
    flat = first[1] * w + first[0]
    generate_no_guess(w, h, m, first, -1)  # warm caches (neighbour tables)
    wall, cpu, layouts = _timed(lambda s: generate_no_guess(w, h, m, first, s), range(boards))
    owall, ocpu, _ = _timed(
        lambda s: old_generate.no_guess_layout(w, h, m, flat, "opening", random.Random(s)),
        range(boards),
    )
    print(f"no-guess expert 30x16/99, first click at the centre ({boards} boards)")
    print(f"  new   wall {_ms(wall)} | cpu {_ms(cpu)}")
    print(f"  old   wall {_ms(owall)} | cpu {_ms(ocpu)}")
    print(
        f"  ratio old/new (cpu): median {statistics.median(ocpu) / statistics.median(cpu):.1f}x,"
        f" max {ocpu[-1] / cpu[-1]:.1f}x"
    )
    print(
        f"  Tatham mines.c reference: median {TATHAM_EXPERT_MS[0]} ms, max "
        f"{TATHAM_EXPERT_MS[1]} ms; goal <= {GOAL_EXPERT_MS[0]:.1f} ms median, "
        f"<= {GOAL_EXPERT_MS[1]:.1f} ms max; new/Tatham (cpu): median "
        f"{statistics.median(cpu) * 1e3 / TATHAM_EXPERT_MS[0]:.2f}x, max "
        f"{cpu[-1] * 1e3 / TATHAM_EXPERT_MS[1]:.2f}x"
    )
    extra = [generate_no_guess(w, h, m, first, boards + s) for s in range(verify)]
    checked = [lay for lay in layouts if isinstance(lay, list)] + extra
    ok = sum(cleared_by_deduce(w, h, lay, first) for lay in checked)
    print(f"  cleared by deduce alone from the first click: {ok}/{len(checked)}")

    bw, bh, bm = 100, 100, 2000
    bfirst = (50, 50)
    generate_no_guess(bw, bh, bm, bfirst, -1)
    wall, cpu, _ = _timed(lambda s: generate_no_guess(bw, bh, bm, bfirst, s), range(big_boards))
    old_n = max(1, min(3, big_boards))
    owall, ocpu, _ = _timed(
        lambda s: old_generate.no_guess_layout(
            bw, bh, bm, 50 * bw + 50, "opening", random.Random(s)
        ),
        range(old_n),
    )
    print(f"no-guess 100x100/2000, first click at the centre ({big_boards} boards, old: {old_n})")
    print(f"  new   wall {_ms(wall)} | cpu {_ms(cpu)}")
    print(f"  old   wall {_ms(owall)} | cpu {_ms(ocpu)}")
    print(
        f"  ratio old/new (cpu median): {statistics.median(ocpu) / statistics.median(cpu):.1f}x;"
        f" Tatham reference {TATHAM_BIG_MS[0]:.0f}-{TATHAM_BIG_MS[1]:.0f} ms; goal <= "
        f"{GOAL_BIG_MS:.0f} ms"
    )


def _scattered_view(seed: int, mines: int = 2000, reveals: int = 200) -> list[str]:
    rng = random.Random(seed)
    board = Board(100, 100, rng.sample(range(10_000), mines))
    revealed, flags = bytearray(10_000), bytearray(10_000)
    safe = [c for c in range(10_000) if not board.is_mine(c)]
    for c in rng.sample(safe, reveals):
        board.flood(c, revealed, flags)
    return [
        "".join(
            str(board.counts[y * 100 + x]) if revealed[y * 100 + x] else "#" for x in range(100)
        )
        for y in range(100)
    ]


def bench_deduce(positions: int) -> None:
    views = [_scattered_view(seed) for seed in range(2, 2 + positions)]
    wall, cpu, new = _timed(lambda i: deduce(views[i], 2000), range(positions))
    owall, ocpu, old = _timed(lambda i: old_solver.deduce(views[i], 2000), range(positions))
    same = sum(a == b for a, b in zip(new, old, strict=True))
    print(f"deduce on 100x100/2000 views after 200 random reveals ({positions} views)")
    print(f"  new   wall {_ms(wall)} | cpu {_ms(cpu)}")
    print(f"  old   wall {_ms(owall)} | cpu {_ms(ocpu)}")
    print(
        f"  ratio old/new (cpu median): {statistics.median(ocpu) / statistics.median(cpu):.0f}x;"
        f" same certainties as the old deduce on {same}/{positions} views"
    )


def bench_flood() -> None:
    board = Board(200, 200, [(199 + 200 * y) for y in range(10)])
    neighbour_table(200, 200)
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
    print(
        f"200x200 flood fill (10 mines, {len(opened)} cells opened): {f * 1e3:.1f} ms; "
        f"baseline plain loop over 40000 cells {b * 1e3:.1f} ms; ratio {f / b:.1f}x"
    )


def old_play(seed: int) -> bool:
    """One game exactly as the old benchmark played it (random first click)."""
    w, h, m = EXPERT
    rng = random.Random(seed)
    first = rng.randrange(w * h)
    board = old_generate.random_layout(w, h, m, first, "opening", rng)
    k = old_solver.Knowledge(w, h, m)
    k.reveal(first, board.counts[first])
    while True:
        safe, _ = k.settle()
        for c in safe:
            k.reveal(c, board.counts[c])
        if k.solved():
            return True
        if safe:
            continue
        cell, _ = k.best_guess(old_solver.analyse_or_estimate(k))
        if board.is_mine(cell):
            return False
        k.reveal(cell, board.counts[cell])


def _rate(label: str, wins: int, games: int) -> str:
    lo, hi = wilson(wins, games)
    return (
        f"{label}: {wins}/{games} = {wins / games:.2%}  (95% Wilson interval {lo:.2%} - {hi:.2%})"
    )


def bench_win_rate(games: int, workers: int, baseline_games: int) -> None:
    t = time.perf_counter()
    with Pool(workers) as pool:
        wins = sum(pool.imap_unordered(play_seed, range(games), chunksize=10))
        dt = time.perf_counter() - t
        base = sum(pool.imap_unordered(old_play, range(baseline_games), chunksize=20))
    print(
        f"solver, expert 30x16/99 with the opening rule ({games} games, {workers} processes,"
        f" {dt:.0f} s)"
    )
    print("  " + _rate("new (first click at (3, 3))", wins, games))
    if baseline_games:
        print("  " + _rate("old (random first click), same seeds", base, baseline_games))
        print(f"  difference new - old: {wins / games - base / baseline_games:+.2%}")
    lo, _ = wilson(wins, games)
    print(
        f"  goal >= {GOAL_WIN_RATE:.1%}: point estimate {'meets' if wins / games >= GOAL_WIN_RATE else 'misses'}"
        f" it; lower 95% bound {lo:.2%}. Published: JSMinesweeper 54.3%, "
        "MineSweeperProb 53.45%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=500, help="solver games (goal: 10000)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the games")
    parser.add_argument("--boards", type=int, default=50, help="expert no-guess boards")
    parser.add_argument("--big-boards", type=int, default=5, help="100x100/2000 boards")
    parser.add_argument(
        "--verify", type=int, default=150, help="extra expert no-guess boards checked with deduce"
    )
    parser.add_argument("--deduce-views", type=int, default=3)
    parser.add_argument(
        "--baseline-games",
        type=int,
        default=None,
        help="games for the old solver (default: --games; 0 skips)",
    )
    parser.add_argument("--only", choices=("solver", "generation", "deduce"), default=None)
    args = parser.parse_args()
    if args.only in (None, "generation"):
        bench_generation(args.boards, args.big_boards, args.verify)
        bench_flood()
    if args.only in (None, "deduce"):
        bench_deduce(args.deduce_views)
    if args.only in (None, "solver"):
        base = args.games if args.baseline_games is None else args.baseline_games
        bench_win_rate(args.games, args.workers, min(base, args.games))


if __name__ == "__main__":
    main()
