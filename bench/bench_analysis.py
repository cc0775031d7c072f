"""Game analysis: what it costs, and what it costs everyone else.

Stores a few finished Gomoku games (easy self-play), then, on a real server on
loopback, measures from 127.0.0.1 the round trip of two things people wait for:
the easy computer's reply (a ``computer`` job) and a Minesweeper first reveal
(a ``quick`` job: the board is made in the pool). First with nothing else running
(the baseline, this run, this machine), then while other addresses (127.0.0.2 and
up, one analysis each) have the server analyse their games. It prints p50/p90/max
of both, their ratio to the baseline, and each analysis's wall time per position
against its budget.

    .venv/bin/python bench/bench_analysis.py [--budget 0.5] [--games 3] [--plies 40]
"""

from __future__ import annotations

import argparse
import asyncio
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.server.core.config import ServerConfig
from gridhall.server.games.gomoku.ai import choose_move
from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient


def self_play(plies: int, seed: int) -> list[tuple[int, int]]:
    """An easy-vs-easy game of ``plies`` stones (no five: a fresh opening each time)."""
    moves = [(7, 7), (7 + seed % 3 - 1, 8), (6 + seed % 4, 6)]
    while len(moves) < plies:
        moves.append(choose_move(moves, 15, "freestyle", "easy"))
    return moves


@asynccontextmanager
async def client_from(address: str, port: int, name: str) -> AsyncIterator[WsClient]:
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    async with connect(f"ws://127.0.0.1:{port}/", sock=sock, compression=None, max_size=None) as ws:
        client = WsClient(ws)
        await client.hello(name)
        yield client


async def probe(port: int, rounds: int) -> tuple[list[float], list[float]]:
    """``rounds`` easy-computer replies and Minesweeper first reveals, in ms."""
    replies: list[float] = []
    reveals: list[float] = []
    async with client_from("127.0.0.1", port, "Probe") as c:
        for _ in range(rounds):
            await c.send("create-room", game="gomoku", options={"ai": "easy"})
            state = await c.expect("state", status="playing")
            bot = state["players"][1]["player"]
            began = time.perf_counter()
            await c.send("move", move={"x": 7, "y": 7})
            await c.expect("moved", by=bot)
            replies.append((time.perf_counter() - began) * 1000)
            await c.send("leave-room")
            await c.expect("left", player=c.player)
        for _ in range(rounds):
            await c.send("create-room", game="minesweeper", options={"preset": "expert"})
            await c.expect("state")
            began = time.perf_counter()
            await c.send("move", move={"action": "reveal", "x": 15, "y": 8})
            await c.expect("moved")
            reveals.append((time.perf_counter() - began) * 1000)
            await c.send("leave-room")
            await c.expect("left", player=c.player)
    return replies, reveals


async def analyse(port: int, address: str, game_id: int, out: list[tuple[int, float]]) -> None:
    async with client_from(address, port, "Analyst") as c:
        began = time.perf_counter()
        await c.send("analyse", game_id=game_id, id=1)
        first = await c.expect("analysis", re=1)
        done = await c.expect("analysis", status="done", timeout=3600)
        out.append((first["progress"][1], time.perf_counter() - began))
        assert len(done["moves"]) > 0


def line(name: str, ms: list[float], base: list[float] | None = None) -> str:
    ordered = sorted(ms)
    p50, p90 = statistics.median(ordered), ordered[int(len(ordered) * 0.9) - 1]
    text = f"{name:<28} p50 {p50:7.1f}  p90 {p90:7.1f}  max {ordered[-1]:7.1f} ms"
    if base:
        text += f"   x{p50 / statistics.median(base):.2f} p50 of the baseline"
    return text


async def main(budget: float, games: int, plies: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = GameServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                db=f"{folder}/b.db",
                analysis_budget=budget,
                max_analyses=games,
                room_creations_per_minute=6000.0,
                room_creation_burst=1000,
                snapshots_per_second=1000.0,
                snapshot_burst=1000,
            )
        )
        await server.start()
        try:
            now = time.time()
            ids = [
                server.store.save_game(
                    "BENCH",
                    "gomoku",
                    {"size": 15, "rule": "freestyle"},
                    [
                        {"player": "a", "name": "A", "seat": 0},
                        {"player": "b", "name": "B", "seat": 1},
                    ],
                    {"winner": None, "reason": "agreed-draw"},
                    {
                        "moves": [list(m) for m in self_play(plies, n)],
                        "colors": {"a": "black", "b": "white"},
                    },
                    now - 60,
                    now,
                )
                for n in range(games)
            ]
            await probe(server.port, 3)  # warm the workers
            base = await probe(server.port, rounds)
            spent: list[tuple[int, float]] = []
            jobs = [
                asyncio.create_task(analyse(server.port, f"127.0.0.{2 + n}", gid, spent))
                for n, gid in enumerate(ids)
            ]
            loaded = await probe(server.port, rounds)
            await asyncio.gather(*jobs)
        finally:
            await server.close()
    print(
        f"{games} analyses of {plies}-ply games, budget {budget:g} s a position, "
        f"ai_workers 2 + 1 quick"
    )
    print(line("easy reply, idle", base[0]))
    print(line("easy reply, analysing", loaded[0], base[0]))
    print(line("first reveal, idle", base[1]))
    print(line("first reveal, analysing", loaded[1], base[1]))
    for positions, seconds in spent:
        print(
            f"analysis: {positions} positions in {seconds:.1f} s = "
            f"{seconds / positions:.2f} s a position ({seconds / positions / budget:.2f}x "
            "the budget)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    asyncio.run(main(args.budget, args.games, args.plies, args.rounds))
