"""Moves per second for one Gomoku room on loopback, against a websocket echo baseline.

Both figures come from this run on this machine (the machines are noisy): the
baseline is a bare websockets echo server doing one round trip per frame with
the same settings, so the ratio says what the room's rules, views and
encoding cost on top of the transport.

    .venv/bin/python bench/bench_room.py [--games 4]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient

# A full 15x15 board with no five anywhere: every game runs all 225 moves to a draw.
BLACK = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
WHITE = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]


async def echo_baseline(frames: int) -> float:
    """Round trips per second through a bare websockets echo server."""

    async def echo(ws: ServerConnection) -> None:
        async for msg in ws:
            await ws.send(msg)

    async with serve(echo, "127.0.0.1", 0, compression=None) as srv:
        port = srv.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}/", compression=None) as ws:
            payload = b"\x83\xa4type\xa4move\xa4move\x82\xa1x\x07\xa1y\x07\xa2id\x01"
            start = time.perf_counter()
            for _ in range(frames):
                await ws.send(payload)
                await ws.recv()
            return frames / (time.perf_counter() - start)


async def room_moves(games: int) -> tuple[float, int]:
    """Moves per second: each move is sent and seen by the opponent before the next."""
    with tempfile.TemporaryDirectory() as tmp:
        server = GameServer(
            ServerConfig(
                host="127.0.0.1", port=0, db=f"{tmp}/b.db", rate_per_second=1e9, rate_burst=10**9
            )
        )
        await server.start()
        url = f"ws://127.0.0.1:{server.port}/"
        moves = 0
        async with WsClient.connect(url, "A") as a, WsClient.connect(url, "B") as b:
            await a.send("create-room", game="gomoku")
            room = (await a.expect("joined"))["room"]
            await b.send("join-room", room=room)
            await a.expect("state", status="playing")
            await b.expect("state", status="playing")
            start = time.perf_counter()
            for g in range(games):
                black, white = (a, b) if g % 2 == 0 else (b, a)
                for n, (x, y) in enumerate(BLACK):
                    await black.send("move", move={"x": x, "y": y})
                    await white.expect("moved")
                    moves += 1
                    if n < len(WHITE):
                        wx, wy = WHITE[n]
                        await white.send("move", move={"x": wx, "y": wy})
                        await black.expect("moved")
                        moves += 1
                await a.expect("game-over")
                await b.expect("game-over")
                a.received.clear()
                b.received.clear()
                await a.send("play-again")
                await b.expect("play-again")
                await b.send("agree-again")
                await a.expect("state", status="playing")
                await b.expect("state", status="playing")
            elapsed = time.perf_counter() - start
        await server.close()
        return moves / elapsed, moves


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    baseline = await echo_baseline(2000)
    rate, moves = await room_moves(args.games)
    print(f"echo baseline        : {baseline:8.0f} round trips/s")
    print(f"one gomoku room      : {rate:8.0f} moves/s ({moves} moves, {args.games} full games)")
    print(f"ratio room / baseline: {rate / baseline:8.2f}")


if __name__ == "__main__":
    asyncio.run(main())
