"""Attacks on a real server, each while a probe plays moves in another room.

Starts gridhall's server with its default settings on loopback in a process of
its own (plus a sampler on its event loop: how late a 10 ms timer fires, the
"loop lag", which the machine's other load hardly moves), a probe process (its
own room, one move every 0.1 s, timing each round trip from ``move`` to
``moved``) and then, one after another, the attacks of issues 11 and 22:

- ``hints``: four co-op players on a 200x200 board with 8000 mines ask for hints
  at 19 messages/s each;
- ``passwords``: 20 connections guess a private room's password at 19/s each;
- ``generation``: connections create 100x100 no-guess Minesweeper rooms (and
  30x16 Link-match races) and start them, over and over;
- ``slow-readers``: 40 spectators of a 200x200 board that never read send
  ``sync`` at 19/s, reconnecting whenever they are dropped;
- ``room-cap``: connections from one address create a room and drop, as fast
  as they can; then another address tries to create one;
- ``flood``: one client sends 40 frames/s (twice the rate limit) and counts the
  frames that got no answer;
- ``names``: the name and colour rules, checked once;
- ``computers``: ten hard computer rooms from one address play on while other
  addresses join a private room, make first reveals, start races and play an
  easy computer (issue 22), each timed from request to answer;
- ``client-text``: a player named ``[/]x`` holds a public room and chats markup while
  real terminal clients (headless) open the lobby and watch; counts client crashes;
- ``spectator-churn``: 20 spectators from one address join and leave a room once
  a second while its two players play; the players behave like older clients
  (a ``sync`` on every ``joined``/``left``); counts the players' disconnects;
- ``fanout``: 400 spectators from 10 addresses join one room and chat at the
  allowed rate (8 lines per 10 s each); counts frames the server sent them;
- ``disk``: 40 connections chatting at the allowed rate in four
  co-op rooms, eight players toggling flags in a Minesweeper room that never
  ends, and four connections resigning against the computer over and over; it
  prints the database's size (file + WAL) and the server's RSS every tenth of
  the attack, which must level off (run it for minutes: ``--seconds 300``);
- ``headers``: 1,000 sockets from one address, each sending ~1 MiB of
  request headers and never finishing;
- ``slow-sockets``: 1,100 slowloris sockets from one address while a new player
  from another address tries to get in every second;
- ``no-hello``: 10 addresses x 50 connections that never say ``hello``, while a
  new player from another address tries every second;
- ``origin``: a page from another site opens a WebSocket (must get 403);
- ``relay-flood`` and ``registry`` (issue 41): on a cluster of two nodes with Redis and
  PostgreSQL of their own, each on a fresh one, with their own figures
  (``bench/attack_cluster.py``);

and the rest of issue 41's (the server runs with a fixed admin token and ``/metrics``
on):

- ``admin-lockout``: the operator signs in from 127.0.0.1 every 0.3 s while eight admin
  sockets from 127.0.0.1 never sign in; then while a process on 127.0.0.1 sends wrong
  tokens; then while 40 addresses re-open silent admin sockets as fast as they can;
- ``rebinding``: requests from 127.0.0.1 whose ``Host`` and ``Origin`` name an attacker's
  domain: ``/metrics`` (without a token and with a wrong one), the page, a game socket,
  the admin socket;
- ``hello-storm``: 1,000 players of 500 rooms arrive within 2 s from their own addresses,
  saying hello at once; then all reconnect at once with their tokens (as after a restart);
- ``link-codes``: 2,000 connections from 20 addresses each ask for a link code and hang
  up; counts the identities the database keeps past their grace;
- ``admin-frames``: admin requests with an int ``type`` or an int key are answered with
  their ``re``.

``bench/bench_backoff.py`` measures the backoff tables (issue 41, item 7).
- ``farming`` (issue 41): a player beats 30 fresh identities in rated Gomoku, each
  playing one stone and resigning, and (another player) 30 more that play along to a
  five in eleven stones; prints the rating, the games counted and the rank;
- ``history-flood`` (issue 41): five players finish 20 games each, then one address
  finishes games against the computer as fast as it may; prints how many of the five
  players' games and replays are left, and rating history points naming pruned games
  (``--games-rows`` scales the server's cap down, for a short run);
- ``kick-address`` (issue 41): a member is kicked for a day; how long she, and a
  housemate at her address who was never in the room, are kept out;
- ``devices`` (issue 41): 300 successive link codes; how many of the tokens still
  resume the identity, and whether a device can be signed out;
- ``swarm`` (issue 41 item 10): 90 fuzzing clients and 3 flooders, ~1,770 frames/s
  (``bench/attack_swarm.py``); prints the probe's p99 alone just before the swarm and
  during it, and their ratio;
- ``burst`` (issue 41 item 10): every 2 s a client from a fresh address writes 400 KB of
  tiny frames at once (``bench/attack_swarm.py``).

The server starts with a soft open-files limit of 1024 (``--nofile``), a
desktop's default.

Attackers use their own loopback addresses (127.0.0.2 and up), the probe
127.0.0.1. For each attack it prints the probe's p50/p99/max round trip and
the server's loop lag (p99/max), its RSS (main process) before, at the peak
and 5 s after the attackers left, then the verdicts against the goals (probe max <= 100 ms and
p99 <= 30 ms during every attack; RSS back within 50 MB of the baseline taken
before the first attack). ``--server-path DIR`` runs another tree's server (a
folder holding ``gridhall/`` as installed, e.g. main's, for a before/after).

    nice -n 10 .venv/bin/python bench/attack.py [--seconds 10] [--only hints,flood] [--fresh]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import logging
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import attack_cluster  # noqa: E402
import attack_swarm  # noqa: E402

from gridhall.protocol import decode_map, encode_map  # noqa: E402

MAX_FRAME = 8 * 2**20
GOAL_MAX_MS = 100.0
GOAL_P99_MS = 30.0
GOAL_RSS_MB = 50.0
BIG_BOARD = {"width": 200, "height": 200, "mines": 8000}


def frame(type_: str, **fields: Any) -> bytes:
    return encode_map({"type": type_, **fields})


# -- the probe (a separate process, so attackers never delay its clock) ------------


async def probe(url: str) -> None:
    """Play marks in a room of our own; print ``sent_unix_time rtt_ms`` per move,
    and ``W sent_unix_time waited_ms`` every 0.1 s while an answer is late (so a
    server that stops answering shows up as a stall, not as missing samples)."""
    async with connect(url, compression=None, max_size=MAX_FRAME) as ws:
        await ws.send(frame("hello", protocol=1, name="Probe"))
        await ws.send(frame("create-room", game="minesweeper", options={"preset": "beginner"}))
        while decode_map(await ws.recv(), MAX_FRAME)["type"] != "state":
            pass
        marks = itertools.cycle(["flag", "none"])
        next_at = time.monotonic()
        for n in itertools.count():
            next_at += 0.1
            sent = time.time()
            start = time.perf_counter()
            await ws.send(
                frame("move", move={"action": "mark", "x": 0, "y": 0, "mark": next(marks)}, id=n)
            )
            while True:
                try:
                    data = await asyncio.wait_for(ws.recv(), 0.1)
                except TimeoutError:
                    waited = (time.perf_counter() - start) * 1000
                    print(f"W {sent:.4f} {waited:.3f}", flush=True)
                    continue
                msg = decode_map(data, MAX_FRAME)
                if msg["type"] == "moved" or msg.get("re") == n:
                    break
            rtt = (time.perf_counter() - start) * 1000
            print(f"{sent:.4f} {rtt:.3f}", flush=True)
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


# -- the server (a separate process, with a loop-lag sampler) -------------------------


async def serve(port: int, db: str, needs: dict[str, Any]) -> None:
    """The server with its default settings (a fixed admin token, ``/metrics`` on, and
    what the attacks to run need: ``SERVER_NEEDS``), plus a sampler that prints
    ``L unix_time lag_ms`` every 10 ms: how late the event loop ran a 10 ms timer."""
    from gridhall.server.core.config import ServerConfig
    from gridhall.server.io.app import GameServer

    try:
        from gridhall.server.io import collector
    except ImportError:  # an older install (--server-path) has no collector policy
        pass
    else:
        collector.install()  # as gridhall-server does
    config = ServerConfig(
        host="127.0.0.1", port=port, db=db, admin_token=ADMIN_TOKEN, metrics=True, **needs
    )
    server = GameServer(config)
    await server.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(0.01)
        late = (time.perf_counter() - start - 0.01) * 1000
        print(f"L {time.time():.4f} {late:.3f}", flush=True)
    await server.close()


# -- measuring -----------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process (its main process; not its workers)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_cpu_seconds(pid: int) -> float:
    """CPU time of the server's worker processes (its children)."""
    total = 0.0
    with contextlib.suppress(OSError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for child in children:
            with contextlib.suppress(OSError):
                total += cpu_seconds(int(child))
    return total


def cpu_wait_seconds(pid: int) -> float:
    """Time the process spent runnable but waiting for a CPU (other processes ran)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e9
    return 0.0


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Watch:
    """Probe round trips and server RSS samples, with their times."""

    pid: int
    rtts: list[tuple[float, float]] = field(default_factory=list)
    lags: list[tuple[float, float]] = field(default_factory=list)
    """(time, ms late) of the server's own 10 ms timer."""
    waits: list[tuple[float, float]] = field(default_factory=list)
    """(time seen, ms waited so far) for answers still outstanding."""
    rss: list[tuple[float, float]] = field(default_factory=list)

    async def read_probe(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            parts = line.split()
            if parts[0] == b"W":
                self.waits.append((time.time(), float(parts[2])))
            else:
                self.rtts.append((float(parts[0]), float(parts[1])))

    def stalled(self, start: float, end: float) -> float:
        """The longest wait for an answer seen during [start, end] (ms)."""
        return max((w for t, w in self.waits if start <= t <= end), default=0.0)

    async def read_lag(self, stream: asyncio.StreamReader) -> None:
        while line := await stream.readline():
            parts = line.split()
            if parts and parts[0] == b"L":
                self.lags.append((float(parts[1]), float(parts[2])))

    def lag(self, start: float, end: float) -> tuple[float, float]:
        """p99 and max of the server's loop lag during [start, end] (ms)."""
        ordered = sorted(late for t, late in self.lags if start <= t <= end) or [0.0]
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], ordered[-1]

    async def sample_rss(self) -> None:
        while True:
            self.rss.append((time.time(), rss_mb(self.pid)))
            await asyncio.sleep(0.1)


@dataclass
class Row:
    name: str
    probes: list[float]
    before: float
    peak: float
    after: float
    note: str
    stalled: float = 0.0
    """The longest the probe waited for an answer during the attack (ms)."""
    cpu: float = 0.0
    """Share of one core the server's event loop process used during the attack."""
    starved: float = 0.0
    """Share of the attack the server's process waited, runnable, for a CPU."""
    attackers: float = 0.0
    """Share of one core this (attacking) process used."""
    baseline: float = 0.0
    """The server's RSS before its first attack (MB)."""
    lag: tuple[float, float] = (0.0, 0.0)
    """p99 and max of how late the server's event loop ran a 10 ms timer (ms)."""
    workers: float = 0.0
    """The same for its worker processes together."""

    def cells(self) -> list[str]:
        if self.probes:
            ordered = sorted(self.probes)
            p50 = statistics.median(ordered)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            lat = [f"{len(ordered)}", f"{p50:.1f}", f"{p99:.1f}", f"{self.max():.1f}"]
        else:
            lat = ["0", "-", "-", f">{self.stalled:.0f}"]
        return [
            self.name,
            *lat,
            f"{self.lag[0]:.1f}/{self.lag[1]:.0f}",
            f"{self.before:.0f}",
            f"{self.peak:.0f}",
            f"{self.after:.0f}",
            f"{self.cpu:.0%}",
            f"{self.starved:.0%}",
            f"{self.workers:.0%}",
            f"{self.attackers:.0%}",
            self.note,
        ]

    def p99(self) -> float:
        ordered = sorted(self.probes) or [float("inf")]
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]

    def max(self) -> float:
        if not self.probes:
            return float("inf")
        return max(max(self.probes), self.stalled)


# -- attacker helpers ----------------------------------------------------------------


@dataclass
class Attack:
    """One attack's shared state: it is timed from :meth:`begin` (after setting
    up its rooms) for ``seconds``."""

    url: str
    port: int
    seconds: float
    started: float = 0.0
    until: float = 0.0
    counts: Counter[str] = field(default_factory=Counter)
    db: str = ""
    """The server's database file (for attacks on the disk)."""
    pid: int = 0
    """The server's process (for its RSS)."""
    watch: Watch | None = None
    """The probe's round trips (for a scenario that takes its own baseline)."""

    def begin(self) -> None:
        if not self.started:
            self.started = time.time()
            self.until = self.started + self.seconds

    def running(self) -> bool:
        return time.time() < self.until

    @contextlib.asynccontextmanager
    async def client(
        self,
        address: str,
        name: str,
        read: bool = True,
        rcvbuf: int | None = None,
        retry: bool = False,
        **hello: Any,
    ) -> AsyncIterator[ClientConnection]:
        """A welcomed connection from ``address``; ``read`` drains (and counts
        error codes of) everything the server sends. ``retry``: a connect refused
        because too many from this address are still connecting (a crowd arriving
        at once) is tried again, as a real client would, up to 50 times. ``hello``:
        more fields of the ``hello`` (``token``, ``link``)."""
        for tries in itertools.count(1):
            try:
                ws = await self._connect(address, read, rcvbuf)
                break
            except (InvalidHandshake, OSError):
                if not retry or tries >= 50:
                    raise
                self.counts["connects retried"] += 1
                await asyncio.sleep(0.1 * random.random() + 0.05)
        async with ws:
            await ws.send(frame("hello", protocol=1, name=name, **hello))
            drain = asyncio.create_task(self._drain(ws)) if read else None
            try:
                yield ws
            finally:
                if drain is not None:
                    drain.cancel()

    async def _connect(self, address: str, read: bool, rcvbuf: int | None) -> ClientConnection:
        sock = socket.socket()
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        try:
            sock.bind((address, 0))
            sock.setblocking(False)
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
            return await connect(
                self.url,
                sock=sock,
                compression=None,
                max_size=MAX_FRAME,
                max_queue=None if read else 1,
                close_timeout=1,
            )
        except BaseException:
            sock.close()
            raise

    async def _drain(self, ws: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for data in ws:
                if isinstance(data, bytes) and b"\xa5error" in data[:16]:
                    self.counts[str(decode_map(data, MAX_FRAME).get("code"))] += 1

    async def paced(
        self, ws: ClientConnection, make: Callable[[int], bytes], rate: float = 19.0
    ) -> None:
        """Send ``make(n)`` at ``rate`` per second until the attack ends."""
        self.begin()
        next_at = time.monotonic()
        for n in itertools.count():
            if not self.running():
                return
            await ws.send(make(n))
            self.counts["sent"] += 1
            next_at += 1 / rate
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def expect(ws: ClientConnection, type_: str, timeout: float = 30.0) -> dict[str, Any]:
    end = time.monotonic() + timeout
    while True:
        msg = decode_map(
            await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic())), MAX_FRAME
        )
        if msg["type"] == type_:
            return msg
        if msg["type"] == "error" and type_ != "error":
            raise RuntimeError(f"refused: {msg.get('code')}: {msg.get('message')}")


# -- the attacks -----------------------------------------------------------------------


async def attack_hints(a: Attack) -> str:
    async with a.client("127.0.0.2", "Host", read=False) as host:
        await host.send(frame("create-room", game="minesweeper", options=BIG_BOARD))
        room = (await expect(host, "joined"))["room"]
        await host.send(frame("move", move={"action": "reveal", "x": 100, "y": 100}))
        await expect(host, "moved")
        async with contextlib.AsyncExitStack() as stack:
            players = [host]
            for n in range(3):
                ws = await stack.enter_async_context(a.client("127.0.0.2", f"H{n}", read=False))
                await ws.send(frame("join-room", room=room))
                await expect(ws, "state")
                players.append(ws)
            drains = [asyncio.create_task(a._drain(ws)) for ws in players]
            await asyncio.gather(
                *(
                    a.paced(ws, lambda n: frame("move", move={"action": "hint"}, id=n))
                    for ws in players
                )
            )
            for d in drains:
                d.cancel()
    return f"{a.counts['sent']} hints asked, {a.counts['server-busy']} busy"


async def attack_passwords(a: Attack) -> str:
    async with a.client("127.0.0.2", "Owner", read=False) as owner:
        await owner.send(frame("create-room", game="gomoku", password="correct horse"))
        room = (await expect(owner, "joined"))["room"]

        async def guesser(n: int) -> None:
            a.begin()
            while a.running():  # closed for flooding? come back, as an attacker would
                try:
                    async with a.client("127.0.0.3", f"G{n}") as ws:
                        await a.paced(
                            ws,
                            lambda k: frame("join-room", room=room, password=f"guess{n}-{k}", id=k),
                        )
                except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                    a.counts["closed"] += 1
                    await asyncio.sleep(0.2)

        await asyncio.gather(*(guesser(n) for n in range(20)))
    c = a.counts
    return (
        f"{c['sent']} guesses: {c['wrong-password']} wrong, {c['rate-limited']} "
        f"limited, {c['server-busy']} busy; {c['closed']} connections closed or refused"
    )


async def attack_generation(a: Attack) -> str:
    ng = {"width": 100, "height": 100, "mines": 1800, "no_guess": True}

    async def minesweeper(n: int) -> None:
        async with a.client(f"127.0.0.{4 + n}", f"M{n}") as ws:
            steps = itertools.cycle(
                [
                    frame("create-room", game="minesweeper", options=ng),
                    frame("move", move={"action": "reveal", "x": 50, "y": 50}),
                    frame("leave-room"),
                ]
            )
            await a.paced(ws, lambda k: next(steps), rate=6.0)

    async def linkmatch(n: int) -> None:
        async with a.client(f"127.0.0.{8 + n}", f"L{n}") as ws:
            steps = itertools.cycle(
                [
                    frame(
                        "create-room",
                        game="linkmatch",
                        options={"width": 30, "height": 16, "countdown": 0},
                    ),
                    frame("start"),
                    frame("leave-room"),
                ]
            )
            await a.paced(ws, lambda k: next(steps), rate=6.0)

    await asyncio.gather(*(minesweeper(n) for n in range(4)), *(linkmatch(n) for n in range(2)))
    c = a.counts
    return f"{c['sent']} frames: {c['server-busy']} busy, {c['rate-limited']} limited"


async def attack_slow_readers(a: Attack) -> str:
    async with a.client("127.0.0.2", "Board", read=False) as owner:
        await owner.send(frame("create-room", game="minesweeper", options=BIG_BOARD))
        room = (await expect(owner, "joined"))["room"]
        await owner.send(frame("move", move={"action": "reveal", "x": 100, "y": 100}))
        await expect(owner, "moved")
        drain = asyncio.create_task(a._drain(owner))
        a.begin()
        marks = itertools.cycle(["flag", "none"])
        mover = asyncio.create_task(
            a.paced(
                owner,
                lambda k: frame(  # each move: 40 KB out
                    "move", move={"action": "mark", "x": 0, "y": 0, "mark": next(marks)}
                ),
            )
        )

        async def spectator(n: int) -> None:
            while a.running():
                try:
                    async with a.client("127.0.0.12", f"S{n}", read=False, rcvbuf=4096) as ws:
                        await ws.send(frame("join-room", room=room, role="spectator"))
                        a.counts["connections"] += 1
                        await a.paced(ws, lambda k: frame("sync"))
                except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                    a.counts["dropped"] += 1
                    await asyncio.sleep(0.2)

        await asyncio.gather(*(spectator(n) for n in range(40)))
        await mover
        drain.cancel()
    return f"{a.counts['connections']} connections, {a.counts['dropped']} dropped"


async def attack_room_cap(a: Attack) -> str:
    async def churn() -> None:
        while a.running():
            try:
                async with a.client("127.0.0.13", "Squatter", read=False) as ws:
                    await ws.send(frame("create-room", game="gomoku"))
                    msg = decode_map(await asyncio.wait_for(ws.recv(), 5), MAX_FRAME)
                    while msg["type"] == "welcome":
                        msg = decode_map(await asyncio.wait_for(ws.recv(), 5), MAX_FRAME)
                    a.counts[
                        "created" if msg["type"] == "joined" else str(msg.get("code", msg["type"]))
                    ] += 1
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError):
                a.counts["refused connection"] += 1
                await asyncio.sleep(0.1)

    a.begin()
    await asyncio.gather(*(churn() for _ in range(8)))
    async with a.client("127.0.0.14", "Somebody", read=False) as other:
        await other.send(frame("create-room", game="gomoku"))
        msg = decode_map(await other.recv(), MAX_FRAME)
        while msg["type"] == "welcome":
            msg = decode_map(await other.recv(), MAX_FRAME)
        others = "can" if msg["type"] == "joined" else f"cannot ({msg.get('code')})"
    c = a.counts
    return (
        f"one address made {c['created']} rooms ({c['server-busy']} busy, "
        f"{c['rate-limited']} limited); another address {others} create one"
    )


async def attack_flood(a: Attack) -> str:
    answered: set[int] = set()
    async with a.client("127.0.0.15", "Flood", read=False) as ws:
        await expect(ws, "welcome")

        async def reader() -> None:
            with contextlib.suppress(ConnectionClosed):
                async for data in ws:
                    msg = decode_map(data, MAX_FRAME)  # type: ignore[arg-type]
                    if isinstance(msg.get("re"), int):
                        answered.add(msg["re"])
                    if msg["type"] == "error":
                        a.counts[str(msg.get("code"))] += 1

        task = asyncio.create_task(reader())
        closed = "not closed"
        try:
            await a.paced(ws, lambda n: frame("list-rooms", id=n), rate=40.0)
            await asyncio.sleep(1.0)
        except ConnectionClosed as exc:
            closed = f"closed {exc.rcvd.code} {exc.rcvd.reason!r}" if exc.rcvd else "closed"
        task.cancel()
    sent = a.counts["sent"]
    return (
        f"{sent} frames, {sent - len(answered)} unanswered, "
        f"{a.counts['rate-limited']} rate-limited answers, {closed}"
    )


async def attack_names(a: Attack) -> str:
    checks: dict[str, bool] = {}

    async def first(ws: ClientConnection, *types: str) -> dict[str, Any]:
        """The first message of one of ``types`` ({} if none comes within 5 s)."""
        try:
            while True:
                msg = decode_map(await asyncio.wait_for(ws.recv(), 5), MAX_FRAME)
                if msg["type"] in types:
                    return msg
        except TimeoutError:
            return {"type": "nothing"}

    async with (
        a.client("127.0.0.16", "Bob", read=False) as bob,
        a.client("127.0.0.16", "b\u200bob\u202e", read=False) as twin,
        a.client("127.0.0.16", "Computer (hard)", read=False) as fake,
    ):
        await first(bob, "welcome")
        await first(twin, "welcome")
        checks["reserved name refused"] = (await first(fake, "welcome", "error"))["type"] == "error"
        await twin.send(frame("player-info", color="teal", id=1))
        checks["player-info outside a room answered"] = (
            await first(twin, "profile", "error", "player-info")
        ).get("re") == 1
        await bob.send(frame("create-room", game="gomoku"))
        room = (await first(bob, "joined"))["room"]
        await twin.send(frame("join-room", room=room))
        joined = await first(twin, "joined")
        checks["no duplicate or invisible name"] = joined.get("name") not in (
            None,
            "Bob",
            "bob",
            "b\u200bob\u202e",
        )
        await bob.send(frame("player-info", color="<script>x</script>", id=2))
        checks["free-text colour refused"] = (await first(bob, "error", "player-info"))[
            "type"
        ] == "error"
    failed = [k for k, ok in checks.items() if not ok]
    a.counts["failed"] = len(failed)
    return "all rules hold" if not failed else "FAILS: " + "; ".join(failed)


GOMOKU_POINTS = sorted(
    ((x, y) for x in range(15) for y in range(15)),
    key=lambda pt: (abs(pt[0] - 7) + abs(pt[1] - 7), pt),
)
"""Where a scripted Gomoku player puts its stones: the first empty one, centre out."""


async def gomoku_moves(
    a: Attack, ws: ClientConnection, me: str, replies: list[float] | None = None
) -> None:
    """Play Gomoku against the room's computer until the attack ends: a stone on
    each turn, ``play-again`` after each game; ``replies`` gets the ms from each
    of our moves to the computer's answer."""
    sent = 0.0
    while a.running():
        try:
            msg = decode_map(await asyncio.wait_for(ws.recv(), 1.0), MAX_FRAME)
        except TimeoutError:
            continue
        kind = msg["type"]
        if kind == "game-over":
            await ws.send(frame("play-again"))
        elif kind == "error":
            a.counts[str(msg.get("code"))] += 1
        elif kind in ("state", "moved") and msg.get("turn") == me and "view" in msg:
            if kind == "moved" and msg.get("by") != me:
                a.counts["computer moves"] += 1
                if replies is not None and sent:
                    replies.append((time.perf_counter() - sent) * 1000)
            taken = {(int(x), int(y)) for x, y in msg["view"]["moves"]}
            x, y = next(pt for pt in GOMOKU_POINTS if pt not in taken)
            await ws.send(frame("move", move={"x": x, "y": y}))
            sent = time.perf_counter()


async def answered(
    ws: ClientConnection, send: bytes, rid: int, done: Callable[[dict[str, Any]], bool]
) -> tuple[float, str]:
    """Send a request; (ms, "ok" or the error's code) once it is answered (an error
    without ``re`` counts: some refusals do not say which request they answer)."""
    start = time.perf_counter()
    await ws.send(send)
    while True:
        try:
            msg = decode_map(await asyncio.wait_for(ws.recv(), 30), MAX_FRAME)
        except TimeoutError:
            return (time.perf_counter() - start) * 1000, "unanswered in 30 s"
        if msg["type"] == "error" and msg.get("re") in (rid, None):
            return (time.perf_counter() - start) * 1000, str(msg.get("code"))
        if done(msg):
            return (time.perf_counter() - start) * 1000, "ok"


def latencies(name: str, samples: list[float], codes: Counter[str]) -> str:
    """``name`` p50/p90/max ms over n answers (and what was refused)."""
    if not samples:
        return f"{name} - ({','.join(f'{n} {c}' for c, n in codes.items())})"
    ordered = sorted(samples)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    refused = ",".join(f"{n} {c}" for c, n in codes.items() if c != "ok")
    return (
        f"{name} {statistics.median(ordered):.0f}/{p90:.0f}/{ordered[-1]:.0f} ms "
        f"n={len(ordered)}" + (f" ({refused})" if refused else "")
    )


async def attack_computers(a: Attack) -> str:
    """Ten hard computer rooms from one address, playing on; meanwhile other
    addresses join a private room, make a first reveal, start a race and play an
    easy computer, each timed from the request to its answer."""
    times: dict[str, list[float]] = {k: [] for k in ("join", "reveal", "race", "easy")}
    codes: dict[str, Counter[str]] = {k: Counter() for k in times}

    async def hard(n: int) -> None:
        async with a.client("127.0.0.30", f"Hard{n}", read=False, retry=True) as ws:
            me = (await expect(ws, "welcome"))["player"]
            await ws.send(frame("create-room", game="gomoku", options={"ai": "hard"}))
            await gomoku_moves(a, ws, me)

    async def paced(
        address: str,
        name: str,
        every: float,
        step: Callable[[ClientConnection, int], Awaitable[None]],
    ) -> None:
        async with a.client(address, name, read=False) as ws:
            await expect(ws, "welcome")
            for n in itertools.count(1):
                next_at = time.monotonic() + every
                if not a.running():
                    return
                try:
                    await step(ws, n)
                except (RuntimeError, TimeoutError):  # a stray answer: go on with the next
                    a.counts["steps out of step"] += 1
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    def timed(kind: str, sample: tuple[float, str]) -> None:
        ms, code = sample
        codes[kind][code] += 1
        if code == "ok":
            times[kind].append(ms)

    async def join(ws: ClientConnection, n: int) -> None:
        sample = await answered(
            ws,
            frame("join-room", room=private, password="pw", id=n),
            n,
            lambda m: m["type"] == "joined",
        )
        timed("join", sample)
        if sample[1] == "ok":
            await ws.send(frame("leave-room"))
            await expect(ws, "left")

    async def reveal(ws: ClientConnection, n: int) -> None:
        await ws.send(frame("create-room", game="minesweeper", options={"preset": "expert"}))
        await expect(ws, "state")
        timed(
            "reveal",
            await answered(
                ws,
                frame("move", move={"action": "reveal", "x": 15, "y": 8}, id=n),
                n,
                lambda m: m["type"] == "moved",
            ),
        )
        await ws.send(frame("leave-room"))
        await expect(ws, "left")

    async def race(ws: ClientConnection, n: int) -> None:
        await ws.send(frame("create-room", game="linkmatch", options={"countdown": 0}))
        await expect(ws, "state")
        timed(
            "race",
            await answered(
                ws,
                frame("start", id=n),
                n,
                lambda m: m["type"] == "state" and m.get("status") == "playing",
            ),
        )
        await ws.send(frame("leave-room"))
        await expect(ws, "left")

    async def easy() -> None:
        async with a.client("127.0.0.35", "Easy", read=False) as ws:
            me = (await expect(ws, "welcome"))["player"]
            await ws.send(frame("create-room", game="gomoku", options={"ai": "easy"}))
            await gomoku_moves(a, ws, me, times["easy"])

    async with a.client("127.0.0.32", "Owner", read=False) as owner:
        await owner.send(frame("create-room", game="gomoku", password="pw"))
        private = (await expect(owner, "joined"))["room"]
        a.begin()
        await asyncio.gather(
            *(hard(n) for n in range(10)),
            easy(),
            paced("127.0.0.31", "Joiner", 1.1, join),
            paced("127.0.0.33", "Revealer", 2.1, reveal),
            paced("127.0.0.34", "Racer", 2.1, race),
        )
    busy = sum(c["server-busy"] for c in codes.values())
    return "; ".join(
        [latencies(k, v, codes[k]) for k, v in times.items()]
        + [f"{a.counts['computer moves']} computer moves, {busy} busy"]
    )


TERMINAL_CLIENT = """
import sys
from gridhall.client.tui.app import GridhallApp
url, room, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
app = GridhallApp(url, "Watcher")
def watch():
    app.session.submit("join-room", room=room, role="spectator")
def leave():
    app.session.submit("leave-room")  # back to the lobby, which lists the room again
app.call_later(lambda: (app.set_timer(seconds / 3, watch), app.set_timer(2 * seconds / 3, leave),
                        app.set_timer(seconds, app.exit)))
app.run(headless=True, size=(120, 40))
sys.exit(app.return_code or 0)
"""
"""A real terminal client, headless: the lobby, then the room as a spectator, then the
lobby again; its exit status is non-zero if it crashed."""


async def attack_client_text(a: Attack) -> str:
    """A player named ``[/]x`` (Rich markup that does not parse) holds a public room and
    chats markup; real terminal clients (headless, in processes of their own) open the
    lobby, watch the room and go back. Counts the clients that crashed."""
    clients, crashed = 2, 0
    async with a.client("127.0.0.17", "[/]x", read=False) as evil:
        await evil.send(frame("create-room", game="gomoku"))
        room = (await expect(evil, "joined"))["room"]
        a.begin()
        procs = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                TERMINAL_CLIENT,
                a.url,
                room,
                str(a.seconds),
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
            for _ in range(clients)
        ]
        chat = asyncio.create_task(
            a.paced(evil, lambda n: frame("chat", text=f"[/]{n} [bold]"), rate=0.5)
        )
        for proc in procs:
            _, err = await proc.communicate()
            if proc.returncode != 0:
                crashed += 1
                lines = [ln for ln in err.decode(errors="replace").splitlines() if "Error" in ln]
                a.counts[lines[-1].strip()[:60] if lines else f"exit {proc.returncode}"] += 1
        chat.cancel()
    a.counts["crashed"] = crashed
    why = "; ".join(k for k in a.counts if k not in ("sent", "crashed"))
    return f"{clients} terminal clients, {crashed} crashed" + (f" ({why})" if why else "")


async def attack_spectator_churn(a: Attack) -> str:
    room = ""
    created, ready = asyncio.Event(), asyncio.Event()
    token: dict[int, str] = {}

    async def player(n: int) -> None:
        """A player that asks for a ``sync`` on every arrival and departure (as clients
        before roster payloads did), marks a cell twice a second, and comes back with
        its token whenever it is closed."""
        nonlocal room
        if n:
            await created.wait()
        marks = itertools.cycle(["flag", "none"])
        while not a.started or a.running():
            try:
                async with a.client("127.0.0.20", f"P{n}", read=False) as ws:
                    if n in token:
                        await ws.send(frame("hello", protocol=1, name=f"P{n}", token=token[n]))
                    welcome = await expect(ws, "welcome")
                    token.setdefault(n, welcome["token"])
                    if not room:
                        await ws.send(
                            frame("create-room", game="minesweeper", options={"preset": "beginner"})
                        )
                        room = (await expect(ws, "joined"))["room"]
                        await expect(ws, "state")
                        created.set()
                    elif n == 1 and not ready.is_set():
                        await ws.send(frame("join-room", room=room))
                        await expect(ws, "state")
                    if n == 1:
                        ready.set()

                    async def read(me: str = welcome["player"]) -> None:
                        async for data in ws:
                            msg = decode_map(data, MAX_FRAME)  # type: ignore[arg-type]
                            if msg["type"] in ("joined", "left") and msg.get("player") != me:
                                await ws.send(frame("sync"))
                                a.counts["player syncs"] += 1
                            elif msg["type"] == "error":
                                a.counts[f"player {msg.get('code')}"] += 1

                    reader = asyncio.create_task(read())
                    try:
                        await a.paced(
                            ws,
                            lambda k: frame(
                                "move", move={"action": "mark", "x": 8, "y": n, "mark": next(marks)}
                            ),
                            rate=2.0,
                        )
                    finally:
                        reader.cancel()
                    return
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, RuntimeError):
                a.counts["player disconnects"] += 1

    async def spectator(n: int) -> None:
        await ready.wait()
        async with a.client("127.0.0.21", f"S{n}", retry=True) as ws:
            a.begin()
            while a.running():
                await ws.send(frame("join-room", room=room, role="spectator"))
                await asyncio.sleep(0.5)
                await ws.send(frame("leave-room"))
                await asyncio.sleep(0.5)
                a.counts["churns"] += 1

    await asyncio.gather(player(0), player(1), *(spectator(n) for n in range(20)))
    c = a.counts
    return (
        f"{c['churns']} join+leave; players: {c['player disconnects']} disconnects, "
        f"{c['player syncs']} syncs sent, {c['player rate-limited']} rate-limited; "
        f"spectators: {c['rate-limited']} rate-limited"
    )


async def count_fanout(a: Attack, ws: Any, counts_lines: bool, received: Counter[str]) -> None:
    """One watcher's reader: the frames it gets (and, for one watcher, the chat lines)."""
    with contextlib.suppress(ConnectionClosed):
        async for data in ws:
            if not a.running() or b"\xa6joined" in data[:16]:
                continue  # arrivals: read late, sent before the chat began
            received["frames"] += 1
            if isinstance(data, bytes) and b"\xa5error" in data[:16]:
                a.counts[str(decode_map(data, MAX_FRAME).get("code"))] += 1
            elif counts_lines and isinstance(data, bytes) and b"\xa4chat" in data[:16]:
                received["lines"] += 1  # one watcher's view of the room


async def attack_fanout(a: Attack) -> str:
    async with a.client("127.0.0.22", "Stage", read=False) as host:
        await host.send(frame("create-room", game="gomoku"))
        room = (await expect(host, "joined"))["room"]
        drain = asyncio.create_task(a._drain(host))
        joined = 0
        settled = asyncio.Event()  # everyone is in the room or was refused: chat begins
        received = Counter[str]()

        async def spectator(n: int) -> None:
            for _ in range(20):  # 40 connections from one address: past its connect burst
                try:
                    await watch(n)
                    return
                except (InvalidHandshake, ConnectionClosed):
                    if n in came:
                        return  # closed after it had arrived: it is counted already
                    # a crowd of 400 arriving at once: past the server's bound on
                    # connections yet to say hello the oldest are closed; come again
                    a.counts["connects retried"] += 1
                    await asyncio.sleep(1.0)
            arrived("refused connection")

        came: set[int] = set()

        def arrived(what: str, n: int | None = None) -> None:
            nonlocal joined
            if n is not None:
                came.add(n)
            a.counts[what] += 1
            joined += 1
            if joined == 400:
                settled.set()

        async def watch(n: int) -> None:
            async with a.client(f"127.0.0.{30 + n % 10}", f"W{n}", read=False, retry=True) as ws:
                await expect(ws, "welcome")
                while True:  # join to watch, waiting as told when arrivals are paced
                    await ws.send(frame("join-room", room=room, role="spectator"))
                    msg = decode_map(await asyncio.wait_for(ws.recv(), 60), MAX_FRAME)
                    while msg["type"] not in ("error", "joined"):
                        msg = decode_map(await asyncio.wait_for(ws.recv(), 60), MAX_FRAME)
                    if msg["type"] == "joined" or msg.get("code") != "rate-limited":
                        break
                    await asyncio.sleep(float(msg.get("retry_after") or 1.0))
                arrived("in the room" if msg["type"] == "joined" else str(msg.get("code")), n)
                await settled.wait()

                reader = asyncio.create_task(count_fanout(a, ws, n == 0, received))
                await asyncio.sleep(random.random() * 1.25)
                try:
                    await a.paced(ws, lambda k: frame("chat", text=f"line {k} from {n}"), rate=0.8)
                finally:
                    reader.cancel()

        await asyncio.gather(*(spectator(n) for n in range(400)))
        drain.cancel()
    c = a.counts
    return (
        f"{c['in the room']} watching, {c['room-full']} room-full; {c['sent']} lines "
        f"sent, {received['lines']} broadcast, {c['rate-limited']} rate-limited, "
        f"{c['not-in-room']} not in a room; {received['frames'] / a.seconds:.0f} frames/s "
        "to spectators"
    )


def db_mb(path: str) -> float:
    """The database's size on disk: the file and its WAL (MB)."""
    total = 0
    for suffix in ("", "-wal"):
        with contextlib.suppress(OSError):
            total += os.path.getsize(path + suffix)
    return total / 2**20


async def attack_disk(a: Attack) -> str:
    """Chat, a game that never ends and finished games, all at the allowed rates;
    the database and the RSS over time."""
    text = "chat " * 20  # about 100 characters a line

    async def again(role: str, run: Callable[[], Awaitable[None]]) -> None:
        """Run ``run`` until the attack ends, again whenever its connection is closed
        (counted), as an attacker would."""
        a.begin()
        while a.running():
            try:
                await run()
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, RuntimeError):
                a.counts[f"{role} closed"] += 1
                await asyncio.sleep(0.5)

    async def chatter(room: str, n: int) -> None:
        """A spectator of a chat room that chats at the allowed rate."""
        async with a.client(f"127.0.0.{20 + n % 10}", f"C{n}", read=False) as ws:
            await ws.send(frame("join-room", room=room, role="spectator"))
            await expect(ws, "state")
            drain = asyncio.create_task(a._drain(ws))
            await a.paced(ws, lambda k: frame("chat", text=f"{text}{k}"), rate=0.7)
            drain.cancel()

    async def flaggers() -> None:
        async with contextlib.AsyncExitStack() as stack:
            host = await stack.enter_async_context(a.client("127.0.0.40", "F0", read=False))
            await host.send(
                frame(
                    "create-room",
                    game="minesweeper",
                    options={"width": 30, "height": 16, "mines": 99, "max_players": 8},
                )
            )
            room = (await expect(host, "joined"))["room"]
            await host.send(frame("move", move={"action": "reveal", "x": 15, "y": 8}))
            rows = (await expect(host, "moved"))["view"]["rows"]
            hidden = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"]
            players = [host]
            for n in range(1, 8):
                ws = await stack.enter_async_context(a.client("127.0.0.40", f"F{n}", read=False))
                await ws.send(frame("join-room", room=room))
                await expect(ws, "state")
                players.append(ws)
            drains = [asyncio.create_task(a._drain(ws)) for ws in players]

            def toggle(n: int, k: int) -> bytes:
                x, y = hidden[(n * 7 + k // 2) % len(hidden)]
                a.counts["marks"] += 1
                return frame(
                    "move",
                    move={
                        "action": "mark",
                        "x": x,
                        "y": y,
                        "mark": "flag" if k % 2 == 0 else "none",
                    },
                )

            await asyncio.gather(
                *(
                    a.paced(ws, lambda k, n=n: toggle(n, k), rate=10.0)
                    for n, ws in enumerate(players)
                )
            )
            for d in drains:
                d.cancel()

    async def resigner(n: int) -> None:
        async with a.client(f"127.0.0.{50 + n}", f"R{n}", read=False) as ws:
            await ws.send(frame("create-room", game="gomoku", options={"ai": "easy"}))
            await expect(ws, "state")
            a.begin()
            while a.running():
                await ws.send(frame("resign"))
                await expect(ws, "game-over")
                await ws.send(frame("play-again"))
                await expect(ws, "state")
                a.counts["games"] += 1
                await asyncio.sleep(0.2)  # within the rate limits, as a client would

    sizes: list[tuple[float, float, float]] = []

    def measure() -> None:
        wal = 0.0
        with contextlib.suppress(OSError):
            wal = os.path.getsize(a.db + "-wal") / 2**20
        sizes.append((db_mb(a.db) - wal, wal, rss_mb(a.pid) if a.pid else 0.0))

    async def sample() -> None:
        a.begin()
        while a.running():
            measure()
            await asyncio.sleep(a.seconds / 10)

    async def chat_room_owned(r: int) -> None:
        """A chat room: its creator chats, nine spectators of it too."""
        async with a.client(f"127.0.0.{20 + r}", f"C{r}0", read=False) as ws:
            await ws.send(
                frame(
                    "create-room",
                    game="minesweeper",
                    options={"preset": "beginner", "max_players": 8},
                )
            )
            room = (await expect(ws, "joined"))["room"]
            drain = asyncio.create_task(a._drain(ws))
            others = [again("chatter", lambda k=k: chatter(room, r * 10 + k)) for k in range(1, 10)]
            await asyncio.gather(
                a.paced(ws, lambda k: frame("chat", text=f"{text}{k}"), rate=0.7), *others
            )
            drain.cancel()

    await asyncio.gather(
        sample(),
        again("flagger", flaggers),
        *(again("resigner", lambda n=n: resigner(n)) for n in range(4)),
        *(again("chat room", lambda r=r: chat_room_owned(r)) for r in range(4)),
    )
    measure()
    tables = ""
    with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(a.db)) as db:
        tables = ", ".join(
            f"{t} {db.execute(f'SELECT COUNT(*) FROM {t}').fetchone()[0]}"
            for t in ("chat", "journal", "games")
        )
    files = " ".join(f"{d:.1f}" for d, _, _ in sizes)
    wals = " ".join(f"{w:.1f}" for _, w, _ in sizes)
    rss = " ".join(f"{r:.0f}" for _, _, r in sizes)
    return (
        f"every {a.seconds / 10:.0f} s: db file MB {files}; WAL MB {wals}; RSS MB {rss}; "
        f"{a.counts['sent'] - a.counts['marks']} chat lines, {a.counts['marks']} marks, "
        f"{a.counts['games']} games resigned; rows at the end: {tables}; closed: "
        + (", ".join(f"{k} {v}" for k, v in a.counts.items() if k.endswith("closed")) or "none")
    )


async def raw_socket(a: Attack, address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A plain TCP connection to the server from ``address`` (no handshake)."""
    sock = socket.socket()
    try:
        sock.bind((address, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", a.port))
        return await asyncio.open_connection(sock=sock)
    except BaseException:  # refused, or cancelled at the attack's end
        sock.close()
        raise


async def until_cut(a: Attack, reader: asyncio.StreamReader) -> bool:
    """Wait until the server closes the socket (True) or the attack ends (False)."""
    left = a.until - time.time()
    if left <= 0:
        return False
    try:
        await asyncio.wait_for(reader.read(), left)
    except TimeoutError:
        return False
    except OSError:
        pass
    return True


async def newcomer(a: Attack, address: str, name: str) -> bool:
    """Can a new player from ``address`` connect, say hello and open a room within 5 s?"""

    async def attempt() -> None:
        async with a.client(address, name, read=False) as ws:
            await expect(ws, "welcome")
            await ws.send(frame("create-room", game="gomoku"))
            await expect(ws, "joined")
            await ws.send(frame("leave-room"))

    try:
        await asyncio.wait_for(attempt(), 5.0)
        return True
    except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, RuntimeError):
        return False


async def newcomers(a: Attack, address: str, every: float = 1.0) -> None:
    """Every ``every`` s while the attack runs, a new player from ``address`` tries
    to get in (counted as ``newcomer ok`` / ``newcomer failed``)."""
    n = 0
    while a.running():
        await asyncio.sleep(every)
        n += 1
        a.counts["newcomer ok" if await newcomer(a, address, f"New{n}") else "newcomer failed"] += 1


async def attack_headers(a: Attack) -> str:
    """1,000 sockets from one address, each sending ~1 MiB of request headers in
    8 KB lines and never ending the head; a socket that is cut comes back."""
    line = b"X-Pad: " + b"a" * 8000 + b"\r\n"
    a.begin()

    async def one() -> None:
        while a.running():
            try:  # a connect into a full accept queue waits for SYN retries: bound it
                reader, writer = await asyncio.wait_for(
                    raw_socket(a, "127.0.0.17"), max(0.01, a.until - time.time())
                )
            except (OSError, TimeoutError):
                a.counts["connect failed"] += 1
                await asyncio.sleep(0.5)
                continue
            a.counts["sockets"] += 1
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                for _ in range(127):
                    writer.write(line)
                    # a server that stops reading never drains: stop with the attack
                    await asyncio.wait_for(writer.drain(), max(0.01, a.until - time.time()))
                    a.counts["MiB"] += len(line) / 2**20
                    if not a.running():
                        break
                cut = await until_cut(a, reader)
            except TimeoutError:
                cut = False
            except OSError:
                cut = True
            finally:
                writer.close()
            if cut:
                a.counts["cut"] += 1
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(1000)))
    c = a.counts
    return (
        f"{c['sockets']} sockets sent {c['MiB']:.0f} MiB of headers; {c['cut']} cut, "
        f"{c['connect failed']} connects failed"
    )


async def attack_slow_sockets(a: Attack) -> str:
    """1,100 slowloris sockets from one address (a header byte a second, never
    done; cut ones come back); meanwhile a new player from another address
    tries to get in every second."""
    a.begin()

    async def one() -> None:
        while a.running():
            try:
                reader, writer = await raw_socket(a, "127.0.0.18")
            except OSError:
                a.counts["connect failed"] += 1
                await asyncio.sleep(0.5)
                continue
            a.counts["sockets"] += 1
            cut = False
            try:
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                while a.running() and not reader.at_eof():
                    writer.write(b"a")
                    await writer.drain()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(reader.read(), 1.0)
                        cut = True
                        break
            except OSError:
                cut = True
            finally:
                writer.close()
            if cut:
                a.counts["cut"] += 1
                await asyncio.sleep(0.5)

    await asyncio.gather(*(one() for _ in range(1100)), newcomers(a, "127.0.0.19"))
    c = a.counts
    return (
        f"{c['sockets']} slow sockets, {c['cut']} cut; new players: "
        f"{c['newcomer ok']} in, {c['newcomer failed']} failed"
    )


async def attack_no_hello(a: Attack) -> str:
    """10 addresses x 50 WebSocket connections that never say hello (closed ones
    come back); meanwhile a new player from another address tries every second."""
    a.begin()

    async def one(address: str) -> None:
        while a.running():
            try:
                sock = socket.socket()
                sock.bind((address, 0))
                sock.setblocking(False)
                await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", a.port))
                async with connect(a.url, sock=sock, compression=None, close_timeout=1) as ws:
                    a.counts["connections"] += 1
                    await asyncio.wait_for(ws.wait_closed(), max(0.01, a.until - time.time()))
                    a.counts["closed"] += 1
            except TimeoutError:
                return
            except (ConnectionClosed, OSError, InvalidHandshake):
                a.counts["refused"] += 1
            await asyncio.sleep(0.5)

    await asyncio.gather(
        *(one(f"127.0.0.{20 + n}") for n in range(10) for _ in range(50)),
        newcomers(a, "127.0.0.30"),
    )
    c = a.counts
    return (
        f"{c['connections']} idle connections ({c['closed']} closed by the server, "
        f"{c['refused']} refused); new players: {c['newcomer ok']} in, "
        f"{c['newcomer failed']} failed"
    )


async def attack_origin(a: Attack) -> str:
    """A page from another site opens a WebSocket (as a LAN player's browser would),
    then a page from the server itself."""
    results = []
    for page in ("http://evil.example", f"http://127.0.0.1:{a.port}"):
        try:
            async with connect(a.url, origin=page, compression=None) as ws:  # type: ignore[arg-type]
                await ws.send(frame("hello", protocol=1, name="Page"))
                await expect(ws, "welcome", timeout=5.0)
                results.append(f"{page}: accepted")
        except InvalidStatus as exc:
            results.append(f"{page}: refused {exc.response.status_code}")
    a.counts["refused"] = sum("refused" in r for r in results)
    return "; ".join(results)


# -- issue 41: the admin page, host names, a crowd saying hello, link codes ----------------

ADMIN_TOKEN = "bench-admin-token-0123456789abcdef"
"""The server's admin token in these runs (``--admin-token``)."""


async def bound_socket(a: Attack, address: str) -> socket.socket:
    sock = socket.socket()
    try:
        sock.bind((address, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", a.port))
    except BaseException:
        sock.close()
        raise
    return sock


async def admin_page(a: Attack, address: str) -> ClientConnection:
    """An admin socket from ``address`` that has not signed in."""
    sock = await bound_socket(a, address)
    try:
        return await connect(
            f"ws://127.0.0.1:{a.port}/admin", sock=sock, compression=None, close_timeout=1
        )
    except BaseException:
        sock.close()
        raise


async def sign_in(a: Attack, address: str, token: str) -> tuple[str, float]:
    """Open the admin channel from ``address`` and sign in: ("in" or what refused it,
    ms until the answer)."""
    start = time.perf_counter()
    try:
        ws = await asyncio.wait_for(admin_page(a, address), 10.0)
    except (OSError, InvalidHandshake, TimeoutError) as exc:
        return f"upgrade {getattr(getattr(exc, 'response', None), 'status_code', 'failed')}", 0.0
    try:
        await ws.send(frame("admin-hello", token=token, id=1))
        msg = decode_map(await asyncio.wait_for(ws.recv(), 10.0), MAX_FRAME)  # type: ignore[arg-type]
        got = "in" if msg["type"] == "admin-welcome" else str(msg.get("code"))
    except ConnectionClosed as exc:
        got = f"closed {exc.rcvd.code}" if exc.rcvd else "closed"
    except TimeoutError:
        got = "no answer in 10 s"
    finally:
        await ws.close()
    return got, (time.perf_counter() - start) * 1000


async def operator(a: Attack, until: float, results: list[tuple[str, float]]) -> None:
    """The operator signs in from 127.0.0.1 with the right token every 0.3 s."""
    while time.time() < until:
        results.append(await sign_in(a, "127.0.0.1", ADMIN_TOKEN))
        await asyncio.sleep(0.3)


def signed(results: list[tuple[str, float]]) -> str:
    ok = sorted(ms for got, ms in results if got == "in")
    other = Counter(got for got, _ in results if got != "in")
    times = f" ({statistics.median(ok):.0f}/{ok[-1]:.0f} ms)" if ok else ""
    refused = ", ".join(f"{n} {why}" for why, n in other.most_common()) or "none refused"
    return f"{len(ok)}/{len(results)} in{times}, {refused}"


async def attack_admin_lockout(a: Attack) -> str:
    """Issue 41 item 3, a third of the time each, the operator signing in from 127.0.0.1
    every 0.3 s: eight admin sockets from 127.0.0.1 that never sign in (re-opened when
    cut); a process on 127.0.0.1 sending wrong tokens one after another; 40 loopback
    addresses re-opening silent admin sockets as fast as they can."""
    a.begin()
    phase = a.seconds / 3

    async def idle(address: str, until: float, pause: float) -> None:
        while time.time() < until:
            try:
                ws = await admin_page(a, address)
            except (OSError, InvalidHandshake):
                a.counts["idle refused"] += 1
                await asyncio.sleep(0.1)
                continue
            a.counts["idle sockets"] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.wait_closed(), max(0.01, until - time.time()))
            await ws.close()
            await asyncio.sleep(pause)

    async def guesser(until: float) -> None:
        while time.time() < until:
            a.counts["wrong tokens"] += 1
            await sign_in(a, "127.0.0.1", "not-the-token-" + "x" * 20)

    notes = []
    for name, attackers in (
        ("8 idle sockets", lambda end: [idle("127.0.0.1", end, 0.05) for _ in range(8)]),
        ("wrong tokens", lambda end: [guesser(end)]),
        ("40 addresses churning", lambda end: [idle(f"127.0.1.{n}", end, 0) for n in range(40)]),
    ):
        end = time.time() + phase
        results: list[tuple[str, float]] = []
        await asyncio.sleep(0.5)  # their sockets first
        await asyncio.gather(*attackers(end), operator(a, end, results))
        notes.append(f"{name}: operator {signed(results)}")
    c = a.counts
    return "; ".join(notes) + f" ({c['idle sockets']} idle sockets, {c['wrong tokens']} wrong)"


async def http_status(a: Attack, head: str) -> int:
    """The status of one raw HTTP request from 127.0.0.1 (0: no answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", a.port)
    try:
        writer.write(head.encode() + b"\r\n\r\n")
        line = await asyncio.wait_for(reader.readline(), 10.0)
    finally:
        writer.close()
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 else 0


async def attack_rebinding(a: Attack) -> str:
    """Issue 41 item 4: DNS rebinding. From 127.0.0.1 with ``Host`` and ``Origin`` naming
    an attacker's domain: ``/metrics`` without a token and with a wrong one, the page,
    a game socket and the admin socket; then a wrong token with the server's own Host."""
    evil = f"rebind.evil.example:{a.port}"
    upgrade = (
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13"
    )
    wrong = "Authorization: Bearer " + "x" * 32
    asks = {
        "/metrics": f"GET /metrics HTTP/1.1\r\nHost: {evil}",
        "/metrics wrong token": f"GET /metrics HTTP/1.1\r\nHost: {evil}\r\n{wrong}",
        "page": f"GET / HTTP/1.1\r\nHost: {evil}\r\nOrigin: http://{evil}",
        "game socket": f"GET / HTTP/1.1\r\nHost: {evil}\r\nOrigin: http://{evil}\r\n{upgrade}",
        "admin socket": f"GET /admin HTTP/1.1\r\nHost: {evil}\r\nOrigin: http://{evil}\r\n"
        + upgrade,
    }
    a.begin()
    got = {name: await http_status(a, head) for name, head in asks.items()}
    a.counts["reached"] = sum(1 for status in got.values() if status in (200, 101))
    own = f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:{a.port}\r\n{wrong}"
    shown = ", ".join(f"{name} {status}" for name, status in got.items())
    return f"{shown}; own Host, wrong token: /metrics {await http_status(a, own)}"


STORM_PLAYERS = 1000


def storm_address(n: int) -> str:
    return f"127.40.{n // 250}.{1 + n % 250}"


async def attack_hello_storm(a: Attack) -> str:
    """Issue 41 item 11: 1,000 players of 500 Gomoku rooms connect within ~2 s, each from
    its own address and saying hello at once (the first of a pair makes the room, the
    other joins it); then all drop together and reconnect at once with their tokens,
    as after a restart. Counts who got in, and who was closed or refused."""
    a.begin()
    loop = asyncio.get_running_loop()
    codes = [loop.create_future() for _ in range(STORM_PLAYERS // 2)]
    tokens: dict[int, tuple[str, str]] = {}

    async def play(ws: ClientConnection, n: int, resume: tuple[str, str] | None) -> None:
        hello = {"protocol": 1, "name": f"S{n}", "id": 1}
        await ws.send(frame("hello", **hello, **({"token": resume[1]} if resume else {})))
        if resume is None and n % 2 == 0:
            await ws.send(frame("create-room", game="gomoku", id=2))
        welcome = await expect(ws, "welcome")
        if resume is not None:
            a.counts["back in" if welcome["player"] == resume[0] else "back: as another"] += 1
            return
        tokens[n] = (welcome["player"], welcome["token"])
        a.counts["in"] += 1
        if n % 2 == 0:
            codes[n // 2].set_result((await expect(ws, "joined"))["room"])
            return
        room = await asyncio.wait_for(codes[n // 2], 30.0)
        if not room:
            a.counts["first: partner gone"] += 1
            return
        await ws.send(frame("join-room", room=room, id=3))
        await expect(ws, "joined")
        a.counts["rooms full"] += 1

    async def player(n: int, resume: tuple[str, str] | None, all_tried: asyncio.Event) -> None:
        stage = "back" if resume else "first"
        ws = None
        try:
            await asyncio.sleep(0 if resume else n * 2.0 / STORM_PLAYERS)
            ws = await asyncio.wait_for(
                connect(a.url, sock=await bound_socket(a, storm_address(n)), compression=None),
                30.0,
            )
            await play(ws, n, resume)
        except ConnectionClosed as exc:
            why = exc.rcvd.reason if exc.rcvd else "no close frame"
            a.counts[f"{stage}: closed {why[:40]!r}"] += 1
        except (OSError, InvalidHandshake, TimeoutError, RuntimeError) as exc:
            a.counts[f"{stage}: {type(exc).__name__} {exc}"[:60]] += 1
        finally:
            if resume is None and n % 2 == 0 and not codes[n // 2].done():
                codes[n // 2].set_result("")
            a.counts[f"{stage} tried"] += 1
            if a.counts[f"{stage} tried"] >= (len(tokens) if resume else STORM_PLAYERS):
                all_tried.set()
            if ws is not None:  # everyone stays until all have tried: one crowd
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(all_tried.wait(), 60.0)
                await ws.close()

    first = asyncio.Event()
    await asyncio.gather(*(player(n, None, first) for n in range(STORM_PLAYERS)))
    again = asyncio.Event()
    await asyncio.gather(*(player(n, tokens[n], again) for n in sorted(tokens)))
    c = a.counts
    failures = ", ".join(f"{n} {k}" for k, n in c.items() if ": " in k) or "nothing refused"
    return (
        f"{c['in']}/{STORM_PLAYERS} in, {c['rooms full']}/{STORM_PLAYERS // 2} rooms full; "
        f"all at once again: {c['back in']}/{len(tokens)} back as themselves; {failures}"
    )


LINK_ADDRESSES = 20
LINK_ASKS = 100


async def attack_link_codes(a: Attack) -> str:
    """Issue 41 item 12: 2,000 connections (100 from each of 20 addresses) each ask for a
    link code and hang up; then, in the database, the identities kept past their grace
    (60 s), and how long the longest is kept."""
    a.begin()

    async def asker(address: str) -> None:
        for n in range(LINK_ASKS):
            try:
                async with a.client(address, f"L{n}", read=False, retry=True) as ws:
                    await expect(ws, "welcome")
                    await ws.send(frame("link-code", id=1))
                    await expect(ws, "link-code")
                    a.counts["codes"] += 1
            except (ConnectionClosed, OSError, InvalidHandshake, TimeoutError, RuntimeError):
                a.counts["failed"] += 1

    await asyncio.gather(*(asker(f"127.0.2.{1 + n}") for n in range(LINK_ADDRESSES)))
    await asyncio.sleep(1.0)  # the last ones' disconnects reach the store
    now = time.time()
    with sqlite3.connect(a.db) as db:
        kept, longest = db.execute(
            "SELECT COUNT(*), MAX(expires) FROM identities WHERE expires > ?", (now + 65,)
        ).fetchone()
    a.counts["kept"] = kept
    longest_s = f", the longest for {longest - now:.0f} s" if longest else ""
    return (
        f"{a.counts['codes']} codes asked for and hung up on ({a.counts['failed']} failed); "
        f"{kept} identities kept past their grace{longest_s}"
    )


async def attack_admin_frames(a: Attack) -> str:
    """Issue 41 item 12: admin requests of odd shapes (an int ``type``, an int key in
    ``settings`` or in the request) must each be answered with their ``re``."""
    a.begin()
    odd = {
        "int type": {"type": 5, "action": "announce", "text": "x", "id": 71},
        "int settings key": {"type": "admin", "action": "retention", "settings": {1: 2}, "id": 72},
        "int key": {"type": "admin", 7: "x", "action": "announce", "text": "x", "id": 73},
    }
    ws = await admin_page(a, "127.0.0.1")
    answered = {}
    try:
        await ws.send(frame("admin-hello", token=ADMIN_TOKEN, id=1))
        await expect(ws, "admin-welcome")
        for name, fields in odd.items():
            await ws.send(encode_map(fields))  # type: ignore[arg-type]
            answer = await expect(ws, "error")
            answered[name] = answer.get("re") == fields["id"]
    finally:
        await ws.close()
    a.counts["unanswered"] = sum(1 for ok in answered.values() if not ok)
    return ", ".join(f"{k}: {'re' if ok else 'NO re'}" for k, ok in answered.items())


async def attack_swarm_of_fuzzers(a: Attack) -> str:
    """Issue 41 item 10 (``bench/attack_swarm.py``): the probe alone for a baseline, then
    90 fuzzers and 3 flooders; its p99 before and during."""

    def begin() -> float:
        a.begin()
        return a.started

    def rtts(start: float, end: float) -> list[float]:
        return [r for t, r in a.watch.rtts if start <= t <= end] if a.watch else []

    return await attack_swarm.attack(a.url, a.port, a.seconds, begin, rtts)


async def attack_burst(a: Attack) -> str:
    """Issue 41 item 10: one write of 400 KB of tiny frames every 2 s
    (``bench/attack_swarm.py``)."""
    a.begin()
    return await attack_swarm.bursts(a.url, a.port, a.until)


SERVER_NEEDS: dict[str, dict[str, Any]] = {
    "hello-storm": {"max_connections": 2600, "max_rooms": 1200},
}
"""Settings an attack needs beyond the defaults (room for its crowd)."""


# -- issue 41: the players' surfaces (ratings, history retention, kicks, devices) -------


async def ask(
    ws: ClientConnection, type_: str, want: str, rid: int, **fields: Any
) -> dict[str, Any]:
    """Send a request and return its answer (``want``, or the error that echoes ``rid``);
    a ``rate-limited`` refusal is waited out and the request sent again."""
    while True:
        await ws.send(frame(type_, id=rid, **fields))
        while True:
            msg = decode_map(await asyncio.wait_for(ws.recv(), 60), MAX_FRAME)
            if msg["type"] == "error" and msg.get("re") == rid:
                break
            if msg["type"] == want and msg.get("re", rid) == rid:
                return msg
        if msg.get("code") != "rate-limited":
            return msg
        await asyncio.sleep(float(msg.get("retry_after") or 0.5) + 0.01)


async def playing(ws: ClientConnection) -> dict[str, Any]:
    """The room's ``state`` once its game is under way."""
    state = await expect(ws, "state")
    while state.get("status") != "playing":
        state = await expect(ws, "state")
    return state


FARMER_STONES = [(0, 0), (1, 0), (2, 0), (3, 0), (10, 10), (4, 0)]
THROWAWAY_STONES = [(0, 2), (1, 2), (2, 2), (3, 2), (10, 12), (12, 12)]
FARM_GAMES = 30


async def farm(a: Attack, farmer_address: str, throwaway_address: str, stones: int) -> str:
    """One farmer beats FARM_GAMES fresh identities in rated Gomoku rooms. ``stones``: 2
    (each plays one stone, then the throw-away resigns: issue 41's attack), or more
    (the farmer makes five in eleven or twelve stones, the throw-away playing along)."""
    async with a.client(farmer_address, "Farmer", read=False) as farmer:
        me = (await expect(farmer, "welcome"))["player"]
        began, rated, rid = time.time(), 0, 0
        for n in range(FARM_GAMES):
            async with a.client(throwaway_address, f"Throwaway {n}", read=False) as fresh:
                them = (await expect(fresh, "welcome"))["player"]
                rid += 1
                room = (
                    await ask(
                        farmer, "create-room", "joined", rid, game="gomoku", options={"rated": True}
                    )
                )["room"]
                await fresh.send(frame("join-room", room=room))
                turn = (await playing(farmer))["turn"]
                sides = {me: (farmer, FARMER_STONES), them: (fresh, THROWAWAY_STONES)}
                played = {me: 0, them: 0}
                while True:
                    ws, points = sides[turn]
                    x, y = points[played[turn]]
                    played[turn] += 1
                    await ws.send(frame("move", move={"x": x, "y": y}))
                    await expect(farmer, "moved")
                    if played[me] == len(FARMER_STONES):
                        break  # the farmer's five: game-over follows
                    if sum(played.values()) >= stones:
                        await fresh.send(frame("resign"))
                        break
                    turn = them if turn == me else me
                over = await expect(farmer, "game-over")
                rated += bool(over.get("ratings"))
                await fresh.send(frame("leave-room"))  # so the room closes (rooms per address)
                await expect(fresh, "left")
            rid += 1
            await ask(farmer, "leave-room", "left", rid)
        seconds = time.time() - began
        rid += 1
        profile = await ask(farmer, "get-profile", "player-profile", rid, player=me)
        mine = (profile.get("ratings") or {}).get("gomoku") or {"rating": 1000, "games": 0}
        rid += 1
        board = await ask(farmer, "leaderboard", "leaderboard", rid, game="gomoku", around=me)
        place = (
            f"rank {next(r['rank'] for r in board['rows'] if r['player'] == me)} of "
            f"{board['total']}"
            if board["type"] == "leaderboard"
            else "not on the leaderboard"
        )
    return (
        f"{stones} stones a game: 1000 -> {mine['rating']} after {FARM_GAMES} wins "
        f"({rated} rated, {mine['games']} counted), {place}, {seconds:.0f} s"
    )


async def attack_farming(a: Attack) -> str:
    """Issue 41, item 5: rated wins over throw-away identities, as the attacker played
    them (one stone each, then resign) and as one who plays past the stone minimum."""
    a.begin()
    short, full = await asyncio.gather(
        farm(a, "127.0.0.60", "127.0.0.61", 2), farm(a, "127.0.0.62", "127.0.0.63", 12)
    )
    return f"{short}; {full}"


VICTIMS = 5
VICTIM_GAMES = 20
RATED_STONES = [(0, 0), (14, 0), (0, 14), (14, 14), (7, 0), (0, 7), (14, 7), (7, 14)]


async def resign_games(ws: ClientConnection, games: int, until: float | None = None) -> int:
    """Finish games against the easy computer by resigning each at once (each one a
    stored game); ``games`` of them, or as many as fit before ``until``."""
    await ws.send(frame("create-room", game="gomoku", options={"ai": "easy"}))
    await playing(ws)
    done, next_at = 0, time.monotonic()
    while done < games and (until is None or time.time() < until):
        await ws.send(frame("resign"))
        await expect(ws, "game-over")
        done += 1
        await ws.send(frame("play-again"))
        await playing(ws)
        next_at += 1 / 9  # two messages a game: within the 20 a second a connection may send
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    await ws.send(frame("leave-room"))
    await expect(ws, "left")
    return done


async def rated_against_computer(ws: ClientConnection, me: str) -> None:
    """A rated game of ten stones or more against the easy computer (scattered stones
    of our own), then resign (unless the computer won first)."""
    await ws.send(frame("create-room", game="gomoku", options={"ai": "easy", "rated": True}))
    state = await playing(ws)
    taken = {tuple(m) for m in state["view"]["moves"]}
    mine = state["turn"] == me
    while len(taken) < 10 or not mine:
        if mine:
            x, y = next(pt for pt in RATED_STONES if pt not in taken)
            await ws.send(frame("move", move={"x": x, "y": y}))
        msg = decode_map(await asyncio.wait_for(ws.recv(), 60), MAX_FRAME)
        if msg["type"] == "game-over":
            break
        if msg["type"] == "moved":
            taken = {tuple(m) for m in msg["view"]["moves"]}
            mine = msg.get("by") != me
    else:  # (the computer's stone may have ended it already: then this is refused)
        await ws.send(frame("resign"))
    await ws.send(frame("leave-room"))
    while decode_map(await asyncio.wait_for(ws.recv(), 60), MAX_FRAME)["type"] != "left":
        pass


async def victims_games(a: Attack, victims: list[tuple[str, str]]) -> tuple[int, int]:
    """How many games the server lists for these players (id, token), and for how many
    of them the oldest one's replay opens."""
    kept = replays = 0
    async with a.client("127.0.0.70", "Player 0", read=False, token=victims[0][1]) as ws:
        await expect(ws, "welcome")
        for n, (pid, _token) in enumerate(victims):
            games = (await ask(ws, "list-games", "games", 100 + n, player=pid, limit=50))["games"]
            kept += len(games)
            if games:
                answer = await ask(
                    ws, "get-replay", "replay", 200 + n, game_id=games[-1]["game_id"]
                )
                replays += answer["type"] == "replay"
    return kept, replays


async def attack_history_flood(a: Attack) -> str:
    """Issue 41, item 9: five players finish 20 games each (four of them rated, of ten
    stones); then one address finishes games against the computer as fast as the rate
    limits let four connections, for the attack's length. Then: how many of the five
    players' games, and their replays, the server still has, and how many rating history
    points name a pruned game (run with ``--games-rows`` to scale the cap down)."""
    victims: list[tuple[str, str]] = []

    async def victim(n: int) -> None:
        async with a.client(f"127.0.0.{70 + n}", f"Player {n}", read=False) as ws:
            welcome = await expect(ws, "welcome")
            for _ in range(4):
                await rated_against_computer(ws, welcome["player"])
            await resign_games(ws, VICTIM_GAMES - 4)
            victims.append((welcome["player"], welcome["token"]))

    await asyncio.gather(*(victim(n) for n in range(VICTIMS)))
    had, _ = await victims_games(a, victims)
    a.begin()

    async def flooder(n: int) -> int:
        async with a.client("127.0.0.75", f"Flood {n}", read=False) as ws:
            await expect(ws, "welcome")
            return await resign_games(ws, 10**9, a.until)

    flooded = sum(await asyncio.gather(*(flooder(n) for n in range(4))))
    stored, still = 0, 0
    for _ in range(90):  # the server prunes every 5 s: until 6 s go by with no change
        await asyncio.sleep(1.0)
        with contextlib.closing(sqlite3.connect(a.db)) as db:
            now = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        still = still + 1 if now == stored else 0
        stored = now
        if still >= 6:
            break
    kept, replays = await victims_games(a, victims)
    with contextlib.closing(sqlite3.connect(a.db)) as db:
        dangling = db.execute(
            "SELECT COUNT(*) FROM rating_history WHERE game_id NOT IN (SELECT id FROM games)"
        ).fetchone()[0]
        points = db.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0]
    return (
        f"flooder finished {flooded} games in {a.seconds:.0f} s "
        f"({flooded * 60 / a.seconds:.0f}/min); games stored after pruning {stored}; "
        f"the {VICTIMS} players' games kept {kept} of {had}, their oldest "
        f"replay opens for {replays} of {VICTIMS}; rating history points naming a pruned "
        f"game {dangling} of {points}"
    )


async def attack_kick_address(a: Attack) -> str:
    """Issue 41, item 8: the host kicks Eve for a day; a housemate behind the same
    address (never in the room) then tries to join it."""
    a.begin()
    async with (
        a.client("127.0.0.80", "Host", read=False) as host,
        a.client("127.0.0.81", "Eve", read=False) as eve,
    ):
        await expect(host, "welcome")
        eve_id = (await expect(eve, "welcome"))["player"]
        room = (await ask(host, "create-room", "joined", 1, game="gomoku"))["room"]
        await ask(eve, "join-room", "joined", 2, room=room, role="spectator")
        await host.send(frame("host", action="kick", player=eve_id, minutes=1440))
        await expect(eve, "left")
        own = await ask(eve, "join-room", "joined", 3, room=room, role="spectator")
        async with a.client("127.0.0.81", "Housemate", read=False) as mate:
            await expect(mate, "welcome")
            other = await ask(mate, "join-room", "joined", 4, room=room, role="spectator")
    return (
        f"kicked for 1440 min: Eve herself kept out {own.get('retry_after', 0):.0f} s; "
        f"a housemate at her address ({other.get('code', other['type'])}) kept out "
        f"{other.get('retry_after', 0):.0f} s"
    )


LINKED_DEVICES = 300


async def attack_devices(a: Attack) -> str:
    """Issue 41, item 6: 300 successive link codes (each new device asks for the next),
    then: how many of the 301 tokens still resume the identity (the first device's
    among them), and whether a device can be signed out."""
    a.begin()
    addresses = itertools.cycle(f"127.0.1.{n}" for n in range(1, 251))
    async with a.client("127.0.0.90", "Owner", read=False) as first:
        welcome = await expect(first, "welcome")
        owner, tokens = welcome["player"], [welcome["token"]]
        code = (await ask(first, "link-code", "link-code", 1))["code"]
    for n in range(LINKED_DEVICES):
        async with a.client(next(addresses), "Device", read=False, link=code) as device:
            welcome = await expect(device, "welcome")
            assert welcome["player"] == owner, welcome
            tokens.append(welcome["token"])
            if n + 1 < LINKED_DEVICES:
                code = (await ask(device, "link-code", "link-code", 2))["code"]
    working = []
    for token in tokens:
        async with a.client(next(addresses), "Device", read=False, token=token) as device:
            working.append((await expect(device, "welcome"))["player"] == owner)
    signed_out = "no device was left to sign out"
    live = [t for t, ok in zip(tokens, working, strict=True) if ok]
    if len(live) >= 2:
        async with a.client(next(addresses), "Device", read=False, token=live[-1]) as device:
            await expect(device, "welcome")
            listed = await ask(device, "list-devices", "devices", 3)
            if listed["type"] != "devices":
                signed_out = f"list-devices: {listed.get('code')}"
            else:
                other = next(d for d in listed["devices"] if not d.get("current"))
                done = await ask(device, "sign-out-device", "devices", 4, device=other["device"])
                signed_out = f"sign-out-device: {done.get('code', 'done')}"
        gone = 0
        for token in live[:-1]:
            async with a.client(next(addresses), "Device", read=False, token=token) as device:
                gone += (await expect(device, "welcome"))["player"] != owner
        signed_out += f", then {gone} of the {len(live) - 1} other working tokens stopped"
    return (
        f"{LINKED_DEVICES} link codes: {sum(working)} of {len(tokens)} tokens resume the "
        f"identity, the first device's {'too' if working[0] else 'no longer'}; {signed_out}"
    )


ATTACKS: dict[str, Callable[[Attack], Awaitable[str]]] = {
    "hints": attack_hints,
    "passwords": attack_passwords,
    "generation": attack_generation,
    "slow-readers": attack_slow_readers,
    "room-cap": attack_room_cap,
    "flood": attack_flood,
    "names": attack_names,
    "computers": attack_computers,
    "client-text": attack_client_text,
    "spectator-churn": attack_spectator_churn,
    "fanout": attack_fanout,
    "disk": attack_disk,
    "headers": attack_headers,
    "slow-sockets": attack_slow_sockets,
    "no-hello": attack_no_hello,
    "origin": attack_origin,
    "admin-lockout": attack_admin_lockout,
    "rebinding": attack_rebinding,
    "hello-storm": attack_hello_storm,
    "link-codes": attack_link_codes,
    "admin-frames": attack_admin_frames,
    "farming": attack_farming,
    "history-flood": attack_history_flood,
    "kick-address": attack_kick_address,
    "devices": attack_devices,
    "swarm": attack_swarm_of_fuzzers,
    "burst": attack_burst,
}


# -- running it all --------------------------------------------------------------------


def soft_nofile(limit: int) -> None:
    """Start the server with this soft open-files limit (a desktop's default is 1024;
    a server may raise it up to the hard limit itself); -1: the hard limit."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if limit > 0:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(limit, hard), hard))
    elif limit < 0:  # as many as allowed
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_listening(
    port: int, proc: subprocess.Popen[bytes] | asyncio.subprocess.Process
) -> None:
    for _ in range(200):
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def attack_only(args: argparse.Namespace) -> int:
    """Run the attacks against a server someone else started (for profiling it)."""
    port = int(args.url.rsplit(":", 1)[1].strip("/"))
    for name in args.only:
        attack = Attack(args.url, port, args.seconds)
        print(name, await ATTACKS[name](attack), flush=True)
    return 0


def quiet_socket_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """Attackers' sockets die in many ways (that is the point); only report the rest."""
    if isinstance(context.get("exception"), OSError):
        return
    loop.default_exception_handler(context)


async def run(args: argparse.Namespace) -> int:
    """Every attack on one server (the default: effects add up, as in real life), or
    each on a fresh server (``--fresh``: a before/after per attack without
    carry-over from the one before)."""
    rows: list[Row] = []
    asyncio.get_running_loop().set_exception_handler(quiet_socket_errors)
    soft_nofile(-1)  # the attackers' own sockets: up to the hard limit
    await attack_cluster.run([n for n in args.only if n in attack_cluster.CLUSTER_ATTACKS], args)
    args.only = [n for n in args.only if n not in attack_cluster.CLUSTER_ATTACKS]
    if not args.only:
        return 0
    if args.fresh:
        for name in args.only:
            rows += await session(args, [name], idle=not rows)
    else:
        rows = await session(args, args.only, idle=True)
    report(rows, args)
    return 0


async def session(args: argparse.Namespace, names: list[str], idle: bool) -> list[Row]:
    """Start a server and a probe, run ``names`` one after another, stop both."""
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    env = dict(os.environ)
    if args.server_path:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.server_path, env.get("PYTHONPATH")]))
    tmp = tempfile.TemporaryDirectory()
    needs: dict[str, Any] = {}
    for name in names:
        needs.update(SERVER_NEEDS.get(name, {}))
    if args.games_rows is not None:  # (the history-flood attack, scaled down)
        needs["games_rows"] = args.games_rows
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        str(port),
        "--db",
        f"{tmp.name}/attack.db",
        "--needs",
        json.dumps(needs),
        env=env,
        cwd=tmp.name,
        stdout=asyncio.subprocess.PIPE,
        preexec_fn=lambda: soft_nofile(args.nofile),
    )
    assert server.stdout is not None
    await wait_listening(port, server)
    probe_proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--probe", url, stdout=asyncio.subprocess.PIPE
    )
    assert probe_proc.stdout is not None
    watch = Watch(server.pid)
    tasks = [
        asyncio.create_task(watch.read_probe(probe_proc.stdout)),
        asyncio.create_task(watch.read_lag(server.stdout)),
        asyncio.create_task(watch.sample_rss()),
    ]
    rows: list[Row] = []
    try:
        for _ in range(300):  # the probe's first 30 round trips: it runs, the server is warm
            if len(watch.rtts) >= 30:
                break
            await asyncio.sleep(0.1)
        baseline = rss_mb(server.pid)
        if idle:
            rows.append(
                Row(
                    "(idle)",
                    [r for t, r in watch.rtts],
                    baseline,
                    baseline,
                    baseline,
                    "",
                    baseline=baseline,
                    lag=watch.lag(0.0, time.time()),
                )
            )
        for name in names:
            before = rss_mb(server.pid)
            start = time.time()
            cpu0, work0 = cpu_seconds(server.pid), workers_cpu_seconds(server.pid)
            wait0, own0 = cpu_wait_seconds(server.pid), time.process_time()
            attack = Attack(
                url, port, args.seconds, db=f"{tmp.name}/attack.db", pid=server.pid, watch=watch
            )
            try:
                note = await asyncio.wait_for(ATTACKS[name](attack), args.seconds + 60)
            except Exception as exc:  # report, and go on with the next attack
                note = f"attack failed: {type(exc).__name__}: {exc}"[:120]
            end = time.time()
            cpu = (cpu_seconds(server.pid) - cpu0) / (end - start)
            workers = (workers_cpu_seconds(server.pid) - work0) / (end - start)
            starved = (cpu_wait_seconds(server.pid) - wait0) / (end - start)
            attackers = (time.process_time() - own0) / (end - start)
            start = attack.started or start
            await asyncio.sleep(5.0)
            after = rss_mb(server.pid)
            peak = max((r for t, r in watch.rss if start <= t), default=after)
            rows.append(
                Row(
                    name,
                    [r for t, r in watch.rtts if start <= t <= end],
                    before,
                    peak,
                    after,
                    note,
                    stalled=watch.stalled(start, end),
                    cpu=cpu,
                    workers=workers,
                    starved=starved,
                    attackers=attackers,
                    baseline=baseline,
                    lag=watch.lag(start, end),
                )
            )
            print(f"  {name}: done ({note})", file=sys.stderr, flush=True)
    finally:
        for task in tasks:
            task.cancel()
        probe_proc.kill()
        await probe_proc.wait()
        if server.returncode is None:
            server.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(server.wait(), 15)
            except TimeoutError:
                server.kill()
                await server.wait()
        tmp.cleanup()
    return rows


def report(rows: list[Row], args: argparse.Namespace) -> None:
    load = os.getloadavg()
    print(
        f"server: {'tree ' + args.server_path if args.server_path else 'this tree'}"
        f"{', fresh for each attack' if args.fresh else ''}; "
        f"{args.seconds:.0f} s per attack; load average {load[0]:.2f} {load[1]:.2f} "
        f"{load[2]:.2f} on {os.cpu_count()} cores"
    )
    head = [
        "attack",
        "probes",
        "p50 ms",
        "p99 ms",
        "max ms",
        "loop lag p99/max",
        "RSS before",
        "peak",
        "+5 s (MB)",
        "loop CPU",
        "CPU wait",
        "workers",
        "attackers",
        "what happened",
    ]
    table = [head, *[r.cells() for r in rows]]
    widths = [max(len(row[i]) for row in table) for i in range(len(head) - 1)]
    for row in table:
        print(
            "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=False))
            )
            + "  "
            + row[-1]
        )
    print(
        f"goals: probe max <= {GOAL_MAX_MS:.0f} ms and p99 <= {GOAL_P99_MS:.0f} ms under "
        f"every attack; RSS within {GOAL_RSS_MB:.0f} MB of the baseline "
        f"(the server's RSS before the first attack) 5 s after"
    )
    for r in rows[1:]:
        met = r.max() <= GOAL_MAX_MS and r.p99() <= GOAL_P99_MS
        latency = "met" if met else "n/a" if not r.probes and not r.stalled else "MISSED"
        memory = r.after - r.baseline <= GOAL_RSS_MB
        print(
            f"  {r.name:<13} latency {latency:<7} "
            f"memory {'met' if memory else 'MISSED'} ({r.after - r.baseline:+.0f} MB)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each attack")
    parser.add_argument(
        "--only",
        default=",".join(ATTACKS),
        help="comma-separated attacks (default all single-server ones): "
        + ", ".join([*ATTACKS, *attack_cluster.CLUSTER_ATTACKS]),
    )
    parser.add_argument(
        "--server-path",
        default=None,
        help="run the server from this folder's gridhall/ (before/after)",
    )
    parser.add_argument("--probe", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--serve", metavar="PORT", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--needs", default="{}", help=argparse.SUPPRESS)
    parser.add_argument(
        "--games-rows",
        type=int,
        default=None,
        help="the server's cap on stored games (default: its own, 10,000); a smaller one "
        "scales the history-flood attack down",
    )
    parser.add_argument("--url", help="attack this running server instead (no probe, no RSS)")
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="a fresh server for each attack (no carry-over between them)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--nofile",
        type=int,
        default=1024,
        help="the server's soft open-files limit at start, as on a desktop "
        "(default 1024; 0: this shell's)",
    )
    args = parser.parse_args()
    if args.probe:
        with contextlib.suppress(KeyboardInterrupt, ConnectionClosed):
            asyncio.run(probe(args.probe))
        return
    if args.serve:
        logging.basicConfig(level=logging.ERROR)
        asyncio.run(serve(args.serve, args.db, json.loads(args.needs)))
        return
    random.seed(args.seed)
    args.only = [a.strip() for a in args.only.split(",") if a.strip()]
    unknown = [a for a in args.only if a not in ATTACKS and a not in attack_cluster.CLUSTER_ATTACKS]
    if unknown:
        parser.error(f"unknown attack(s): {', '.join(unknown)}")
    sys.exit(asyncio.run(attack_only(args) if args.url else run(args)))


if __name__ == "__main__":
    main()
