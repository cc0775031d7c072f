"""What counting the server's figures (server/core/stats.py) costs per message.

In one process and one run, the same messages go through the real session, hub,
store and flush (no sockets: the links keep the frames) twice over: once with the
server's :class:`Stats` and once with one whose counting does nothing. The ratio
(with / without) is the cost of the figures on per-message handling; each side
takes the best of several rounds, alternating, so a busy machine affects both.
Two kinds of message: a Gomoku move (journaled, answered to both players, its round
trip measured) and a ``list-rooms`` (nothing stored). It also prints how long one
``/metrics`` scrape takes with many rooms open, and the figures' own calls timed
alone (steadier on a busy machine than the difference of two runs).

    .venv/bin/python bench/metrics_overhead.py [--rounds 31] [--games 1] [--lists 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.session import Session
from gridhall.server.core.stats import Stats
from gridhall.server.io.net.app import GameServer, exporter

# A full 15x15 board with no five anywhere: every game runs all 225 moves to a draw.
BLACK = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
WHITE = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]
T0 = 1_800_000_000.0


class Quiet(Stats):
    """Figures that count nothing: the baseline."""

    def message_in(self, kind: str, now: float) -> None:
        pass

    def frame_out(self, frame: bytes, sockets: int = 1) -> None:
        pass

    def move_accepted(self, started: float) -> None:
        pass

    def delivered(self, now: float) -> None:
        pass

    def commit(self, seconds: float) -> None:
        pass


class Link:
    """A connection that keeps only how many frames it got."""

    peer = "10.0.0.1"
    closed = False

    def __init__(self) -> None:
        self.frames = 0
        self.last = b""

    def send_frame(self, frame: bytes) -> None:
        self.frames += 1
        self.last = frame

    def close(self, code: int, reason: str) -> None:
        self.closed = True


def server_in(tmp: str, name: str) -> GameServer:
    return GameServer(
        ServerConfig(
            host="127.0.0.1",
            port=0,
            db=f"{tmp}/{name}.db",
            rate_per_second=1e9,
            rate_burst=10**9,
            max_rooms=10**5,
            max_rooms_per_address=10**5,
            metrics=True,
        )
    )


async def hello(server: GameServer, name: str) -> tuple[Session, Link]:
    link = Link()
    session = Session(server, link, T0)
    server.execute(
        session.receive(p.encode_map({"type": "hello", "protocol": 1, "name": name}), T0), session
    )
    await turn()
    return session, link


async def turn() -> None:
    """End the event loop's turn: the server commits and delivers (its own flush)."""
    await asyncio.sleep(0)


async def play(server: GameServer, games: int) -> float:
    """Seconds for ``games`` full Gomoku games, move by move, a flush after each."""
    a, a_link = await hello(server, "A")
    b, _ = await hello(server, "B")
    spent = 0.0
    for _ in range(games):
        server.execute(a.receive(p.encode_map({"type": "create-room", "game": "gomoku"}), T0), a)
        await turn()
        room = p.decode_map(a_link.last, p.MAX_SERVER_FRAME).get("room")
        server.execute(b.receive(p.encode_map({"type": "join-room", "room": room}), T0), b)
        await turn()
        frames = [
            p.encode_map({"type": "move", "move": {"x": x, "y": y}})
            for pair in zip(BLACK, WHITE)
            for x, y in pair
        ]
        began = time.perf_counter()
        for n, frame in enumerate(frames):
            s = a if n % 2 == 0 else b
            server.execute(s.receive(frame, T0), s)
            await turn()
        spent += time.perf_counter() - began
        for s in (a, b):
            server.execute(s.receive(p.encode_map({"type": "leave-room"}), T0), s)
        await turn()
    return spent


async def lists(server: GameServer, count: int) -> float:
    """Seconds for ``count`` list-rooms, a flush after each."""
    a, _ = await hello(server, "A")
    frame = p.encode_map({"type": "list-rooms"})
    began = time.perf_counter()
    for _ in range(count):
        server.execute(a.receive(frame, T0), a)
        await turn()
    return time.perf_counter() - began


async def best(rounds: int, run: Callable[[GameServer], Awaitable[float]]) -> tuple[float, float]:
    """(best seconds with the figures, best without), alternating, fresh servers (after
    one round of each to warm up)."""
    counted: list[float] = []
    quiet: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in range(rounds + 1):
            sides: list[tuple[type[Stats], list[float]]] = [(Stats, counted), (Quiet, quiet)]
            for stats, times in sides if n % 2 else sides[::-1]:  # each goes first by turns
                server = server_in(tmp, f"{stats.__name__}{n}")
                server.stats = stats()
                try:
                    seconds = await run(server)
                finally:
                    server.store.close()
                if n:
                    times.append(seconds)
    return min(counted), min(quiet)


def counting_alone(repeat: int = 31, number: int = 20_000) -> float:
    """Seconds the figures' own calls take for one answered request (one message in,
    one frame out, the turn's end), best of ``repeat``: steadier than the difference
    of two runs on a busy machine."""
    stats = Stats()
    frame = p.encode(p.Rooms(rooms=[], re=1))
    clock = time.perf_counter
    times = []
    for _ in range(repeat):
        began = clock()
        for _ in range(number):
            stats.message_in("list-rooms", T0)
            stats.frame_out(frame)
            stats.delivered(clock())
        times.append(clock() - began)
    return min(times) / number


async def scrape(rooms: int) -> tuple[float, int]:
    """Seconds for one /metrics render with ``rooms`` rooms open, and its size."""
    with tempfile.TemporaryDirectory() as tmp:
        server = server_in(tmp, "scrape")
        try:
            for n in range(rooms):
                session, _ = await hello(server, f"P{n}")
                server.execute(
                    session.receive(p.encode_map({"type": "create-room", "game": "gomoku"}), T0),
                    session,
                )
                await turn()
            render = exporter(server).render
            render()
            began = time.perf_counter()
            body = render()
            return time.perf_counter() - began, len(body)
        finally:
            server.store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=31)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--lists", type=int, default=2_000)
    parser.add_argument("--rooms", type=int, default=2_000)
    args = parser.parse_args()
    moves = args.games * len(BLACK + WHITE)
    with_figures, without = await best(args.rounds, lambda s: play(s, args.games))
    print(
        f"move (journaled): {with_figures / moves * 1e6:.1f} us with the figures, "
        f"{without / moves * 1e6:.1f} us without: ratio {with_figures / without:.3f}"
    )
    with_figures, without = await best(args.rounds, lambda s: lists(s, args.lists))
    print(
        f"list-rooms:       {with_figures / args.lists * 1e6:.1f} us with the figures, "
        f"{without / args.lists * 1e6:.1f} us without: ratio {with_figures / without:.3f}"
    )
    alone = counting_alone()
    print(
        f"the figures' own calls per request: {alone * 1e6:.2f} us, "
        f"{alone / (without / args.lists):.1%} of a list-rooms without them"
    )
    seconds, size = await scrape(args.rooms)
    print(f"/metrics with {args.rooms} rooms: {seconds * 1e3:.2f} ms, {size} bytes")


if __name__ == "__main__":
    asyncio.run(main())
