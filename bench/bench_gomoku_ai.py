"""Bench the Gomoku computer opponents: hard vs easy, a VCF puzzle set, and
self-play of hard at 1 s against hard at 3 s.

    nice -n 10 .venv/bin/python bench/bench_gomoku_ai.py --games 100 --budget 0.3 --jobs 2
    nice -n 10 .venv/bin/python bench/bench_gomoku_ai.py --games 0 --selfplay 4 --records DIR

Plays hard against easy over N games, colours alternating, each game opened
with two or three seeded random stones near the centre so games differ.
Prints hard's win rate, average and worst time per move (worst as a ratio of
the budget: the goal is <= 1.10), nodes per second, and easy's time per move
as the baseline measured in the same run; then how many VCF positions hard's
threat search solves within 5 s each. Then `--selfplay` games per colour of hard
at `--fast` seconds against hard at `--slow` seconds (freestyle, harness-kept
clocks as in bench_gomoku_engines.py), colours swapped, every game written as a
Gomocup .psq record under `--records` (default bench/results/selfplay/,
git-ignored; bench/samples/ holds a few committed ones) so losses can be studied.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gomoku_match import OPENINGS, Game, Side, five_at, write_psq  # noqa: E402
from gomoku_match import play as play_match  # noqa: E402

from gridhall.server.games.gomoku.ai import clock, easy, hard  # noqa: E402
from gridhall.server.games.gomoku.ai.position import Position  # noqa: E402
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout  # noqa: E402

Point = tuple[int, int]

# Side to move wins by continuous fours (found by self-play, standard rule).
VCF_SET: list[list[Point]] = [
    [
        (7, 7),
        (8, 6),
        (8, 7),
        (9, 7),
        (7, 5),
        (7, 8),
        (7, 6),
        (7, 4),
        (6, 5),
        (9, 8),
        (5, 5),
        (8, 5),
        (6, 6),
        (8, 8),
    ],
    [
        (7, 7),
        (7, 8),
        (6, 7),
        (8, 7),
        (6, 9),
        (6, 8),
        (5, 8),
        (4, 7),
        (4, 9),
        (7, 6),
        (5, 9),
        (7, 9),
        (5, 10),
        (5, 7),
    ],
    [
        (7, 7),
        (8, 7),
        (6, 8),
        (8, 6),
        (8, 8),
        (7, 8),
        (6, 6),
        (5, 5),
        (5, 7),
        (10, 10),
        (6, 9),
        (6, 7),
        (7, 9),
        (4, 6),
        (5, 9),
        (8, 9),
        (5, 6),
        (7, 5),
    ],
    [
        (7, 7),
        (5, 5),
        (8, 9),
        (7, 5),
        (6, 5),
        (6, 4),
        (8, 6),
        (7, 3),
        (4, 6),
        (7, 4),
        (7, 2),
        (8, 4),
        (5, 4),
        (9, 3),
        (6, 6),
    ],
    [
        (5, 8),
        (4, 8),
        (6, 8),
        (0, 0),
        (7, 8),
        (8, 4),
        (8, 5),
        (14, 14),
        (8, 6),
        (14, 0),
        (8, 7),
        (0, 14),
    ],
]


@dataclass
class GameResult:
    hard_won: bool
    draw: bool
    moves: int
    hard_times: list[float] = field(default_factory=list)
    sharp_times: list[float] = field(default_factory=list)
    quiet_times: list[float] = field(default_factory=list)
    easy_times: list[float] = field(default_factory=list)
    nodes: int = 0


def play(
    game: int, rule: str, budget: float, clock_kind: str = "wall", size: int = 15
) -> GameResult:
    clock.use(clock_kind)
    now = clock.now
    rng = random.Random(1000 + game)
    hard_colour = game % 2  # 0: hard is black
    moves: list[Point] = [(size // 2, size // 2)]
    while len(moves) < rng.choice((2, 3)):
        p = (rng.randint(size // 2 - 2, size // 2 + 2), rng.randint(size // 2 - 2, size // 2 + 2))
        if p not in moves:
            moves.append(p)
    res = GameResult(hard_won=False, draw=False, moves=0)
    stones: list[set[Point]] = [set(moves[0::2]), set(moves[1::2])]
    exact = rule == "standard"
    while len(moves) < size * size:
        side = len(moves) % 2
        start = now()
        if side == hard_colour:
            st = hard.Stats()
            m = hard.choose(moves, size, rule, budget, st)
            res.hard_times.append(now() - start)
            if st.reason in ("search", "defence"):  # moves that ran the full search
                (res.sharp_times if st.sharp else res.quiet_times).append(res.hard_times[-1])
            res.nodes += st.nodes
        else:
            m = easy.choose(moves, size, rule)
            res.easy_times.append(now() - start)
        assert m not in moves, (game, m)
        moves.append(m)
        stones[side].add(m)
        if five_at(stones[side], m, exact):
            res.hard_won = side == hard_colour
            break
    else:
        res.draw = True
    res.moves = len(moves)
    return res


def solve_vcf_set(limit: float = 5.0) -> list[tuple[bool, float]]:
    out = []
    for moves in VCF_SET:
        start = time.perf_counter()
        pos = Position(15, "standard", moves)
        try:
            line = ThreatSearch(pos, start + limit).vcf()
        except Timeout:
            line = None
        out.append((line is not None, time.perf_counter() - start))
    return out


def selfplay(games: int, fast: float, slow: float, records: Path, jobs: int) -> None:
    """hard@fast vs hard@slow, `games` per colour, records kept; prints the table."""

    def one(k: int, fast_black: bool) -> Game:
        a, b = Side("gridhall-hard", fast), Side("gridhall-hard", slow)
        try:
            black, white = (a, b) if fast_black else (b, a)
            return play_match(black, white, OPENINGS[k % len(OPENINGS)])
        finally:
            a.close()
            b.close()

    t0 = time.perf_counter()
    keys = [(k, c) for k in range(games) for c in (True, False)]
    with ThreadPoolExecutor(jobs) as pool:
        games_by_key = dict(zip(keys, pool.map(lambda kc: one(*kc), keys)))
    wall = time.perf_counter() - t0
    times: dict[str, list[float]] = {"fast": [], "slow": []}
    rows = []
    for c in (True, False):
        fast_colour = 1 if c else 2
        w = lo = d = 0
        for k in range(games):
            g = games_by_key[(k, c)]
            name = f"selfplay-{k}-fast_{'black' if c else 'white'}.psq"
            write_psq(g, records / name)
            w += g.winner == fast_colour
            lo += g.winner == 3 - fast_colour
            d += g.winner == 0
            for i, t in enumerate(g.times[2:], start=2):
                times["fast" if 1 + i % 2 == fast_colour else "slow"].append(t)
            print(
                f"  game {k} hard@{fast:g}s {'black' if c else 'white'}: "
                f"{'won' if g.winner == fast_colour else 'draw' if g.winner == 0 else 'lost'} "
                f"in {len(g.moves)} moves -> {records / name}"
            )
        rows.append((c, w, lo, d))
    print(
        f"\nself-play freestyle, hard@{fast:g}s vs hard@{slow:g}s, {games}+{games} games, "
        f"wall {wall:.0f} s, load {os.getloadavg()[0]:.2f}"
    )
    for c, w, lo, d in rows:
        print(f"hard@{fast:g}s as {'black' if c else 'white'}: {w}-{lo}-{d} (W-L-D)")
    for name, budget in (("fast", fast), ("slow", slow)):
        ts = times[name]
        if ts:
            print(
                f"hard@{budget:g}s time/move (harness clock) avg {statistics.mean(ts):.3f} s, "
                f"max {max(ts):.3f} s, max/budget {max(ts) / budget:.3f}"
            )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="hard vs easy games (0: skip)")
    ap.add_argument("--budget", type=float, default=2.0, help="hard's seconds per move")
    ap.add_argument("--rule", choices=("standard", "freestyle", "renju"), default="standard")
    ap.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    ap.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="hard vs easy: the engine's deadlines and the times reported, in wall or CPU "
        "seconds (cpu on a loaded machine); self-play always charges CPU time",
    )
    ap.add_argument("--selfplay", type=int, default=0, help="self-play games per colour")
    ap.add_argument("--fast", type=float, default=1.0, help="self-play: the faster hard")
    ap.add_argument("--slow", type=float, default=3.0, help="self-play: the slower hard")
    ap.add_argument(
        "--records",
        type=Path,
        default=Path(__file__).resolve().parent / "results" / "selfplay",
        help="where self-play records go",
    )
    args = ap.parse_args()
    if args.games > 0:
        versus_easy(args)
    vcf = solve_vcf_set()
    solved = sum(ok for ok, _ in vcf)
    print(
        f"VCF set solved within 5 s each: {solved}/{len(vcf)} "
        f"(times {', '.join(f'{t * 1000:.0f}' for _, t in vcf)} ms)"
    )
    if args.selfplay > 0:
        selfplay(args.selfplay, args.fast, args.slow, args.records, args.jobs)


def versus_easy(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(
                pool.map(
                    play,
                    range(args.games),
                    [args.rule] * args.games,
                    [args.budget] * args.games,
                    [args.clock] * args.games,
                )
            )
    else:
        results = []
        for g in range(args.games):
            results.append(play(g, args.rule, args.budget, args.clock))
            r = results[-1]
            print(
                f"game {g:3d}: hard {'black' if g % 2 == 0 else 'white'} "
                f"{'won' if r.hard_won else 'draw' if r.draw else 'LOST'} in {r.moves} moves",
                flush=True,
            )
    wall = time.perf_counter() - t0
    wins = sum(r.hard_won for r in results)
    draws = sum(r.draw for r in results)
    hard_times = [t for r in results for t in r.hard_times]
    easy_times = [t for r in results for t in r.easy_times]
    nodes = sum(r.nodes for r in results)
    print(
        f"\nrule {args.rule}, budget {args.budget:.2f} s ({args.clock} clock), {args.games} games, "
        f"jobs {args.jobs}, wall {wall:.0f} s"
    )
    print(f"hard wins {wins}/{args.games} = {100 * wins / args.games:.1f}%  (draws {draws})")
    print(
        f"hard as black {sum(r.hard_won for r in results[0::2])}/{len(results[0::2])}, "
        f"as white {sum(r.hard_won for r in results[1::2])}/{len(results[1::2])}"
    )
    print(f"avg game length {statistics.mean(r.moves for r in results):.1f} moves")
    avg_hard = statistics.mean(hard_times)
    avg_easy = statistics.mean(easy_times)
    print(
        f"hard time/move avg {avg_hard * 1000:.1f} ms, max {max(hard_times) * 1000:.1f} ms, "
        f"max/budget {max(hard_times) / args.budget:.3f} (goal <= 1.10)"
    )
    print(f"hard nodes/s {nodes / sum(hard_times):.0f}")
    sharp = [t for r in results for t in r.sharp_times]
    quiet = [t for r in results for t in r.quiet_times]
    if sharp and quiet:
        print(
            f"time management: searched moves judged sharp ({len(sharp)}) avg "
            f"{statistics.mean(sharp) * 1000:.0f} ms, quiet ({len(quiet)}) avg "
            f"{statistics.mean(quiet) * 1000:.0f} ms, ratio "
            f"{statistics.mean(sharp) / statistics.mean(quiet):.2f}"
        )
    print(
        f"baseline easy time/move {avg_easy * 1000:.2f} ms; hard/easy ratio "
        f"{avg_hard / avg_easy:.0f}x"
    )


if __name__ == "__main__":
    main()
