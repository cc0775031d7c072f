"""What finding blunders adds to a game's analysis: time per position, against the budget.

Analyses a few easy self-play Gomoku games (easy blunders often: its games are full of
forced wins) position by position in this process, as one worker does, twice in the
same run: first without the defence search (the baseline: the analysis as it was),
then with it. Prints the mean and the slowest position's time, both against the
budget, their ratio to the baseline, and how many plies were marked ``blunder``.

    .venv/bin/python bench/bench_blunders.py [--budget 0.5] [--games 3] [--plies 60]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.server.games.gomoku import analysis
from gridhall.server.games.gomoku.ai import choose_move
from gridhall.server.games.gomoku.rules import Board

Point = tuple[int, int]


def self_play(plies: int, seed: int) -> list[Point]:
    """An easy-vs-easy game of up to ``plies`` stones (it stops at a five)."""
    board = Board(15)
    moves: list[Point] = []
    for x, y in [(7, 7), (7 + seed % 3 - 1, 8), (6 + seed % 4, 6)]:
        board.place(x, y)
        moves.append((x, y))
    while len(moves) < plies:
        x, y = choose_move(moves, 15, "freestyle", "easy")
        board.place(x, y)
        moves.append((x, y))
        if board.wins_at(x, y, "freestyle"):
            break
    return moves


def analyse(moves: list[Point], budget: float) -> tuple[list[float], int]:
    """Each position's seconds, and the plies marked blunder."""
    seconds: list[float] = []
    results: list[analysis.PlyResult] = []
    for k in range(len(moves) + 1):
        before = results[k - 1][1] if k else None
        start = time.perf_counter()
        results.append(analysis.analyse_ply(moves[:k], 15, "freestyle", budget, before))
        seconds.append(time.perf_counter() - start)
    marks = analysis.notes(moves, results)
    return seconds, sum(1 for n in marks if n.get("mark") == "blunder")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=60)
    args = parser.parse_args()
    games = [self_play(args.plies, seed) for seed in range(args.games)]
    rows = []
    for label, search in (("without the defence search", False), ("with it", True)):
        times: list[float] = []
        blunders = 0
        with mock.patch.object(
            analysis, "find_defence", analysis.find_defence if search else _none
        ):
            for moves in games:
                seconds, marked = analyse(moves, args.budget)
                times += seconds
                blunders += marked
        rows.append((label, statistics.mean(times), max(times), blunders))
    base_mean, base_max = rows[0][1], rows[0][2]
    print(f"{args.games} games, {sum(len(g) + 1 for g in games)} positions, budget {args.budget} s")
    for label, mean, worst, blunders in rows:
        print(
            f"{label:28} mean {mean:.3f} s ({mean / args.budget:.2f} budget, x{mean / base_mean:.2f})"
            f"  slowest {worst:.3f} s ({worst / args.budget:.2f} budget, x{worst / base_max:.2f})"
            f"  blunders marked {blunders}"
        )


def _none(*_args: object) -> None:
    return None


if __name__ == "__main__":
    main()
