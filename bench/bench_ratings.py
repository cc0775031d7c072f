"""Ratings: what a rated game costs the room's turn, and what the leaderboard queries
cost on a big board.

- ``rate``: one rating update (:meth:`Ratings.rate`) for a Gomoku game and an
  8-racer Link-match race, in the room's turn on the event loop, against the
  baseline of encoding the ``game-over`` the room sends anyway;
- ``store``: saving a rated game (the game row plus its rating rows, one
  transaction) against saving the same game unrated;
- ``queries``: a leaderboard's first page, a deep page, ``around`` a middle
  player and a profile over N rated players (off the loop, in the history
  service's threads), against ``SELECT COUNT(*)`` of the same table.

Run: ``.venv/bin/python bench/bench_ratings.py [--players 100000]``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridhall import protocol as p
from gridhall.server.core.effects import SaveGame
from gridhall.server.core.ratings import Rating, Ratings, Seat, announced
from gridhall.server.io.services.leaderboards import leaderboard, profile
from gridhall.server.io.store.store import Store

MOVES = {"moves": [[x, 7] for x in range(10)]}
"""Ten stones: a game long enough to be rated."""


def per_call(fn: Callable[[], Any], n: int) -> float:
    """Seconds per call, the best of three runs of ``n`` calls."""
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - began) / n)
    return best


def line(name: str, seconds: float, baseline: float) -> None:
    print(f"  {name:<38} {seconds * 1e6:10.1f} µs   x{seconds / baseline:6.1f} of baseline")


def bench_rate() -> None:
    ratings = Ratings()
    a, b = Seat("pa", "Ann"), Seat("pb", "Bob")
    racers = [Seat(f"p{n}", f"R{n}") for n in range(8)]
    result = {"winner": "pa", "reason": "five", "line": [[x, 7] for x in range(5)]}
    race = {"winner": "p0", "reason": "cleared", "ranking": [s.player for s in racers]}
    links = {"actions": {s.player: [{"action": "link", "ok": True}] for s in racers}}
    for seat in (a, b, *racers):  # established: every opponent counts in full
        for kind in ("gomoku", "linkmatch"):
            ratings.table[(seat.player, kind)] = Rating(25.0, 3.0, 20, 10)
    changes = ratings.rate("gomoku", [a, b], result, MOVES)

    def over() -> bytes:
        return p.encode(p.GameOver(room="ABC234", seq=9, result=result, ratings=announced(changes)))

    base = per_call(over, 2000)
    print("rate (in the room's turn):")
    line("baseline: encode a game-over", base, base)
    line(
        "Gomoku, two people",
        per_call(lambda: ratings.rate("gomoku", [a, b], result, MOVES), 2000),
        base,
    )
    line(
        "Link-match, 8 racers",
        per_call(lambda: ratings.rate("linkmatch", racers, race, links), 500),
        base,
    )


def bench_store(folder: Path) -> None:
    store = Store(folder / "store.db")
    ratings = Ratings()
    n = 0

    def game(rated: bool) -> SaveGame:
        nonlocal n
        n += 1
        a, b = Seat(f"a{n % 500}", "Ann"), Seat(f"b{n % 500}", "Bob")
        result = {"winner": a.player, "reason": "five"}
        changes = ratings.rate("gomoku", [a, b], result, MOVES) if rated else []
        players = [{"player": s.player, "name": s.name, "seat": k} for k, s in enumerate((a, b))]
        return SaveGame(
            "R1",
            "gomoku",
            {"size": 15, "rule": "freestyle", "rated": rated},
            players,
            result,
            MOVES,
            0.0,
            float(n),
            ratings=tuple(changes),
        )

    base = per_call(lambda: store.write([game(False)]), 300)
    print("store (one transaction per game):")
    line("baseline: save an unrated game", base, base)
    line("save a rated game", per_call(lambda: store.write([game(True)]), 300), base)
    store.close()


def bench_queries(folder: Path, players: int) -> None:
    store = Store(folder / "board.db")
    rng = random.Random(1)
    db = store.db
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO ratings VALUES (?, 'gomoku', ?, ?, ?, ?, ?, ?, NULL)",
        (
            (f"p{n:07}", mu, sigma, 20, 10, mu - 3 * sigma, f"Player {n}")
            for n in range(players)
            for mu, sigma in [(rng.gauss(25, 4), rng.uniform(1, 8))]
        ),
    )
    db.executemany(
        "INSERT INTO rating_history VALUES (?, 'gomoku', ?, ?, ?)",
        ((f"p{n:07}", g, float(g), 1000 + g) for n in range(0, players, 97) for g in range(200)),
    )
    db.execute("COMMIT")
    middle = f"p{players // 2:07}"
    base = per_call(
        lambda: db.execute("SELECT COUNT(*) FROM ratings WHERE game = 'gomoku'").fetchone(), 20
    )
    print(f"queries over {players:,} rated players:")
    line("baseline: count the board", base, base)
    line("leaderboard, first page of 20", per_call(lambda: leaderboard(db, "gomoku"), 20), base)
    line(
        f"leaderboard, offset {players // 2:,}",
        per_call(lambda: leaderboard(db, "gomoku", offset=players // 2), 20),
        base,
    )
    line(
        "leaderboard around a middle player",
        per_call(lambda: leaderboard(db, "gomoku", around=middle), 20),
        base,
    )
    line("profile (200 history points)", per_call(lambda: profile(db, "p0000097"), 20), base)
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    args = parser.parse_args()
    bench_rate()
    with tempfile.TemporaryDirectory() as folder:
        bench_store(Path(folder))
        bench_queries(Path(folder), args.players)


if __name__ == "__main__":
    main()
