"""Bench the Reversi computer: hard against easy and against a random player.

    nice -n 10 .venv/bin/python bench/bench_reversi.py --games 4 --budget 1.0 --jobs 2

Plays ``--games`` games per colour of hard (``--budget`` seconds a move, counted in the
worker's CPU time so a loaded machine gives the same thinking) against easy and against
a seeded random player on 8x8 (``--size``); every game opens with two seeded random
moves so games differ. The goal: hard wins every game. Prints wins, draws and losses
per opponent, hard's average depth and disc margin, its worst time per move as a ratio
of the budget, and, as the baseline measured in the same run, easy against random.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.server.games.reversi.ai import choose_move  # noqa: E402
from gridhall.server.games.reversi.board import BLACK, WHITE, Position  # noqa: E402

OPENING = 2
"""Seeded random moves that open every game."""


@dataclass
class Game:
    """One game's outcome for the side under test (``player`` against ``opponent``)."""

    player: str
    opponent: str
    colour: int
    margin: int
    depths: list[int] = field(default_factory=list)
    worst: float = 0.0


def move_of(
    level: str, pos: Position, budget: float, rng: random.Random, game: Game
) -> tuple[int, int]:
    if level == "random":
        return rng.choice(pos.legal_cells())
    info: dict[str, int] = {}
    start = time.process_time()
    x, y = choose_move(pos, level, budget, time.process_time, info)
    if level == game.player:
        game.worst = max(game.worst, (time.process_time() - start) / budget)
        if "depth" in info:
            game.depths.append(info["depth"])
    return x, y


def play(player: str, opponent: str, colour: int, seed: int, size: int, budget: float) -> Game:
    """One game; ``player`` has ``colour``."""
    rng = random.Random(seed)
    game = Game(player, opponent, colour, 0)
    pos = Position.start(size)
    for _ in range(OPENING):
        pos = pos.play(*rng.choice(pos.legal_cells()))
    while not pos.over():
        level = player if pos.to_move == colour else opponent
        pos = pos.play(*move_of(level, pos, budget, rng, game))
    black, white = pos.counts()
    game.margin = (black - white) if colour == BLACK else (white - black)
    return game


def report(games: list[Game]) -> None:
    g = games[0]
    wins = sum(x.margin > 0 for x in games)
    draws = sum(x.margin == 0 for x in games)
    depths = [d for x in games for d in x.depths]
    line = (
        f"{g.player} vs {g.opponent}: {wins} wins, {draws} draws, "
        f"{len(games) - wins - draws} losses of {len(games)}; "
        f"margin {sum(x.margin for x in games) / len(games):+.1f} discs"
    )
    if depths:
        worst = max(x.worst for x in games)
        line += f"; depth {sum(depths) / len(depths):.1f}; worst move {worst:.2f}x budget"
    print(line, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per colour and opponent")
    parser.add_argument("--budget", type=float, default=1.0, help="hard's seconds per move")
    parser.add_argument("--size", type=int, default=8, choices=(6, 8, 10))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    pairings = [("hard", "easy"), ("hard", "random"), ("easy", "random")]
    lost = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for player, opponent in pairings:
            futures = [
                pool.submit(play, player, opponent, colour, seed, args.size, args.budget)
                for colour in (BLACK, WHITE)
                for seed in range(args.games)
            ]
            games = [f.result() for f in futures]
            report(games)
            if player == "hard":
                lost += sum(x.margin <= 0 for x in games)
    print(
        "baseline: easy vs random, the same openings"
        if lost == 0
        else f"hard failed to win {lost} games"
    )
    return 0 if lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
