"""Load: gridhall against a bare websockets echo server, driven by the same clients.

Each server runs in its own process; the clients run in other processes. For each
server this prints, in one run on this machine:

- throughput: moves (echo: messages) per second with every client sending its next
  move as soon as the previous one came back, and the server's CPU time per move
  (from /proc: the server process's user + system time over the phase);
- latency: round trips (send a move -> see it come back) at 1,000 players in 500
  rooms, each room moving twice a second, rooms out of step: p50, p99 and max;
- idle memory: the server's RSS growth per open, idle connection at 1k and 5k;

then gridhall's ratios to echo. A gridhall move goes to both players of a Gomoku room
(the echo server answers only the sender), so the echo figures are the transport's
floor, not a like-for-like server.

    .venv/bin/python bench/load.py                 # the issue's sizes
    .venv/bin/python bench/load.py --quick         # a smaller, faster run
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")

# A full 15x15 board with no five anywhere: a game runs all 225 moves to a draw.
BLACK = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
WHITE = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]


# ----------------------------------------------------------------------- servers

def serve_gridhall(db: str) -> None:
    """Run a gridhall server with limits opened up for load (one address, many
    connections, fast clients), printing its port."""
    sys.path.insert(0, str(ROOT))
    from gridhall.server.app import GameServer
    from gridhall.server.config import ServerConfig

    config = ServerConfig(host="127.0.0.1", port=0, db=db, max_rooms=10_000,
                          max_connections=20_000, max_connections_per_ip=20_000,
                          rate_per_second=1e6, rate_burst=10**6)
    for name, value in (("max_rooms_per_address", 10_000),):
        if hasattr(config, name):  # limits added by later versions, opened up too
            setattr(config, name, value)
    server = GameServer(config)
    asyncio.run(server.run_until_signalled(lambda s: print(s.port, flush=True)))


def serve_echo() -> None:
    """A bare websockets echo server with the same transport settings."""
    from websockets.asyncio.server import ServerConnection, serve

    async def echo(ws: ServerConnection) -> None:
        async for msg in ws:
            await ws.send(msg)

    async def main() -> None:
        async with serve(echo, "127.0.0.1", 0, compression=None, max_size=64 * 1024,
                         max_queue=64, ping_interval=10, ping_timeout=10) as srv:
            print(srv.sockets[0].getsockname()[1], flush=True)
            await asyncio.Future()

    asyncio.run(main())


@dataclass
class ServerProc:
    kind: str
    proc: subprocess.Popen[str]
    port: int

    @classmethod
    def start(cls, kind: str, tmp: str) -> ServerProc:
        arg = "--serve-gridhall" if kind == "gridhall" else "--serve-echo"
        proc = subprocess.Popen([sys.executable, __file__, arg, f"{tmp}/load.db"],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stdout is not None
        return cls(kind, proc, int(proc.stdout.readline()))

    def cpu(self) -> float:
        """The process's user + system CPU seconds so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# ----------------------------------------------------------------------- clients

def pack(msg: dict[str, Any]) -> bytes:
    data: bytes = msgpack.packb(msg, use_bin_type=True)
    return data


def unpack(frame: bytes | str) -> dict[str, Any]:
    msg: dict[str, Any] = msgpack.unpackb(frame, raw=False)
    return msg


async def open_ws(port: int, n: int) -> ClientConnection:
    # Spread connections over loopback addresses, as players on a LAN come from many.
    local = f"127.0.{(n // 250) % 250}.{n % 250 + 2}"
    return await connect(f"ws://127.0.0.1:{port}/", compression=None, max_size=None,
                         open_timeout=60, ping_interval=None, local_addr=(local, 0))


async def recv_type(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = unpack(await ws.recv())
        if msg.get("type") == kind:
            return msg


@dataclass
class Room:
    """Two connections. In gridhall: a Gomoku room; in echo: two sockets."""

    black: ClientConnection
    white: ClientConnection
    moves: int = 0
    rtts: list[float] = field(default_factory=list)


async def gridhall_room(port: int, n: int) -> Room:
    a, b = await open_ws(port, 2 * n), await open_ws(port, 2 * n + 1)
    for ws, name in ((a, f"a{n}"), (b, f"b{n}")):
        await ws.send(pack({"type": "hello", "protocol": 1, "name": name}))
        await recv_type(ws, "welcome")
    await a.send(pack({"type": "create-room", "game": "gomoku"}))
    code = (await recv_type(a, "joined"))["room"]
    await b.send(pack({"type": "join-room", "room": code}))
    await recv_type(a, "state")
    await recv_type(b, "state")
    return Room(a, b)


async def echo_room(port: int, n: int) -> Room:
    return Room(await open_ws(port, 2 * n), await open_ws(port, 2 * n + 1))


async def one_move(kind: str, room: Room) -> float:
    """Play the room's next move and wait for it to come back; the round trip."""
    ply = room.moves % 225
    mover = room.black if ply % 2 == 0 else room.white
    x, y = (BLACK if ply % 2 == 0 else WHITE)[ply // 2]
    start = time.perf_counter()
    await mover.send(pack({"type": "move", "move": {"x": x, "y": y}}))
    if kind == "echo":
        await mover.recv()
    else:
        other = room.white if mover is room.black else room.black
        await recv_type(mover, "moved")
        await recv_type(other, "moved")
    rtt = time.perf_counter() - start
    room.moves += 1
    if kind == "gridhall" and room.moves % 225 == 0:  # the board is full: a draw, again
        await recv_type(room.black, "game-over")
        await recv_type(room.white, "game-over")
        await room.black.send(pack({"type": "play-again"}))
        await room.white.send(pack({"type": "agree-again"}))
        await recv_type(room.black, "state")
        await recv_type(room.white, "state")
    return rtt


async def drive(kind: str, port: int, first: int, rooms: int, mode: str, seconds: float,
                rate: float) -> dict[str, Any]:
    make = gridhall_room if kind == "gridhall" else echo_room
    opened = []
    for n in range(first, first + rooms):
        opened.append(await make(port, n))
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds

    async def fast(room: Room) -> None:
        while loop.time() < end:
            await one_move(kind, room)

    async def paced(room: Room) -> None:
        await asyncio.sleep(random.random() / rate)  # out of step with the other rooms
        tick = loop.time()
        while loop.time() < end:
            room.rtts.append(await one_move(kind, room))
            tick += 1 / rate
            await asyncio.sleep(max(0.0, tick - loop.time()))

    await asyncio.gather(*((fast if mode == "fast" else paced)(r) for r in opened))
    for room in opened:
        await room.black.close()
        await room.white.close()
    return {"moves": sum(r.moves for r in opened), "rtts": [t for r in opened for t in r.rtts]}


def client_process(kind: str, port: int, first: int, rooms: int, mode: str, seconds: float,
                   rate: float, out: Any) -> None:
    out.put(asyncio.run(drive(kind, port, first, rooms, mode, seconds, rate)))


def run_clients(kind: str, port: int, rooms: int, procs: int, mode: str, seconds: float,
                rate: float = 2.0) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    share = [rooms // procs + (1 if i < rooms % procs else 0) for i in range(procs)]
    starts = [sum(share[:i]) for i in range(procs)]
    workers = [ctx.Process(target=client_process,
                           args=(kind, port, 10_000 * (mode == "paced") + s, n, mode, seconds,
                                 rate, out))
               for s, n in zip(starts, share, strict=True) if n]
    for w in workers:
        w.start()
    results = [out.get(timeout=seconds + 600) for _ in workers]
    for w in workers:
        w.join()
    return {"moves": sum(r["moves"] for r in results),
            "rtts": [t for r in results for t in r["rtts"]]}


async def idle(port: int, count: int, first: int, hello: bool) -> list[ClientConnection]:
    conns = []
    for n in range(first, first + count):
        ws = await open_ws(port, n)
        if hello:
            await ws.send(pack({"type": "hello", "protocol": 1, "name": f"i{n}"}))
            await recv_type(ws, "welcome")
        conns.append(ws)
    return conns


async def idle_rss(server: ServerProc, sizes: list[int]) -> dict[int, float]:
    """RSS growth per idle (welcomed) connection at each size, bytes."""
    base = server.rss()
    conns: list[ClientConnection] = []
    per: dict[int, float] = {}
    for size in sizes:
        conns += await idle(server.port, size - len(conns), 50_000 + len(conns),
                            hello=server.kind == "gridhall")
        await asyncio.sleep(1.0)
        per[size] = (server.rss() - base) / size
    for ws in conns:
        await ws.close()
    return per


# ----------------------------------------------------------------------- report

@dataclass
class Figures:
    moves_per_s: float = 0.0
    cpu_us_per_move: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    idle: dict[int, float] = field(default_factory=dict)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(kind: str, args: argparse.Namespace) -> Figures:
    figures = Figures()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProc.start(kind, tmp)
        try:
            cpu0 = server.cpu()
            fast = run_clients(kind, server.port, args.fast_rooms, args.procs, "fast",
                               args.seconds)
            cpu = server.cpu() - cpu0
            figures.moves_per_s = fast["moves"] / args.seconds
            figures.cpu_us_per_move = cpu / max(1, fast["moves"]) * 1e6
            paced = run_clients(kind, server.port, args.players // 2, args.procs, "paced",
                                args.seconds)
            rtts = paced["rtts"]
            figures.p50_ms = statistics.median(rtts) * 1e3
            figures.p99_ms = percentile(rtts, 0.99) * 1e3
            figures.max_ms = max(rtts) * 1e3
            figures.idle = asyncio.run(idle_rss(server, args.idle))
        finally:
            server.stop()
    return figures


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-gridhall":
        serve_gridhall(sys.argv[2])
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-echo":
        serve_echo()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="players in the latency run")
    parser.add_argument("--fast-rooms", type=int, default=50,
                        help="rooms moving flat out in the throughput run")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--idle", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--quick", action="store_true", help="200 players, 10 s, 1k idle")
    args = parser.parse_args()
    if args.quick:
        args.players, args.seconds, args.idle = 200, 10.0, [1000]
    print(f"load: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
          f"{args.players} players, {args.fast_rooms} fast rooms, {args.seconds:.0f} s runs")
    echo = measure("echo", args)
    grid = measure("gridhall", args)
    rows = [("moves (messages)/s", "moves_per_s", "{:.0f}"),
            ("server CPU us/move", "cpu_us_per_move", "{:.1f}"),
            (f"RTT p50 ms ({args.players} players)", "p50_ms", "{:.2f}"),
            ("RTT p99 ms", "p99_ms", "{:.2f}"), ("RTT max ms", "max_ms", "{:.2f}")]
    print(f"{'':32}{'echo':>12}{'gridhall':>12}{'ratio':>9}")
    for label, attr, fmt in rows:
        e, g = getattr(echo, attr), getattr(grid, attr)
        ratio = (e / g) if attr == "cpu_us_per_move" else (g / e if e else 0.0)
        print(f"{label:32}{fmt.format(e):>12}{fmt.format(g):>12}{ratio:>9.2f}")
    for size in args.idle:
        e, g = echo.idle[size] / 1024, grid.idle[size] / 1024
        print(f"{f'idle KiB/connection at {size}':32}{e:>12.1f}{g:>12.1f}{g / e:>9.2f}")
    cpu_ratio = echo.cpu_us_per_move / grid.cpu_us_per_move
    print("goals: CPU ratio (echo/gridhall) >= 0.7: "
          f"{'met' if cpu_ratio >= 0.7 else 'NOT met'} ({cpu_ratio:.2f}); "
          f"p99 <= 5 ms: {'met' if grid.p99_ms <= 5 else 'NOT met'} ({grid.p99_ms:.2f}); "
          f"p99 <= 1.5x echo: {'met' if grid.p99_ms <= 1.5 * echo.p99_ms else 'NOT met'}; "
          f"idle <= 20 KiB at {max(args.idle)}: "
          f"{'met' if grid.idle[max(args.idle)] <= 20 * 1024 else 'NOT met'}")


if __name__ == "__main__":
    main()
