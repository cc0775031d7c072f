"""Soak: a swarm of clients that checks every request is answered and every event arrives.

Starts gridhall's server (default settings, its own process, loopback only) and
client processes, each running many clients from their own loopback addresses
(127.0.x.y, ``--per-address`` clients each). Every client plays a realistic mix for
``--seconds``: it lists the lobby, creates and joins rooms of all three games (Gomoku,
some against the computer; co-op Minesweeper; Link-match races), renames and
recolours itself, chats, moves, offers draws and take-backs and answers them, asks
for play-again, leaves, and drops its connection and comes back with its token and
``since``. Every request carries an ``id``.

What it checks, per client:

- every request is answered exactly as PROTOCOL.md says: a frame with ``re`` equal to
  its id (``error``, ``welcome``, ``rooms``, ``joined``, ``left``, ``state``,
  ``profile``), or, for requests the room answers with an event, that event from the
  sender (``moved.by``, ``chat.from``, ``player-info.player`` ...; ``start`` by the
  room's new ``state``). A request still unanswered ``--late`` seconds after it was sent
  is reported at once, with its type and the frames around it; the ones still open when
  the run has ended and ``--drain`` seconds have passed are the "unanswered". Events
  answer the oldest open request of their kind, so a missing answer may be counted
  against a later request of the same kind (``start`` and ``agree-again`` share the new
  game's ``state``); the count is exact;
- every room event reaches every member: a member's ``seq`` goes up by exactly one per
  event from the ``joined`` that let it in (or the ``welcome`` that resumed it) to its
  ``left``; a jump is a lost broadcast, a step back a reordered one.

Requests cut short by a connection the *server* closed are counted apart (with the close
codes): a closed connection is an answer the protocol allows. Clients close their own
connections only with nothing outstanding.

    nice -n 10 .venv/bin/python bench/soak.py --seconds 120 --clients 160
    nice -n 10 .venv/bin/python bench/soak.py --seconds 600 --clients 240 --procs 2

It prints frames sent and received, frames/s, requests by type, unanswered, late,
lost and reordered events, server-closed connections, and exits 1 if any request
went unanswered or any event was lost. ``--server-path DIR`` runs another tree's
server (before/after); ``--url`` soaks a server someone else started.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing as mp
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parent.parent

BY_EVENT = {
    "move": ("moved", "by"),
    "chat": ("chat", "from"),
    "player-info": ("player-info", "player"),
    "resign": ("resigned", "player"),
    "play-again": ("play-again", "from"),
    "agree-again": ("agree-again", "from"),
    "decline-again": ("decline-again", "from"),
    "offer": ("offer", "from"),
    "answer": ("answer", "from"),
}
"""Requests a room answers with an event from the sender (no ``re``): type -> (event, field)."""
BY_STATE = ("start", "agree-again")
"""Requests a new game's ``state`` event answers (a started race; the last agreement)."""
EVENT_OF = {event: (request, who) for request, (event, who) in BY_EVENT.items()}
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("gomoku", {}),
    ("gomoku", {}),
    ("gomoku", {"ai": "easy"}),
    ("minesweeper", {"preset": "beginner"}),
    ("minesweeper", {"width": 16, "height": 16, "mines": 30}),
    ("linkmatch", {"width": 8, "height": 6, "countdown": 0, "time_limit": 120}),
]
COLORS = ("teal", "red", "gold", "navy", "#336699", "violet")
CHAT = ("gl hf", "nice", "hmm", "one more?", "ok", "wp")


def encode(data: dict[str, Any]) -> bytes:
    return msgpack.packb(data)  # type: ignore[no-any-return]


class RunOver(Exception):
    """The run ended while a client waited for room in its window of open requests."""


class Bot:
    """One client: its connection, what it believes about its room, its open requests."""

    def __init__(
        self,
        n: int,
        address: str,
        port: int,
        until: float,
        args: argparse.Namespace,
        counts: Counter[str],
    ) -> None:
        self.n = n
        self.address = address
        self.port = port
        self.until = until
        self.args = args
        self.c = counts
        self.rng = random.Random(args.seed * 100_003 + n)
        self.ws: ClientConnection | None = None
        self.token: str | None = None
        self.me = ""
        self.next_id = 0
        self.open: dict[int, tuple[str, float]] = {}
        self.sent_at: dict[int, int] = {}
        """Request id -> its number in ``recent``."""
        """Request id -> (type, when sent) for every request not yet answered."""
        self.fifo: dict[str, deque[int]] = {}
        """Per request type answered by an event: its open ids, oldest first."""
        self.answered = asyncio.Event()
        self.room: str | None = None
        self.seq: int | None = None
        self.game = ""
        self.status = ""
        self.role = ""
        self.creator = ""
        self.turn: str | None = None
        self.taken: set[tuple[int, int]] = set()
        self.size = 15
        self.pending_offer: dict[str, Any] | None = None
        self.again: list[str] = []
        self.hint: list[list[int]] | None = None
        self.rooms: list[dict[str, Any]] = []
        self.width = self.height = 9
        self.late_seen: set[int] = set()
        self.recent: deque[tuple[int, Any]] = deque(maxlen=300)
        """What this client sent and got lately (numbered), printed around a late request."""
        self.counter = 0

    # -- sending ------------------------------------------------------------------
    async def request(self, type_: str, **fields: Any) -> None:
        """Send one request with a fresh id, keeping at most ``--window`` open."""
        while len(self.open) >= self.args.window:  # (unanswered ones may keep it full)
            self.answered.clear()
            left = self.until - time.time()
            if left <= 0:
                raise RunOver
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.answered.wait(), left)
        assert self.ws is not None
        self.next_id += 1
        rid = self.next_id
        self.open[rid] = (type_, time.monotonic())
        if type_ in BY_EVENT or type_ in BY_STATE:
            self.fifo.setdefault(type_, deque()).append(rid)
        await self.ws.send(encode({"type": type_, "id": rid, **fields}))
        self.note((">", type_, rid, fields))
        self.sent_at[rid] = self.counter
        self.c["sent"] += 1
        self.c["sent " + type_] += 1

    def note(self, what: Any) -> None:
        self.counter += 1
        self.recent.append((self.counter, what))

    def _answer(self, rid: int) -> None:
        self.sent_at.pop(rid, None)
        entry = self.open.pop(rid, None)
        if entry is None:
            return
        type_, sent = entry
        queue = self.fifo.get(type_)
        if queue is not None:
            with contextlib.suppress(ValueError):
                queue.remove(rid)
        wait = time.monotonic() - sent
        if wait > self.c["max wait ms"] / 1000:
            self.c["max wait ms"] = int(wait * 1000)
        self.answered.set()

    def _answer_oldest(self, *types: str) -> None:
        oldest = [q[0] for t in types if (q := self.fifo.get(t))]
        if oldest:
            self._answer(min(oldest))

    # -- receiving ----------------------------------------------------------------
    async def read(self, ws: ClientConnection) -> None:
        async for data in ws:
            self.c["received"] += 1
            msg = msgpack.unpackb(data)
            try:
                self.on_message(msg)
            except (KeyError, TypeError, ValueError) as exc:  # this client's bug: say so
                self.c[f"client could not read {msg.get('type')}: {exc!r}"] += 1

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        re = msg.get("re")
        self.note(msg)  # formatted only if a request is late
        if kind == "error":
            self.c["error " + str(msg.get("code"))] += 1
        if isinstance(re, int) and re in self.open:
            if kind == "state" and self.open[re][0] == "sync":
                # syncs sent while one waited for the whole-room limit fold into one
                # answer, which carries the latest's id (PROTOCOL.md, "sync")
                for folded in [r for r, (t, _) in self.open.items() if t == "sync" and r < re]:
                    self.c["syncs folded"] += 1
                    self._answer(folded)
            self._answer(re)
        elif kind in EVENT_OF:
            request, who = EVENT_OF[kind]
            if msg.get(who) == self.me:
                self._answer_oldest(request)
        if "room" in msg and "seq" in msg and kind != "error":
            self.on_room_message(msg)
        if kind == "welcome":
            self.me, self.token = msg["player"], msg["token"]
        elif kind == "rooms":
            self.rooms = msg["rooms"]

    def on_room_message(self, msg: dict[str, Any]) -> None:
        kind, seq, re = msg["type"], msg["seq"], msg.get("re")
        mine = re is not None
        if kind == "joined" and mine:
            self.room, self.seq, self.role = msg["room"], seq, msg["role"]
            self.again, self.pending_offer = [], None
            return
        if msg["room"] != self.room:
            self.c["events of another room"] += 1
            return
        if kind == "state" and self.seq is not None and seq == self.seq:
            self.take_state(msg)  # a snapshot: repeats the current seq
            return
        self.count_seq(kind, seq)
        self.fold(kind, msg, mine, re)

    def count_seq(self, kind: str, seq: int) -> None:
        """Count a gap or a reordering in the room's event numbers (there should be none)."""
        if self.seq is None:
            if kind != "state":
                self.c["resumed without a state"] += 1
        elif seq > self.seq + 1:
            self.c["lost events"] += seq - self.seq - 1
            self.c["rooms with a gap"] += 1
        elif seq <= self.seq:
            self.c["reordered events"] += 1
        self.seq = seq

    def fold(self, kind: str, msg: dict[str, Any], mine: bool, re: Any) -> None:
        """Keep what the bot plays by from one of its room's events."""
        if kind == "state":
            self.take_state(msg)
            if not mine:
                self._answer_oldest(*BY_STATE)
        elif kind == "moved":
            self.take_view(msg.get("view") or {})
            self.turn = msg.get("turn")
            move = msg.get("move") or {}
            if self.game == "gomoku" and "x" in move:
                self.taken.add((move["x"], move["y"]))
        elif kind == "left" and (mine or msg.get("player") == self.me):
            self.room = self.seq = None
            self.orphan(re if isinstance(re, int) else self.next_id + 1)
        elif kind == "left" and msg.get("player") == self.creator:
            self.creator = ""
        elif kind == "game-over":
            self.status = "over"
        elif kind == "offer":
            self.pending_offer = {"kind": msg["kind"], "from": msg["from"]}
        elif kind == "answer":
            self.pending_offer = None
        elif kind in ("play-again", "agree-again"):
            self.again.append(msg["from"])
        elif kind == "decline-again":
            self.again = []

    def orphan(self, before: int) -> None:
        """Out of the room: events can no longer answer requests sent before ``before``
        (an ``error`` with their ``re`` still can; else they count as unanswered)."""
        for queue in self.fifo.values():
            while queue and queue[0] < before:
                queue.popleft()

    def take_state(self, msg: dict[str, Any]) -> None:
        self.game, self.status = msg["game"], msg["status"]
        self.turn, self.creator = msg.get("turn"), msg.get("creator", "")
        self.again = list(msg.get("pending_again") or [])
        self.role = "player" if any(p["player"] == self.me for p in msg["players"]) else "spectator"
        view = msg.get("view") or {}
        self.taken = {(x, y) for x, y in view.get("moves", [])}
        self.pending_offer = view.get("pending")
        self.take_view(view)

    def take_view(self, view: dict[str, Any]) -> None:
        self.size = view.get("size", self.size)
        self.width = view.get("width", self.width)
        self.height = view.get("height", self.height)
        self.hint = view.get("hint")

    # -- the mix ------------------------------------------------------------------
    async def act(self) -> None:
        """One step of a player's life, chosen from where it is."""
        r = self.rng.random()
        if self.room is None:
            if r < 0.25:
                await self.request("list-rooms")
            elif r < 0.5:
                game, options = self.rng.choice(GAMES)
                await self.request("create-room", game=game, options=options)
            elif r < 0.85:
                await self.join()
            elif r < 0.95:
                await self.request(
                    "player-info",
                    name=f"Bot {self.n}-{self.rng.randrange(99)}",
                    color=self.rng.choice(COLORS),
                )
            else:
                await self.request("chat", text="anyone?")  # not in a room: not-in-room
            return
        if r < 0.02:
            await self.request("leave-room")
        elif r < 0.07:
            await self.request("chat", text=self.rng.choice(CHAT))
        elif r < 0.09:
            await self.request("player-info", color=self.rng.choice(COLORS))
        elif r < 0.10:
            await self.request("sync")
        elif self.role == "spectator":
            if r < 0.3:
                await self.request("leave-room")
        elif self.status == "over" or (self.status == "waiting" and self.game == "linkmatch"):
            await self.between_games(r)
        elif self.status == "playing":
            await self.play(r)

    async def join(self) -> None:
        open_rooms = [
            r for r in self.rooms if r["status"] == "waiting" and len(r["players"]) < r["seats"]
        ] or self.rooms
        if not open_rooms:
            await self.request("list-rooms")
            return
        room = self.rng.choice(open_rooms)
        role = "spectator" if self.rng.random() < 0.2 else "player"
        await self.request("join-room", room=room["room"], role=role)

    async def between_games(self, r: float) -> None:
        if self.game == "linkmatch" and (self.creator == self.me or self.status == "waiting"):
            if self.creator == self.me and r < 0.3:  # then wait a little for the race
                await self.request("start")
        elif not self.again:
            await self.request("play-again")
        elif self.me not in self.again or r < 0.3:  # now and then a second click
            await self.request("agree-again")
        elif r < 0.4:
            await self.request("decline-again")
        elif r < 0.6:
            await self.request("leave-room")

    async def play(self, r: float) -> None:
        offer = self.pending_offer
        if offer is not None and offer.get("from") != self.me and r < 0.8:
            await self.request("answer", kind=offer["kind"], accept=self.rng.random() < 0.5)
        elif self.game == "gomoku":
            if r < 0.03:
                await self.request("offer", kind=self.rng.choice(("draw", "takeback")))
            elif r < 0.035:
                await self.request("resign")
            elif self.turn == self.me or r < 0.15:  # out of turn now and then
                cell = self.free_cell()
                await self.request("move", move={"x": cell[0], "y": cell[1]})
        elif self.game == "minesweeper":
            x, y = self.rng.randrange(self.width), self.rng.randrange(self.height)
            if r < 0.2:
                await self.request(
                    "move",
                    move={
                        "action": "mark",
                        "x": x,
                        "y": y,
                        "mark": self.rng.choice(("flag", "none")),
                    },
                )
            else:
                await self.request("move", move={"action": "reveal", "x": x, "y": y})
        elif self.game == "linkmatch":
            if self.hint and r < 0.9:
                a, b = self.hint
                self.hint = None
                await self.request("move", move={"action": "link", "a": a, "b": b})
            else:
                await self.request("move", move={"action": "hint"})

    def free_cell(self) -> tuple[int, int]:
        for _ in range(50):
            cell = (self.rng.randrange(self.size), self.rng.randrange(self.size))
            if cell not in self.taken:
                return cell
        return (0, 0)

    # -- a connection's life ------------------------------------------------------
    async def live(self) -> None:
        """Connect, act at ``--rate`` a second, now and then drop and come back."""
        while time.time() < self.until:
            try:
                await self.session()
            except (ConnectionClosed, InvalidStatus, OSError, TimeoutError) as exc:
                self.c[f"connection lost: {type(exc).__name__}"] += 1
                await asyncio.sleep(0.5)

    async def session(self) -> None:
        sock = socket.socket()
        sock.bind((self.address, 0))
        sock.setblocking(False)
        await asyncio.wait_for(
            asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port)), 10
        )
        ws = await connect(
            f"ws://127.0.0.1:{self.port}/",
            sock=sock,
            compression=None,
            max_size=None,
            max_queue=None,
            open_timeout=30,
            close_timeout=2,
        )
        self.ws = ws
        reader = asyncio.create_task(self.read(ws))
        resume = self.token is not None and self.room is not None
        try:
            hello: dict[str, Any] = {"protocol": 1, "name": f"Bot {self.n}"}
            if self.token is not None:
                hello["token"] = self.token
                if self.seq is not None:
                    hello["since"] = self.seq
            self.seq = None  # the first room message after hello sets it
            await self.request("hello", **hello)
            await self.request("list-rooms")  # after its answer, any resume has arrived
            await self.settle()
            if self.seq is None:  # no room came back (a spectator's seat is not kept)
                self.room = None
            elif resume:
                self.c["resumed into a room"] += 1
            step = 1.0 / self.args.rate
            next_at = time.monotonic()
            with contextlib.suppress(RunOver):
                while time.time() < self.until:
                    if self.rng.random() < self.args.reconnect:
                        await self.settle()
                        if self.rng.random() < 0.5:
                            ws.transport.abort()  # a dropped network, not a goodbye
                        else:
                            await ws.close()
                        self.c["reconnects"] += 1
                        return
                    await self.act()
                    self.check_late()
                    next_at += step * self.rng.uniform(0.5, 1.5)
                    await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            await self.settle(self.args.drain)
            await ws.close()
        except ConnectionClosed as exc:
            if exc.rcvd is not None:  # the server closed it: what was open is cut short
                self.c[f"closed by the server {exc.rcvd.code}"] += 1
                self.c["cut by a close"] += len(self.open)
                self.forget_open()
            raise
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
                await reader
            if reader.done() and not reader.cancelled() and reader.exception() is not None:
                exc2 = reader.exception()
                if isinstance(exc2, ConnectionClosed) and exc2.rcvd is not None:
                    self.c["cut by a close"] += len(self.open)
                    self.forget_open()
            if self.open and time.time() >= self.until:
                self.report_unanswered()
            self.forget_open()

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every open request is answered (or ``timeout``: ``--late``)."""
        end = time.monotonic() + (timeout if timeout is not None else self.args.late)
        while self.open and time.monotonic() < end:
            self.answered.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.answered.wait(), max(0.01, end - time.monotonic()))
        self.check_late()

    def check_late(self) -> None:
        now = time.monotonic()
        for rid, (type_, sent) in list(self.open.items()):
            if now - sent > self.args.late and rid not in self.late_seen:
                self.late_seen.add(rid)
                self.c["late " + type_] += 1
                print(
                    f"client {self.n} ({self.address}): {type_} id {rid} unanswered after "
                    f"{now - sent:.0f} s (room {self.room}, {self.game} {self.status}); "
                    f"me {self.me}; around it:\n  "
                    + "\n  ".join(
                        describe(what)
                        for n, what in self.recent
                        if -15 <= n - self.sent_at.get(rid, 0) <= 40
                    ),
                    file=sys.stderr,
                    flush=True,
                )

    def report_unanswered(self) -> None:
        for rid, (type_, _) in self.open.items():
            self.c["unanswered"] += 1
            self.c["unanswered " + type_] += 1
            print(f"client {self.n}: {type_} id {rid} never answered", file=sys.stderr, flush=True)

    def forget_open(self) -> None:
        self.open.clear()
        self.sent_at.clear()
        self.fifo.clear()
        self.answered.set()


def describe(what: Any) -> str:
    """One line of a client's recent history: a request sent, or a message received."""
    if isinstance(what, tuple):
        return "> " + " ".join(map(str, what[1:]))
    who = what.get("from") or what.get("by") or what.get("player")
    return (
        f"< {what.get('type')} room={what.get('room')} seq={what.get('seq')} "
        f"re={what.get('re')} code={what.get('code')} from={who} "
        f"status={what.get('status')}"
    )


# -- processes -------------------------------------------------------------------------


def address(n: int, per_address: int) -> str:
    """Client ``n``'s loopback address: ``per_address`` clients share one."""
    a = n // per_address + 2
    return f"127.0.{a // 250}.{a % 250 + 2}"


async def swarm(
    port: int, first: int, count: int, until: float, args: argparse.Namespace
) -> Counter[str]:
    counts: Counter[str] = Counter()
    bots = [
        Bot(n, address(n, args.per_address), port, until, args, counts)
        for n in range(first, first + count)
    ]

    async def start(bot: Bot, delay: float) -> None:
        await asyncio.sleep(delay)
        await bot.live()

    await asyncio.gather(*(start(b, i * 0.02) for i, b in enumerate(bots)))
    return counts


def client_process(
    port: int, first: int, count: int, until: float, args: argparse.Namespace, out: Any
) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:  # clients on uvloop when it is there: more frames per core for the same swarm
        import uvloop
    except ImportError:
        counts = asyncio.run(swarm(port, first, count, until, args))
    else:
        counts = uvloop.run(swarm(port, first, count, until, args))
    out.send(dict(counts))


def serve(port: int, db: str, loop: str) -> None:
    """The server with its default settings (run as this file with ``--serve``), on the
    event loop ``gridhall-server --loop`` would pick (uvloop when installed)."""
    from gridhall.server.core.config import ServerConfig
    from gridhall.server.io.net.app import GameServer

    async def main() -> None:
        server = GameServer(ServerConfig(host="127.0.0.1", port=port, db=db))
        await server.start()
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        await stop.wait()
        await server.close()

    try:
        from gridhall.server.io.runtime import loops
    except ImportError:  # an older tree (--server-path) without the choice
        asyncio.run(main())
    else:
        loops.run(main(), loops.choose(loop))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int) -> None:
    for _ in range(300):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.1)
    raise RuntimeError("the server did not start")


def run(args: argparse.Namespace) -> int:
    tmp = tempfile.TemporaryDirectory()
    server: subprocess.Popen[bytes] | None = None
    if args.url:
        port = int(args.url.rsplit(":", 1)[1].strip("/"))
    else:
        port = free_port()
        env = dict(os.environ)
        if args.server_path:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [args.server_path, env.get("PYTHONPATH")])
            )
        server = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--serve",
                str(port),
                "--db",
                f"{tmp.name}/soak.db",
                "--loop",
                args.loop,
            ],
            env=env,
            cwd=tmp.name,
        )
        wait_listening(port)
    start = time.time()
    until = start + args.seconds
    ctx = mp.get_context("spawn")
    procs = []
    share = [
        args.clients // args.procs + (i < args.clients % args.procs) for i in range(args.procs)
    ]
    first = 0
    for count in share:
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=client_process, args=(port, first, count, until, args, send))
        proc.start()
        send.close()  # the child's copy is the only one: its end reads as EOF here
        procs.append((proc, recv))
        first += count
    total: Counter[str] = Counter()
    server_cpu = 0.0
    try:
        for proc, recv in procs:
            try:
                part: dict[str, int] = recv.recv()
            except EOFError:  # the client process failed (its traceback is on stderr)
                part = {"client processes that failed": 1}
            for k, v in part.items():
                total[k] = max(total[k], v) if k == "max wait ms" else total[k] + v
            proc.join()
        if server is not None:
            server_cpu = cpu_seconds(server.pid)
    finally:
        if server is not None:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        tmp.cleanup()
    clients_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    total["server cpu ms"] = int(server_cpu * 1000)
    total["clients cpu ms"] = int((clients_cpu.ru_utime + clients_cpu.ru_stime) * 1000)
    return report(total, time.time() - start, args)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (its main process, not workers)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def report(c: Counter[str], elapsed: float, args: argparse.Namespace) -> int:
    load = os.getloadavg()
    print(
        f"soak: {args.clients} clients in {args.procs} processes, {args.per_address} per "
        f"address, {args.rate:g} requests/s each, {args.seconds:.0f} s "
        f"({elapsed:.0f} s with the drain); server: "
        f"{'tree ' + args.server_path if args.server_path else args.url or 'this tree'}"
        f"{'' if args.url else ', loop ' + args.loop}; "
        f"load average {load[0]:.2f} on {os.cpu_count()} cores"
    )
    sent, received = c["sent"], c["received"]
    print(
        f"frames sent {sent:,} ({sent / args.seconds:,.0f}/s), received {received:,} "
        f"({received / args.seconds:,.0f}/s), together {sent + received:,}"
    )
    kinds = sorted((k[5:], v) for k, v in c.items() if k.startswith("sent "))
    print("requests: " + ", ".join(f"{k} {v:,}" for k, v in kinds))
    errors = sorted(
        ((k[6:], v) for k, v in c.items() if k.startswith("error ")), key=lambda kv: -kv[1]
    )
    print("errors (answers): " + ", ".join(f"{k} {v:,}" for k, v in errors))
    closes = {k: v for k, v in c.items() if k.startswith(("closed by", "connection lost"))}
    print(
        f"reconnects {c['reconnects']:,}; server closes and lost connections: "
        f"{closes or 'none'}; requests cut by a server close {c['cut by a close']}"
    )
    print(
        f"longest wait for an answer {c['max wait ms'] / 1000:.1f} s; CPU: server "
        f"{c['server cpu ms'] / 1000 / elapsed:.0%} of a core, clients "
        f"{c['clients cpu ms'] / 1000 / elapsed:.0%}"
        + (
            f" ({c['server cpu ms'] / max(1, sent):.2f} ms of server CPU per frame sent)"
            if c["server cpu ms"]
            else ""
        )
    )
    unanswered = {k: v for k, v in c.items() if k.startswith("unanswered ")}
    late = {k: v for k, v in c.items() if k.startswith("late ")}
    print(
        f"UNANSWERED {c['unanswered']} {unanswered or ''}; late (> {args.late:g} s) "
        f"{sum(late.values())} {late or ''}"
    )
    print(
        f"LOST EVENTS {c['lost events']} (in {c['rooms with a gap']} gaps); reordered "
        f"{c['reordered events']}; events of another room {c['events of another room']}; "
        f"resumes into a room {c['resumed into a room']}"
    )
    odd = {k: v for k, v in c.items() if k.startswith("client could not")}
    if odd:
        print(f"this client's own failures: {odd}")
    if c["client processes that failed"]:
        print(
            f"CLIENT PROCESSES THAT FAILED {c['client processes that failed']} (their counts "
            "are missing above)"
        )
    bad = (
        c["unanswered"]
        + c["lost events"]
        + c["reordered events"]
        + sum(late.values())
        + c["client processes that failed"]
    )
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long clients play")
    parser.add_argument("--clients", type=int, default=160)
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--per-address", type=int, default=2, help="clients sharing one loopback address"
    )
    parser.add_argument("--rate", type=float, default=8.0, help="requests/s per client")
    parser.add_argument(
        "--window", type=int, default=3, help="requests a client may have open at once"
    )
    parser.add_argument(
        "--reconnect",
        type=float,
        default=0.003,
        help="chance per step that a client drops and comes back",
    )
    parser.add_argument(
        "--late", type=float, default=30.0, help="seconds after which an open request is reported"
    )
    parser.add_argument(
        "--drain", type=float, default=15.0, help="seconds to wait for the last answers at the end"
    )
    parser.add_argument(
        "--server-path",
        default=None,
        help="run the server from this folder's gridhall/ (before/after)",
    )
    parser.add_argument(
        "--url",
        default=None,
        help="soak a server already running on this machine (only the port "
        "is used: clients always connect to 127.0.0.1)",
    )
    parser.add_argument(
        "--loop",
        default="auto",
        choices=("auto", "asyncio", "uvloop"),
        help="the server's event loop, as gridhall-server --loop",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.db, args.loop)
        return
    sys.exit(run(args))


if __name__ == "__main__":
    main()
