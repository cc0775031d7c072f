"""What a cluster costs and how fast it heals, on this machine (docs/cluster.md).

Starts a throw-away Redis and PostgreSQL (as the cluster tests do) and two nodes, then:

- ``same-node``: two co-op Minesweeper players on the room's owner toggle a flag, one
  move at a time; each round trip is timed from ``move`` to the other player's ``moved``;
- ``relayed``: the same with both players connected to the OTHER node (every frame goes
  through Redis streams to the owner and back);
- ``takeover``: the owner is killed (``kill -9``); the time until the other node logged
  the takeover, and until a player resumed there and saw the board again.

    .venv/bin/python bench/cluster_failover.py [--moves 150] [--lease-ms 3000]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.cluster.conftest import PostgresServer, RedisServer, _pg_bin  # noqa: E402
from tests.cluster.nodes import Node, rejoin  # noqa: E402
from tests.wsclient import WsClient  # noqa: E402

PACE = 0.08
"""Seconds between a player's moves (the server's rate limit is per connection)."""


async def round_trips(a: WsClient, b: WsClient, moves: int, cell: tuple[int, int]) -> list[float]:
    times: list[float] = []
    for i in range(moves):
        mark = "flag" if i % 2 == 0 else "none"
        began = time.perf_counter()
        await a.send("move", move={"action": "mark", "x": cell[0], "y": cell[1], "mark": mark})
        await b.expect("moved", by=a.player)
        times.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(PACE)  # within the message rate a player is allowed
    return times


def summary(name: str, times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (
        f"{name:<10} {len(times):>5} moves  median {statistics.median(times):6.2f} ms"
        f"  p99 {p99:6.2f} ms"
    )


async def pair(stack: AsyncExitStack, url: str, room: str | None) -> tuple[WsClient, WsClient, str]:
    a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
    b = await stack.enter_async_context(WsClient.connect(url, "Bob"))
    if room is None:
        await a.send("create-room", game="minesweeper", options={"preset": "beginner"})
        room = (await a.expect("joined"))["room"]
        await a.send("move", move={"action": "reveal", "x": 4, "y": 4})
        await a.expect("moved", by=a.player)
    else:
        await a.send("join-room", room=room)
        await a.expect("state")
    await b.send("join-room", room=room)
    await b.expect("state")
    return a, b, room


async def main(moves: int, lease_ms: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="gridhall-bench-"))
    redis = RedisServer(shutil.which("redis-server") or "redis-server", tmp)
    bindir = _pg_bin()
    assert bindir is not None, "PostgreSQL is not installed"
    pg = PostgresServer(bindir)
    redis.start()
    pg.start()
    nodes = [
        Node(tmp, f"node{i}", redis.url, pg.url(), "--lease-ms", str(lease_ms)) for i in range(2)
    ]
    try:
        async with AsyncExitStack() as stack:
            for node in nodes:
                await node.ready()
            a, b, room = await pair(stack, nodes[0].url, None)
            rows = next(m["view"]["rows"] for m in reversed(a.received) if "view" in m)
            cell = next((x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "#")
            print(summary("same-node", await round_trips(a, b, moves, cell)))
            a2, b2, _ = await pair(stack, nodes[1].url, room)
            print(summary("relayed", await round_trips(a2, b2, moves, cell)))
            began = time.perf_counter()
            await nodes[0].kill()
            await nodes[1].logged(f"room {room} taken over")
            taken = time.perf_counter() - began
            back = await rejoin(stack, nodes[1].url, a2, "Ann")
            await back.send("sync")
            await back.expect("state")
            resumed = time.perf_counter() - began
            print(
                f"takeover   lease {lease_ms} ms: taken over after {taken:.2f} s, "
                f"a player resumed after {resumed:.2f} s"
            )
    finally:
        for node in nodes:
            node.stop()
        redis.stop()
        pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--lease-ms", type=int, default=3000)
    args = parser.parse_args()
    asyncio.run(main(args.moves, args.lease_ms))
