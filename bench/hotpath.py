"""A move's CPU inside gridhall's own code, without sockets: this tree against another's.

The server's hot path (``Session.receive`` -> the hub, the room, the rules, the
effects -> ``GameServer._flush``: the journal's commit, then the frames handed to each
connection) is run in one process on a real :class:`GameServer` with its SQLite journal,
its connections replaced by links that only count the frames they are given. Rooms
move in turns the way the load bench's throughput phase does (every room one move,
then one flush: a turn of the event loop), so what this measures is what a move
costs gridhall's Python code, apart from websockets, asyncio and the kernel
(``bench/load.py`` and ``bench/peers/run.py`` measure everything, on a real socket).

With ``--against DIR`` (a checkout with its own virtualenv, e.g. main's in a ``git
worktree``) the same harness runs in that tree's interpreter too, alternating, and
the ratios are printed; ``--profile`` prints cProfile's top functions for this tree.

    .venv/bin/python bench/hotpath.py --against /tmp/hotpath-base --rounds 3
    .venv/bin/python bench/hotpath.py --profile
    .venv/bin/python bench/hotpath.py --against /tmp/hotpath-base --sockets --rooms 1
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import msgpack

ROOT = Path(__file__).resolve().parent.parent
BLACK = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
WHITE = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]
"""A full board with no five anywhere (as in ``bench/load.py``): 225 moves, a draw."""


class CountingLink:
    """A connection that keeps the last frames it was given and counts them."""

    closed = False

    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.frames = 0
        self.last: list[bytes] = []

    def send_frame(self, frame: bytes) -> None:
        self.frames += 1
        self.last.append(frame)

    def close(self, code: int, reason: str) -> None:
        self.closed = True

    def take(self) -> list[dict[str, Any]]:
        out = [msgpack.unpackb(f, raw=False) for f in self.last]
        self.last.clear()
        return out


def pack(msg: dict[str, Any]) -> bytes:
    return bytes(msgpack.packb(msg, use_bin_type=True))


@functools.cache
def _takes_arrival(kind: type) -> bool:
    """Does this tree's ``Session.receive`` take the arrival time? (Asked once: the
    signature costs more than a move.)"""
    return "arrived" in inspect.signature(kind.receive).parameters


def feed(server: Any, session: Any, frame: bytes) -> None:
    """``frame`` from ``session``'s connection, as the server's read hands it over: a
    session that returns its effects has them carried out (an older one, before issue
    38's split, carried them out itself)."""
    if _takes_arrival(type(session)):
        said = session.receive(frame, time.time(), time.perf_counter())
    else:
        said = session.receive(frame, time.time())
    if said is not None:
        server.execute(said, session)


async def run(rooms: int, moves: int, profile: bool) -> dict[str, float]:
    """Seat ``rooms`` Gomoku rooms and play ``moves`` moves in each, one move per room
    per turn; the main thread's CPU per move."""
    from gridhall.server.core.config import ServerConfig
    from gridhall.server.core.session import Session
    from gridhall.server.io.net.app import GameServer

    with tempfile.TemporaryDirectory() as tmp:
        server = GameServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                db=f"{tmp}/h.db",
                max_rooms=100_000,
                rate_per_second=1e9,
                rate_burst=10**9,
            )
        )
        seats: list[tuple[Any, Any, CountingLink, CountingLink]] = []
        for n in range(rooms):
            pair = []
            for side in "ab":
                link = CountingLink(f"127.0.{n // 250}.{n % 250 + 2}")
                session = Session(server, link, time.time())
                feed(
                    server,
                    session,
                    pack({"type": "hello", "protocol": 1, "name": f"{side}{n}", "deltas": True}),
                )
                pair.append((session, link))
            server._flush()
            (a, la), (b, lb) = pair
            feed(server, a, pack({"type": "create-room", "game": "gomoku"}))
            server._flush()
            code = next(m["room"] for m in la.take() if m.get("type") == "joined")
            feed(server, b, pack({"type": "join-room", "room": code}))
            server._flush()
            la.take(), lb.take()
            seats.append((a, b, la, lb))
        frames = [
            pack({"type": "move", "move": {"x": x, "y": y}})
            for ply in range(225)
            for x, y in [(BLACK if ply % 2 == 0 else WHITE)[ply // 2]]
        ]
        try:  # the collector paced as gridhall-server paces it (an older tree: as is)
            from gridhall.server.io.runtime import collector
        except ImportError:
            pass
        else:
            collector.install()
        profiler = None
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        start = time.thread_time()
        wall = time.perf_counter()
        for ply in range(moves):
            frame = frames[ply % 225]
            for a, b, _, _ in seats:
                feed(server, a if ply % 2 == 0 else b, frame)
            server._flush()
            for _, _, la, lb in seats:
                la.last.clear()
                lb.last.clear()
        cpu = time.thread_time() - start
        wall = time.perf_counter() - wall
        if profiler is not None:
            import pstats

            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        done = moves * rooms
        sent = sum(la.frames + lb.frames for _, _, la, lb in seats)
        if sent < 2 * done:
            raise SystemExit(f"only {sent} frames sent for {done} moves: moves were refused")
        await server.close()
        return {"cpu_us": 1e6 * cpu / done, "wall_us": 1e6 * wall / done}


def child(args: argparse.Namespace) -> None:
    figures = asyncio.run(run(args.rooms, args.moves, args.profile))
    print(json.dumps(figures), flush=True)


def measure(python: str, args: argparse.Namespace) -> dict[str, float]:
    out = subprocess.run(
        [python, __file__, "--child", "--rooms", str(args.rooms), "--moves", str(args.moves)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    figures: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return figures


def over_sockets(args: argparse.Namespace, trees: dict[str, str]) -> None:
    """The same comparison through real sockets: each tree's server (``bench/load.py``'s)
    in turn, driven by ``load.py``'s client processes with ``--rooms`` rooms moving flat
    out for ``--seconds``; the server process's CPU (user + system) per move. With one
    room every move is handled alone (no two share a turn, a commit or a wake-up), so
    the trees are compared at the same batching whatever their speed."""
    sys.path.insert(0, str(ROOT / "bench"))
    import load

    cpu: dict[str, list[float]] = {name: [] for name in trees}
    system: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, python in trees.items():
            with tempfile.TemporaryDirectory() as tmp:
                server = load.ServerProc.start("gridhall", tmp, args.uvloop, python)
                try:
                    phase = load.Phase("gridhall", server.port, "fast", args.seconds, 0, True)
                    sys0 = server.cpu_split()[1]
                    done = load.run_clients(server, phase, args.rooms, 1, 0)
                    sys1 = server.cpu_split()[1]
                finally:
                    server.stop()
            moves = max(1, done["moves"])
            cpu[name].append(done["server_cpu"] / moves * 1e6)
            system[name].append((sys1 - sys0) / moves * 1e6)
    for name in trees:
        print(
            f"  {name:5} server CPU us/move  "
            + "  ".join(f"{v:6.1f}" for v in cpu[name])
            + f"   median {statistics.median(cpu[name]):6.1f}"
            + f"  (the kernel's {statistics.median(system[name]):5.1f})"
        )
    if "base" in cpu:
        ratio = statistics.median(cpu["this"]) / statistics.median(cpu["base"])
        print(f"  this/base: {ratio:.2f}x the base's CPU per move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50, help="rooms moving in each turn")
    parser.add_argument("--moves", type=int, default=200, help="moves per room (< 225)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per tree")
    parser.add_argument("--against", metavar="DIR", help="another checkout (with .venv)")
    parser.add_argument("--profile", action="store_true", help="cProfile this tree's run")
    parser.add_argument(
        "--sockets",
        action="store_true",
        help="through real sockets: each tree's whole server, load.py's clients",
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="--sockets: each run's length")
    parser.add_argument("--uvloop", action="store_true", help="--sockets: the servers on uvloop")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.moves = min(args.moves, 224)  # the game ends at 225: stay inside one game
    if args.child or args.profile:
        child(args)
        return
    trees = {"this": sys.executable}
    if args.against:
        trees["base"] = str(Path(args.against) / ".venv" / "bin" / "python")
    print(
        f"hotpath: {args.rooms} rooms x {args.moves} moves, {args.rounds} rounds, "
        f"load average {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    if args.sockets:
        over_sockets(args, trees)
        print(f"(load average at the end {os.getloadavg()[0]:.2f})")
        return
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, python in trees.items():
            cpu[name].append(measure(python, args)["cpu_us"])
    for name, values in cpu.items():
        print(
            f"  {name:5} CPU us/move  "
            + "  ".join(f"{v:6.1f}" for v in values)
            + f"   median {statistics.median(values):6.1f}"
        )
    if "base" in cpu:
        ratio = statistics.median(cpu["base"]) / statistics.median(cpu["this"])
        print(f"  base/this: {ratio:.2f}x (this tree's move costs {1 / ratio:.2f} of the base's)")
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
