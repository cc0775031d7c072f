"""History queries: what they cost and whether they stall the event loop.

- ``list``: ``list-games`` filtered by a player's name over N stored games, through
  the ``game_players`` index, against the baseline of scanning every game's players
  text (what the query would be without the index);
- ``replay``: a replay page of a big game of each kind (Gomoku, full 15x15 board;
  Minesweeper 100x100 co-op with thousands of actions; a 4-racer Link-match race),
  against the baseline of re-running the same record without making views;
- ``loop``: the event loop's worst lateness (a 5 ms timer) while 10 big replays are
  answered by the history service (reading in its threads, building in the worker
  processes, as the server does), against building them in its threads, and against
  answering them on the loop.

Run: ``.venv/bin/python bench/bench_history.py [--games 10000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gridhall import protocol as p
from gridhall.server.games.base import GameError
from gridhall.server.games.gomoku.game import GomokuGame
from gridhall.server.games.linkmatch.board import copy_rows
from gridhall.server.games.linkmatch.game import LinkMatchGame
from gridhall.server.games.linkmatch.paths import first_pair
from gridhall.server.games.minesweeper.game import from_layout
from gridhall.server.io.services import replays
from gridhall.server.io.services.history_service import HistoryService
from gridhall.server.io.store import history
from gridhall.server.io.store.store import Store
from gridhall.server.io.workers.work import WorkPool


def gomoku_record() -> dict[str, Any]:
    game = GomokuGame({"size": 15, "rule": "freestyle"}, ["p1", "p2"], 0, 0.0)
    cells = [(x, y) for y in range(15) for x in range(15)]
    random.Random(1).shuffle(cells)
    for n, (x, y) in enumerate(cells):
        turn = game.turn()
        if turn is None:
            break
        game.apply(turn, {"x": x, "y": y}, float(n))
    return game.record()


def minesweeper_record(size: int = 100, actions: int = 3000) -> dict[str, Any]:
    rng = random.Random(2)
    cells = [(x, y) for y in range(size) for x in range(size)]
    mines = rng.sample(cells, size * size // 7)
    mine_set = set(mines)
    players = ["p1", "p2", "p3", "p4"]
    game = from_layout(mines, None, width=size, height=size, players=players, options={"lives": 3})
    safe = [c for c in cells if c not in mine_set]
    rng.shuffle(safe)
    for n in range(actions):
        if game.result is not None:
            break
        who = players[n % 4]
        if n % 5 == 4:
            x, y = rng.choice(mines)
            if game.view(None)["rows"][y][x] == "#":
                game.apply(who, {"action": "mark", "x": x, "y": y, "mark": "flag"}, n * 0.5)
            continue
        while safe and game.view(None)["rows"][safe[-1][1]][safe[-1][0]] != "#":
            safe.pop()
        if not safe:
            break
        x, y = safe.pop()
        game.apply(who, {"action": "reveal", "x": x, "y": y}, n * 0.5)
    return game.record()


def linkmatch_record() -> dict[str, Any]:
    options = {
        "width": 16,
        "height": 9,
        "kinds": 36,
        "gravity": "none",
        "time_limit": 600,
        "countdown": 0,
        "hint_penalty": 0,
    }
    players = ["p1", "p2", "p3", "p4"]
    game = LinkMatchGame(options, players, 3, 0.0)
    t = 0.0
    while game.result is None:
        for pid in players:
            racer = game.racers[pid]
            if racer.status != "racing" or game.result is not None:
                continue
            pair = first_pair(copy_rows(racer.rows))
            t += 0.3
            if pair is None:
                game.apply(pid, {"action": "shuffle"}, t)
                continue
            try:
                game.apply(pid, {"action": "link", "a": list(pair[0]), "b": list(pair[1])}, t)
            except GameError:  # someone cleared first: the others can no longer win
                game.tick(t)
    return game.record()


def timed(fn: Any, repeat: int = 3) -> float:
    """Best of ``repeat`` runs, in ms."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def bench_list(path: Path, games: int) -> None:
    store = Store(path)
    rng = random.Random(4)
    names = [f"player{n}" for n in range(500)]
    record = {"moves": [[0, 0]]}
    for n in range(games):
        a, b = rng.sample(names, 2)
        store.save_game(
            "R1",
            "gomoku",
            {"size": 15},
            [{"player": f"p{a}", "name": a, "seat": 0}, {"player": f"p{b}", "name": b, "seat": 1}],
            {"winner": None, "reason": "draw"},
            record,
            n,
            n + 1,
        )
    db = store.db
    who = "PLAYER7"
    indexed = timed(lambda: history.list_games(db, name=who, limit=20), 20)

    def scan() -> None:  # the baseline: every game's players text, newest first
        found = []
        for row in db.execute(f"SELECT {history.SUMMARY_COLUMNS} FROM games ORDER BY id DESC"):
            if any(pl["name"].lower() == who.lower() for pl in json.loads(row[3])):
                found.append(history.summary(row))
                if len(found) == 20:
                    break

    baseline = timed(scan, 5)
    print(
        f"list-games name filter over {games} games: {indexed:.2f} ms "
        f"(scan baseline {baseline:.1f} ms, {baseline / indexed:.0f}x faster)"
    )
    store.close()


def bench_replays(records: dict[str, dict[str, Any]]) -> None:
    for game, record in records.items():

        def rules_only(game: str = game, record: dict[str, Any] = record) -> None:
            for _ in replays.make_run(game, record).actions():
                pass

        base = timed(rules_only)
        built = timed(lambda game=game, record=record: replays.page(game, record))  # type: ignore[misc]
        page = replays.page(game, record)
        size = len(p.encode_map({"start": page.start, "steps": page.steps}))
        print(
            f"replay {game:<11}: {page.total:>5} steps, first page {len(page.steps)} steps "
            f"{size / 1024:.0f} KiB in {built:.0f} ms (rules alone {base:.0f} ms, "
            f"{built / base:.1f}x)"
        )


async def loop_lag(service: HistoryService, msg: Any, inline: bool, n: int = 10) -> float:
    """The event loop's worst lateness (ms) while ``n`` replays are answered."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    done = asyncio.Event()
    answered = 0

    class Asker:
        def send_frame(self, frame: bytes) -> None:
            nonlocal answered
            answered += 1
            if answered == n:
                done.set()

    async def ticker() -> None:
        nonlocal worst
        while not done.is_set():
            start = loop.time()
            await asyncio.sleep(0.005)
            worst = max(worst, loop.time() - start - 0.005)

    tick = asyncio.create_task(ticker())
    await asyncio.sleep(0.02)
    for _ in range(n):
        if inline:
            await asyncio.sleep(0)
            Asker().send_frame(service.answer(msg, service.connect()))
        else:
            service.ask(Asker(), msg)
    await done.wait()
    await tick
    return worst * 1000


async def idle_lag(seconds: float) -> float:
    """The event loop's worst lateness (ms) over ``seconds`` with nothing to do."""
    loop = asyncio.get_running_loop()
    worst = 0.0
    end = loop.time() + seconds
    while loop.time() < end:
        start = loop.time()
        await asyncio.sleep(0.005)
        worst = max(worst, loop.time() - start - 0.005)
    return worst * 1000


async def bench_loop(path: Path, record: dict[str, Any]) -> None:
    store = Store(path)
    gid = store.save_game(
        "R2",
        "minesweeper",
        record["options"],
        [{"player": q, "name": q, "seat": n} for n, q in enumerate(record["players"])],
        {"winner": None, "reason": "resign"},
        record,
        0.0,
        1.0,
    )
    store.close()
    msg = p.GetReplay(game_id=gid, id=1)
    work = WorkPool(2, 32, 1, per_address=16)
    work.warm_up()
    lags = {}
    for name, pool in (("workers", work), ("threads", None), ("loop", None)):
        service = HistoryService(str(path), threads=2, waiting=64, work=pool)
        lags[name] = await loop_lag(service, msg, inline=name == "loop")
        service.close()
    work.close()
    idle = await idle_lag(3.0)
    print(f"loop lag with nothing asked (the machine's own noise): {idle:.0f} ms")
    print(
        f"loop lag while 10 big replays are answered: {lags['workers']:.0f} ms built in "
        f"the worker processes, {lags['threads']:.0f} ms built in the history threads, "
        f"{lags['loop']:.0f} ms on the loop "
        f"({lags['loop'] / max(lags['workers'], 0.001):.0f}x less than on the loop)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        bench_list(Path(tmp) / "list.db", args.games)
        mines = minesweeper_record()
        bench_replays(
            {"gomoku": gomoku_record(), "minesweeper": mines, "linkmatch": linkmatch_record()}
        )
        asyncio.run(bench_loop(Path(tmp) / "loop.db", mines))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
