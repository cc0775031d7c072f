"""Load: gridhall against bare websockets servers, driven by the same client processes.

Each server runs in its own process; the clients run in other processes. The servers:

- ``echo``: a bare websockets echo server (``async for m in ws: await ws.send(m)``), the
  issue's baseline: one frame in, one frame out per message;
- ``relay``: a bare websockets relay that sends each frame to both sockets of a pair
  (``websockets.broadcast``): one frame in, two out, the same frames a Gomoku move
  costs, with no rules, no store and no encoding;
- ``floor``: the relay plus what any server that keeps gridhall's promise must add to a
  move, and nothing else: the move decoded with gridhall's codec, appended to gridhall's
  journal (its ``Store``, one transaction per event-loop turn, committed before the
  frames go out), and a ``moved`` frame encoded once for both players. No sessions,
  rooms, rules or limits: the part of gridhall's cost that trimming Python cannot reach;
- ``gridhall``: Gomoku rooms (two players; every move goes to both), the journal in
  SQLite, the limits opened up for load;
- ``sansio-echo`` (only with ``--only``): an echo on websockets' sans-I/O protocol under a
  plain asyncio ``Protocol``, without websockets' asyncio layer (no task per connection,
  no message assembler): what a hand-made transport would save.

For each, in one run on this machine:

- throughput: moves (echo, relay: messages) per second with every room sending its next
  move as soon as the previous one came back, and the server's CPU time per move (from
  /proc: the server process's user + system time from the moment every client is
  connected until the last reports); how busy the server and the clients were, so a
  client-bound run shows as one;
- latency: round trips (send a move -> every player of the room has it) at 1,000
  players in 500 rooms, each room moving twice a second, rooms out of step: p50, p99 and
  max;
- idle memory (the echoes and gridhall): the RSS growth per open, idle connection at 1k and 5k
  on a fresh server process (gridhall's connections have said ``hello``);

then gridhall's ratios to echo (the issue's goals) and to the relay (like for like), and
the floor's ratio to echo: how much of the goal's budget is left for gridhall's own code.
Connections come from many loopback addresses (127.0.x.y), one each, as a LAN's players
do, so the per-address limits see what they would see in a hall of players.

    .venv/bin/python bench/load.py                 # the issue's sizes (about 7 minutes)
    .venv/bin/python bench/load.py --quick         # a smaller, faster run
    .venv/bin/python bench/load.py --only gridhall --profile /tmp/prof   # py-spy, top functions
    .venv/bin/python bench/load.py --breakdown     # where gridhall's time per frame goes
    .venv/bin/python bench/load.py --nodes 2       # the cluster: 1 and 2 nodes, cross-node
                                                   # moves, against SQLite (load_cluster.py)
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
KINDS = ("echo", "sansio-echo", "relay", "floor", "gridhall")
DEFAULT_KINDS = ("echo", "relay", "floor", "gridhall")
ECHOES = ("echo", "sansio-echo")
PAIRED = ("relay", "floor")
"""The bare servers whose two sockets of a pair both get every move."""

# A full 15x15 board with no five anywhere: a game runs all 225 moves to a draw.
BLACK = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
WHITE = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]


# ----------------------------------------------------------------------- servers


def use_uvloop() -> None:
    import uvloop

    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def watch_time_split() -> Callable[[], None]:
    """``--breakdown``: count the main thread's CPU time inside gridhall's own code
    (a frame's decode, rules and effects; the flush of store writes and sends); the
    returned function prints the totals (the server calls it on SIGUSR1), so the bench
    can say where a move's time goes."""
    from gridhall.server.core.effects import Said
    from gridhall.server.core.session import Session
    from gridhall.server.io.net.carrier import Carrier

    clock = time.thread_time
    spent = {"frames": 0, "receive": 0.0, "flush": 0.0}
    receive, flush = Session.receive, Carrier.flush

    def timed_receive(
        self: Session, frame: bytes | str, now: float, arrived: float | None = None
    ) -> list[Said]:
        start = clock()
        said = receive(self, frame, now, arrived)
        spent["receive"] += clock() - start
        spent["frames"] += 1
        return said

    def timed_flush(self: Carrier) -> None:
        start = clock()
        flush(self)
        spent["flush"] += clock() - start

    def report() -> None:
        print("split", spent["frames"], spent["receive"], spent["flush"], clock(), flush=True)

    Session.receive = timed_receive  # type: ignore[method-assign]
    Carrier.flush = timed_flush  # type: ignore[method-assign]
    return report


def serve_gridhall(db: str, on_usr1: Callable[[], None] | None = None) -> None:
    """Run a gridhall server with limits opened up for load (fast clients, many rooms
    and connections), printing its port. Connections come from distinct addresses,
    so the per-address limits stay as configured. ``on_usr1`` runs on SIGUSR1 (as a
    loop's signal handler, which asyncio's loop and uvloop both honour)."""
    from gridhall.server.core.config import ServerConfig
    from gridhall.server.io.net.app import GameServer

    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        db=db,
        max_rooms=10_000,
        max_connections=20_000,
        rate_per_second=1e6,
        rate_burst=10**6,
    )
    server = GameServer(config)
    try:
        from gridhall.server.io.runtime import collector
    except ImportError:  # an older install (--gridhall-python) has no collector policy
        pass
    else:
        collector.install()  # as gridhall-server does

    def ready(srv: GameServer) -> None:
        if on_usr1 is not None:
            import signal

            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, on_usr1)
        print(srv.port, flush=True)

    asyncio.run(server.run_until_signalled(ready))


SERVER_OPTIONS: dict[str, Any] = {
    "compression": None,
    "max_size": 64 * 1024,
    "max_queue": 16,
    "ping_interval": 10,
    "ping_timeout": 10,
}
"""The transport settings gridhall's server uses, for the bare servers too."""


def serve_bare(handler: Callable[[ServerConnection], Awaitable[None]]) -> None:
    """Serve ``handler`` with gridhall's transport settings until killed, printing the port."""
    from websockets.asyncio.server import serve

    async def main() -> None:
        async with serve(handler, "127.0.0.1", 0, **SERVER_OPTIONS) as srv:
            print(srv.sockets[0].getsockname()[1], flush=True)
            await asyncio.Future()

    asyncio.run(main())


def serve_echo() -> None:
    """A bare websockets echo server with the same transport settings."""

    async def echo(ws: ServerConnection) -> None:
        async for msg in ws:
            await ws.send(msg)

    serve_bare(echo)


def serve_sansio_echo() -> None:
    """An echo on websockets' sans-I/O ``ServerProtocol``: frames are answered inside
    ``data_received``, with no task or future per message. No keepalive and no closing
    handshake timeouts: a measurement, not a server."""
    from websockets.frames import Frame, Opcode
    from websockets.http11 import Request
    from websockets.server import ServerProtocol

    class Echo(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            assert isinstance(transport, asyncio.Transport)
            self.transport = transport
            self.ws = ServerProtocol(max_size=SERVER_OPTIONS["max_size"])

        def data_received(self, data: bytes) -> None:
            ws = self.ws
            ws.receive_data(data)
            for event in ws.events_received():
                if isinstance(event, Request):
                    ws.send_response(ws.accept(event))
                elif isinstance(event, Frame) and event.opcode is Opcode.BINARY:
                    ws.send_binary(event.data)
            for out in ws.data_to_send():
                if out:
                    self.transport.write(out)
                elif self.transport.can_write_eof():
                    self.transport.write_eof()
            if ws.close_expected():
                self.transport.close()

    async def main() -> None:
        srv = await asyncio.get_running_loop().create_server(Echo, "127.0.0.1", 0)
        print(srv.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()

    asyncio.run(main())


def serve_relay() -> None:
    """A bare websockets relay: the two connections of ``/pair/N`` get every frame
    either of them sends (as both players get a move)."""
    from websockets.asyncio.server import broadcast

    pairs: dict[str, list[ServerConnection]] = {}

    async def relay(ws: ServerConnection) -> None:
        key = ws.request.path if ws.request is not None else "/"
        pair = pairs.setdefault(key, [])
        pair.append(ws)
        try:
            async for msg in ws:
                broadcast(pair, msg)
        finally:
            pair.remove(ws)
            if not pair:
                del pairs[key]

    serve_bare(relay)


def serve_floor(db: str) -> None:
    """The relay plus decoding, the journal's commit before the broadcast, and one
    encoded ``moved`` frame per move (see the module docstring)."""
    from gridhall.protocol.codec import decode_map
    from gridhall.server.core.effects import Log, Stored
    from gridhall.server.io.store.store import Store

    store = Store(db)
    packer = msgpack.Packer(use_bin_type=True)
    pairs: dict[str, list[ServerConnection]] = {}
    moves: Counter[str] = Counter()
    logs: list[Stored] = []
    frames: list[tuple[list[ServerConnection], bytes]] = []
    """This loop turn's moves: flushed together at its end, as gridhall does."""

    def flush() -> None:
        store.write(logs)
        logs.clear()
        for pair, frame in frames:
            for ws in pair:  # written at once, as gridhall's Connection does
                ws.protocol.send_binary(frame)
                ws.send_data()
        frames.clear()

    async def floor(ws: ServerConnection) -> None:
        key = ws.request.path if ws.request is not None else "/"
        pair = pairs.setdefault(key, [])
        pair.append(ws)
        by = len(pair)
        try:
            async for data in ws:
                move = decode_map(data)["move"]
                if not frames:  # the turn's first move: flush at the end of the turn
                    asyncio.get_running_loop().call_soon(flush)
                moves[key] += 1
                logs.append(Log(key, moves[key], {"by": by, "move": move}))
                frames.append(
                    (
                        pair,
                        packer.pack({"type": "moved", "seq": moves[key], "by": by, "move": move}),
                    )
                )
        finally:
            pair.remove(ws)
            if not pair:
                del pairs[key]

    serve_bare(floor)


@dataclass
class ServerProc:
    kind: str
    proc: subprocess.Popen[str]
    port: int

    @classmethod
    def start(
        cls, kind: str, tmp: str, uvloop: bool, python: str | None = None, breakdown: bool = False
    ) -> ServerProc:
        args = [python or sys.executable, __file__, f"--serve-{kind}", f"{tmp}/load.db"]
        if uvloop:
            args.append("--uvloop")
        if breakdown and kind == "gridhall":
            args.append("--breakdown")
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stdout is not None
        return cls(kind, proc, int(proc.stdout.readline()))

    def split(self) -> tuple[int, float, float, float]:
        """(frames, s in gridhall's frame handling, s in its flushes, main thread's CPU s)
        so far, from a server started with ``--breakdown``."""
        import signal

        assert self.proc.stdout is not None
        self.proc.send_signal(signal.SIGUSR1)
        _, frames, receive, flush, main = self.proc.stdout.readline().split()
        return int(frames), float(receive), float(flush), float(main)

    def cpu(self) -> float:
        """The process's user + system CPU seconds so far."""
        return sum(self.cpu_split())

    def cpu_split(self) -> tuple[float, float]:
        """The process's user and system (the kernel's, on its behalf) CPU seconds so far."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) / TICKS, int(fields[12]) / TICKS

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


def address(n: int) -> str:
    """Connection ``n``'s own loopback address."""
    return f"127.{1 + n // 62500}.{(n // 250) % 250}.{n % 250 + 2}"


async def open_ws(port: int, n: int, path: str = "/") -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{port}{path}",
        compression=None,
        max_size=None,
        open_timeout=60,
        ping_interval=None,
        local_addr=(address(n), 0),
    )


@dataclass
class Room:
    """Two connections. In gridhall: a Gomoku room; in echo and relay: two sockets."""

    black: ClientConnection
    white: ClientConnection
    moves: int = 0
    rtts: list[float] = field(default_factory=list)
    frame_bytes: int = 0
    """Bytes of the move frames received (gridhall: ``moved``)."""
    frames: int = 0


async def recv_type(ws: ClientConnection, kind: str, room: Room | None = None) -> dict[str, Any]:
    while True:
        frame = await ws.recv()
        msg = unpack(frame)
        if msg.get("type") == kind:
            if room is not None:
                room.frame_bytes += len(frame)
                room.frames += 1
            return msg


async def gridhall_room(port: int, n: int, deltas: bool, join_port: int | None = None) -> Room:
    """Room ``n``: its creator on ``port``, the other player on ``join_port`` (another
    cluster node, ``--nodes``: that player's frames are relayed) or on ``port`` too."""
    a = await open_ws(port, 2 * n)
    b = await open_ws(port if join_port is None else join_port, 2 * n + 1)
    for ws, name in ((a, f"a{n}"), (b, f"b{n}")):
        hello: dict[str, Any] = {"type": "hello", "protocol": 1, "name": name}
        if deltas:
            hello["deltas"] = True
        await ws.send(pack(hello))
        await recv_type(ws, "welcome")
    await a.send(pack({"type": "create-room", "game": "gomoku"}))
    code = (await recv_type(a, "joined"))["room"]
    await b.send(pack({"type": "join-room", "room": code}))
    await recv_type(a, "state")
    await recv_type(b, "state")
    return Room(a, b)


async def bare_room(kind: str, port: int, n: int) -> Room:
    path = f"/pair/{n}" if kind in PAIRED else "/"
    return Room(await open_ws(port, 2 * n, path), await open_ws(port, 2 * n + 1, path))


async def one_move(kind: str, room: Room) -> float:
    """Play the room's next move and wait until every player has it; the round trip."""
    ply = room.moves % 225
    mover = room.black if ply % 2 == 0 else room.white
    other = room.white if mover is room.black else room.black
    x, y = (BLACK if ply % 2 == 0 else WHITE)[ply // 2]
    start = time.perf_counter()
    await mover.send(pack({"type": "move", "move": {"x": x, "y": y}}))
    if kind in ECHOES:
        room.frame_bytes += len(await mover.recv())
        room.frames += 1
    elif kind in PAIRED:
        for ws in (mover, other):
            room.frame_bytes += len(await ws.recv())
            room.frames += 1
    else:
        await recv_type(mover, "moved", room)
        await recv_type(other, "moved", room)
    rtt = time.perf_counter() - start
    room.moves += 1
    if kind == "gridhall" and room.moves % 225 == 0:  # the board is full: a draw, again
        await recv_type(room.black, "game-over")
        await recv_type(room.white, "game-over")
        await room.black.send(pack({"type": "play-again"}))
        await recv_type(room.white, "play-again")  # an agree-again before it is refused
        await room.white.send(pack({"type": "agree-again"}))
        await recv_type(room.black, "state")
        await recv_type(room.white, "state")
        room.black, room.white = room.white, room.black  # a new game swaps colours
    return rtt


@dataclass
class Phase:
    kind: str
    port: int
    mode: str
    seconds: float
    rate: float
    deltas: bool
    ports: tuple[int, ...] = ()
    """``--nodes``: the cluster's nodes; rooms are spread over them."""
    cross: bool = False
    """``--nodes``: each room's second player on the next node (cross-node rooms)."""

    def room_ports(self, n: int) -> tuple[int, int]:
        """Room ``n``'s creator's and other player's server ports."""
        if not self.ports:
            return self.port, self.port
        first = n % len(self.ports)
        return self.ports[first], self.ports[(first + self.cross) % len(self.ports)]


def cpu_self() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def drive(phase: Phase, first: int, rooms: int, ready: Any, go: Any, out: Any) -> None:
    opened = []
    for n in range(first, first + rooms):
        if phase.kind == "gridhall":
            port, join_port = phase.room_ports(n)
            opened.append(await gridhall_room(port, n, phase.deltas, join_port))
        else:
            opened.append(await bare_room(phase.kind, phase.port, n))
    ready.put(os.getpid())
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, go.wait)
    cpu0 = cpu_self()
    end = loop.time() + phase.seconds

    async def fast(room: Room) -> None:
        while loop.time() < end:
            await one_move(phase.kind, room)

    async def paced(room: Room) -> None:
        await asyncio.sleep(random.random() / phase.rate)  # out of step with the others
        tick = loop.time()
        while loop.time() < end:
            room.rtts.append(await one_move(phase.kind, room))
            tick += 1 / phase.rate
            await asyncio.sleep(max(0.0, tick - loop.time()))

    await asyncio.gather(*((fast if phase.mode == "fast" else paced)(r) for r in opened))
    out.put(
        {
            "moves": sum(r.moves for r in opened),
            "rtts": [t for r in opened for t in r.rtts],
            "bytes": sum(r.frame_bytes for r in opened),
            "frames": sum(r.frames for r in opened),
            "cpu": cpu_self() - cpu0,
        }
    )
    for room in opened:
        await room.black.close()
        await room.white.close()


def client_process(phase: Phase, first: int, rooms: int, ready: Any, go: Any, out: Any) -> None:
    try:
        asyncio.run(drive(phase, first, rooms, ready, go, out))
    except Exception as exc:  # told at once, so the run stops now, not at its timeout
        ready.put(0)
        out.put({"error": f"{type(exc).__name__}: {exc}"})
        raise


class Measured(Protocol):
    """What a phase measures on the server side: a ``ServerProc``, or the cluster's
    nodes (``load_cluster.Nodes``)."""

    def cpu(self) -> float: ...

    def split(self) -> tuple[int, float, float, float]: ...


def run_clients(
    server: Measured, phase: Phase, rooms: int, procs: int, first: int, split: bool = False
) -> dict[str, Any]:
    """Run one phase: connect every room, then start all clients at once; the server's
    CPU time is taken from then until the last client reports (and, with ``split``, the
    server's own account of where its main thread spent it)."""
    ctx = mp.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    share = [rooms // procs + (1 if i < rooms % procs else 0) for i in range(procs)]
    starts = [first + sum(share[:i]) for i in range(procs)]
    workers = [
        ctx.Process(target=client_process, args=(phase, s, n, ready, go, out))
        for s, n in zip(starts, share, strict=True)
        if n
    ]
    for w in workers:
        w.start()
    for _ in workers:
        ready.get(timeout=600)
    split0 = server.split() if split else None
    cpu0, wall0 = server.cpu(), time.perf_counter()
    go.set()
    results = [out.get(timeout=phase.seconds + 600) for _ in workers]
    for failed in (r["error"] for r in results if "error" in r):
        for w in workers:
            w.kill()
        raise RuntimeError(f"a client process failed: {failed}")
    cpu, wall = server.cpu() - cpu0, time.perf_counter() - wall0
    split1 = server.split() if split else None
    for w in workers:
        w.join()
    return {
        "split": [b - a for a, b in zip(split0, split1, strict=True)]
        if split0 and split1
        else None,
        "moves": sum(r["moves"] for r in results),
        "rtts": [t for r in results for t in r["rtts"]],
        "bytes": sum(r["bytes"] for r in results),
        "frames": sum(r["frames"] for r in results),
        "client_cpu": sum(r["cpu"] for r in results) / phase.seconds,
        "server_cpu": cpu,
        "server_busy": cpu / wall,
    }


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
    await asyncio.sleep(0.5)
    base = server.rss()
    conns: list[ClientConnection] = []
    per: dict[int, float] = {}
    for size in sizes:
        conns += await idle(
            server.port, size - len(conns), 50_000 + len(conns), hello=server.kind == "gridhall"
        )
        await asyncio.sleep(1.0)
        per[size] = (server.rss() - base) / size
    for ws in conns:
        await ws.close()
    return per


# ----------------------------------------------------------------------- profile


def py_spy() -> str | None:
    """py-spy beside this interpreter (the virtualenv's), else on the PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    return str(beside) if beside.exists() else shutil.which("py-spy")


def profile_start(pid: int, seconds: float, out: str) -> subprocess.Popen[bytes]:
    """py-spy samples the server (without pausing it) for ``seconds``."""
    spy = py_spy()
    assert spy is not None, "main() checks for py-spy before any run"
    return subprocess.Popen(
        [
            spy,
            "record",
            "--pid",
            str(pid),
            "--duration",
            str(int(seconds)),
            "--nonblocking",
            "--rate",
            "250",
            "--format",
            "raw",
            "-o",
            out,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def profile_report(raw: str, top: int = 25) -> None:
    """Own and total time by function from py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = 0
    for line in Path(raw).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        n = int(count)
        frames = [
            f.split(" (")[0] + " (" + f.split(" (")[1].split(":")[0].rsplit("/", 1)[-1] + ")"
            if " (" in f
            else f
            for f in stack.split(";")
        ]
        samples += n
        own[frames[-1]] += n
        for f in set(frames):
            total[f] += n
    print(f"profile: {samples} samples; own time")
    for f, n in own.most_common(top):
        print(f"  {100 * n / samples:5.1f}%  {f}")
    print("total time (function and what it calls)")
    for f, n in total.most_common(top):
        print(f"  {100 * n / samples:5.1f}%  {f}")


# ----------------------------------------------------------------------- report


@dataclass
class Figures:
    moves_per_s: float = 0.0
    cpu_us_per_move: float = 0.0
    server_busy: float = 0.0
    client_cpu: float = 0.0
    frame_bytes: float = 0.0
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    paced_cpu_us: float = 0.0
    idle: dict[int, float] = field(default_factory=dict)
    split: list[float] | None = None
    """``--breakdown``: frames, s handling them, s flushing, main thread's CPU s."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(kind: str, args: argparse.Namespace) -> Figures:
    figures = Figures()
    deltas = not args.full_views
    with tempfile.TemporaryDirectory() as tmp:
        python = args.gridhall_python if kind == "gridhall" else None
        split = args.breakdown and kind == "gridhall"
        server = ServerProc.start(kind, tmp, args.uvloop, python, split)
        try:
            spy = None
            if args.profile and kind == "gridhall":
                spy = profile_start(server.proc.pid, args.seconds, args.profile)
            fast = run_clients(
                server,
                Phase(kind, server.port, "fast", args.seconds, 0, deltas),
                args.fast_rooms,
                args.procs,
                0,
                split,
            )
            figures.split = fast["split"]
            if spy is not None:
                spy.wait()
            figures.moves_per_s = fast["moves"] / args.seconds
            figures.cpu_us_per_move = fast["server_cpu"] / max(1, fast["moves"]) * 1e6
            figures.server_busy = fast["server_busy"]
            figures.client_cpu = fast["client_cpu"]
            figures.frame_bytes = fast["bytes"] / max(1, fast["frames"])
            paced = run_clients(
                server,
                Phase(kind, server.port, "paced", args.seconds, args.rate, deltas),
                args.players // 2,
                args.procs,
                10_000,
            )
            rtts = paced["rtts"]
            figures.p50_ms = statistics.median(rtts) * 1e3
            figures.p99_ms = percentile(rtts, 0.99) * 1e3
            figures.max_ms = max(rtts) * 1e3
            figures.paced_cpu_us = paced["server_cpu"] / max(1, paced["moves"]) * 1e6
        finally:
            server.stop()
        if kind not in PAIRED and args.idle:
            server = ServerProc.start(kind, tmp, args.uvloop, python)
            try:
                figures.idle = asyncio.run(idle_rss(server, args.idle))
            finally:
                server.stop()
    return figures


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report(args: argparse.Namespace, figs: dict[str, Figures]) -> None:
    kinds = [k for k in KINDS if k in figs]
    rows = [
        ("moves (messages)/s", "moves_per_s", "{:.0f}"),
        ("server CPU us/move", "cpu_us_per_move", "{:.1f}"),
        ("  server busy (fast phase)", "server_busy", "{:.0%}"),
        ("  clients' CPU (cores)", "client_cpu", "{:.2f}"),
        ("  bytes per frame received", "frame_bytes", "{:.0f}"),
        (f"RTT p50 ms ({args.players} players)", "p50_ms", "{:.2f}"),
        ("RTT p99 ms", "p99_ms", "{:.2f}"),
        ("RTT max ms", "max_ms", "{:.2f}"),
        ("  server CPU us/move, paced", "paced_cpu_us", "{:.1f}"),
    ]
    grid = figs.get("gridhall")
    bases = [k for k in ("echo", "relay") if k in figs and grid is not None]
    print(f"{'':34}" + "".join(f"{k:>12}" for k in kinds) + "".join(f"{'/' + b:>9}" for b in bases))
    for label, attr, fmt in rows:
        line = f"{label:34}" + "".join(f"{fmt.format(getattr(figs[k], attr)):>12}" for k in kinds)
        for b in bases:
            assert grid is not None
            e, g = getattr(figs[b], attr), getattr(grid, attr)
            ratio = (e / g if g else 0.0) if "cpu_us" in attr else (g / e if e else 0.0)
            line += (
                f"{ratio:>9.2f}" if not label.startswith("  ") or "cpu_us" in attr else f"{'':>9}"
            )
        print(line)
    for size in args.idle:
        if all(size in figs[k].idle for k in kinds if k not in PAIRED):
            line = f"{f'idle KiB/connection at {size}':34}" + "".join(
                f"{figs[k].idle[size] / 1024:>12.1f}" if k not in PAIRED else f"{'-':>12}"
                for k in kinds
            )
            if grid is not None and "echo" in figs:
                line += f"{grid.idle[size] / figs['echo'].idle[size]:>9.2f}"
            print(line)
    print("(ratios: CPU per move as baseline/gridhall, the rest as gridhall/baseline)")
    if grid is not None and grid.split:
        frames, handling, flushing, main = grid.split
        per = 1e6 / max(1.0, frames)
        print(
            f"where the server's main thread spent a frame's time (throughput run, "
            f"{frames:.0f} frames):"
        )
        print(f"  gridhall: decode, limits, hub, room, rules, effects {handling * per:8.1f} us")
        print(f"  gridhall: store commit and socket sends             {flushing * per:8.1f} us")
        print(
            f"  websockets, asyncio, the kernel (the rest)          "
            f"{(main - handling - flushing) * per:8.1f} us"
        )
    if grid is None or "echo" not in figs:
        return
    echo = figs["echo"]
    cpu_ratio = echo.cpu_us_per_move / grid.cpu_us_per_move
    print(
        f"goal CPU per move <= 1.4x echo's per message (ratio >= 0.7): "
        f"{verdict(cpu_ratio >= 0.7)} ({cpu_ratio:.2f})"
    )
    if "relay" in figs:
        relay_ratio = figs["relay"].cpu_us_per_move / grid.cpu_us_per_move
        print(
            f"     ... like for like, per move against the relay's (ratio >= 0.7): "
            f"{verdict(relay_ratio >= 0.7)} ({relay_ratio:.2f})"
        )
    if "floor" in figs:
        floor_ratio = echo.cpu_us_per_move / figs["floor"].cpu_us_per_move
        print(
            f"     ... the floor alone (no rules, same transport, codec and journal): "
            f"{floor_ratio:.2f}; what the goal leaves gridhall's sessions, rooms and rules: "
            f"{1.4 * echo.cpu_us_per_move - figs['floor'].cpu_us_per_move:.1f} us/move"
        )
    print(
        f"goal p99 <= 5 ms at {args.players} players: {verdict(grid.p99_ms <= 5)} "
        f"({grid.p99_ms:.2f} ms)"
    )
    print(
        f"goal p99 <= 1.5x echo's p99: {verdict(grid.p99_ms <= 1.5 * echo.p99_ms)} "
        f"({grid.p99_ms / echo.p99_ms:.2f}x)"
    )
    if args.idle:
        big = max(args.idle)
        print(
            f"goal idle <= 20 KiB per connection at {big}: "
            f"{verdict(grid.idle[big] <= 20 * 1024)} ({grid.idle[big] / 1024:.1f} KiB)"
        )


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1].startswith("--serve-"):
        if "--uvloop" in sys.argv:
            use_uvloop()
        kind = sys.argv[1].removeprefix("--serve-")
        if kind == "gridhall":
            serve_gridhall(sys.argv[2], watch_time_split() if "--breakdown" in sys.argv else None)
        elif kind == "echo":
            serve_echo()
        elif kind == "floor":
            serve_floor(sys.argv[2])
        elif kind == "sansio-echo":
            serve_sansio_echo()
        else:
            serve_relay()
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="players in the latency run")
    parser.add_argument(
        "--rate", type=float, default=2.0, help="moves per second per room in the latency run"
    )
    parser.add_argument(
        "--fast-rooms", type=int, default=50, help="rooms moving flat out in the throughput run"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run")
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument("--idle", type=int, nargs="*", default=[1000, 5000])
    parser.add_argument(
        "--only",
        nargs="+",
        choices=KINDS,
        default=list(DEFAULT_KINDS),
        help="the servers to run (default: %(default)s)",
    )
    parser.add_argument(
        "--full-views",
        action="store_true",
        help="gridhall's clients do not ask for deltas (full views in moved)",
    )
    parser.add_argument("--uvloop", action="store_true", help="every server runs on uvloop")
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="sample gridhall's server with py-spy in the throughput run "
        "(raw stacks to FILE) and print its top functions",
    )
    parser.add_argument(
        "--gridhall-python",
        metavar="PYTHON",
        help="run gridhall's server with this interpreter (another install, "
        "e.g. an older commit's, for a before/after in one run)",
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="gridhall's server times its own code in the throughput run: "
        "per frame, handling (decode, rules, effects), flushing (store "
        "commit, sends) and the rest (websockets, asyncio, the kernel)",
    )
    parser.add_argument("--quick", action="store_true", help="200 players, 10 s, 1k idle")
    parser.add_argument(
        "--nodes",
        type=int,
        default=0,
        metavar="N",
        help="the cluster instead (bench/load_cluster.py): Redis, PostgreSQL "
        "and 1, then N gridhall nodes, same-node and cross-node rooms, "
        "against the SQLite server",
    )
    parser.add_argument(
        "--before",
        metavar="PYTHON",
        help="with --nodes: the cluster setups again, each node run by this "
        "interpreter (an older checkout's), for a before/after in one run",
    )
    parser.add_argument(
        "--reverse", action="store_true", help="with --nodes: the setups in reverse order"
    )
    args = parser.parse_args()
    if args.profile and py_spy() is None:
        parser.error("--profile needs py-spy (pip install py-spy)")
    if args.quick:
        args.players, args.seconds, args.idle = 200, 10.0, [1000]
    if args.nodes:
        from load_cluster import run_cluster

        run_cluster(args)
        return
    print(
        f"load: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; "
        f"{args.players} players, {args.fast_rooms} fast rooms, {args.seconds:.0f} s runs"
        f"{', uvloop' if args.uvloop else ''}"
        f"{', full views' if args.full_views else ', deltas'}",
        flush=True,
    )
    figs = {kind: measure(kind, args) for kind in KINDS if kind in args.only}
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")
    report(args, figs)
    if args.profile:
        profile_report(args.profile)


if __name__ == "__main__":
    main()
