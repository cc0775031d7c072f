"""The game server's I/O layer: websockets, timers, SQLite, worker processes.

``GameServer`` owns everything that waits or touches the outside world and
nothing else: the rules of who may do what live in the pure :class:`Hub` and
its rooms, which return effects that :meth:`GameServer.execute` carries out.
Port 0 picks a free port (tests); ``port`` tells which.

Its parts: the connections and their caps here; the effects carried out in
``carrier.py`` (store writes and frames of one event-loop turn committed, then
delivered: group commit); the answers to plain HTTP requests in ``front_door.py``;
the rooms restored at start, the store's timed chores and the signals in
``upkeep.py``. On SIGTERM/SIGINT it closes connections with 1012 (service restart)
and keeps them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import socket
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sized
from typing import TYPE_CHECKING, Any, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, games

from ...core import origin
from ...core.admin_access import AdminAccess
from ...core.cluster_nodes import own_address
from ...core.config import ServerConfig
from ...core.effects import Said
from ...core.fairness import Backoff, PerAddress
from ...core.gate import Gate
from ...core.identity import Identity
from ...core.session import Link, Services, Session, Sessions
from ...core.stats import Stats
from ..admin import admin_web
from ..admin.admin_channel import AdminChannel
from ..admin.admin_status import RETENTION_KEYS, RoomActivity
from ..lan.netinfo import lan_addresses
from ..runtime.fdlimit import raise_soft_limit, socket_caps
from ..runtime.memory import release_free_memory
from ..runtime.settings_file import Settings
from ..services import leaderboards  # noqa: F401  (registers the rating queries with the service)
from ..services.analysis_service import Analyses
from ..services.history_service import HistoryService
from ..store.store_api import RoomStore
from ..workers import engines
from ..workers.computer import Computers
from ..workers.work import WorkPool
from . import front_door, hosts, upkeep, web
from .carrier import Carrier
from .clustering import Clustering, ClusterNode, SingleProcess
from .connection import Connection
from .handshake import (
    GuardedConnection,
    HandshakeGuard,
    deepen_backlog,
    forget_handshake,
    heard_from,
)

if TYPE_CHECKING:
    from ..admin.metrics import Exporter

TRIM_AFTER = 2**20
"""Bytes a dropped connection must have held for the server to hand freed memory
back to the OS (see ``server/io/runtime/memory.py``)."""

log = logging.getLogger("gridhall.server")

STOP_CUT_SHORT = "connection handlers still running"
"""What the log says when a stop gave up waiting (the test suite fails on it)."""
RESTART_CLOSE = 1012
RESTART_REASON = "server restarting; your game is kept, reconnect in a moment"
NO_HELLO_CLOSE = 1008
NO_HELLO_EVICTED = "no hello yet, and others are waiting to connect"
SERVER_HEADER = "gridhall"
"""The ``Server`` header of every HTTP answer: no versions for a stranger to look up."""
ABUSE_FORGOTTEN = 600.0
"""Quiet seconds after which an address closed for abuse starts again from the first
cool-down (``ServerConfig.abuse_cooldown``)."""
SHUTDOWN_WAIT = 15.0
"""Seconds a stop waits for the connections' handlers once every connection is told to
close (each close is itself cut after a few seconds): past it, the stop logs what is still
running and goes on, so a stuck handler can never keep the server from stopping."""
STUCK_NAMED = 20
"""Tasks a stop that gave up names in its log line (a full server runs thousands)."""


class GameServer:
    def __init__(
        self, config: ServerConfig | None = None, clustering: Clustering | None = None
    ) -> None:
        """``clustering``: how the store, the hub and a cluster node are made
        (``server/io/net/clustering.py``; the command line gives the cluster's), else a
        single process on SQLite."""
        self.config = config or ServerConfig()
        self.metrics = exporter(self) if self.config.metrics else None
        """``GET /metrics`` (server/io/admin/metrics.py), with ``--metrics`` only."""
        self.clustering = clustering or SingleProcess()
        self.store: RoomStore = self.clustering.open_store(self.config)
        self.hub = self.clustering.hub(self.config, self.store, secrets)
        self.cluster: ClusterNode | None = None
        """This node's part in a cluster (``--cluster``; ``server/cluster/``)."""
        self.hub.ratings.load(self.store.ratings.load())
        self.hub.ratings.pairs.load(self.store.ratings.pairs(time.time()), time.time())
        self.stats = Stats(time.time())
        """The running figures (admin page, ``/metrics``)."""
        self.work = WorkPool(
            self.config.ai_workers,
            self.config.max_jobs,
            self.config.quick_workers,
            self.config.max_jobs_per_address,
            stats=self.stats,
        )
        self.stats.pool = self.work
        self.queries = HistoryService(
            self.config.db,
            self.config.history_threads,
            self.config.history_waiting,
            fallback=self.store.db,
            work=self.work,
        )
        """History queries, off the event loop (``server/io/services/history_service.py``)."""
        self.computers = Computers(self.work, self.config.ai_budget)
        self.analyses = Analyses(
            self.work,
            self.queries,
            self.store.save_analysis,
            self.config.analysis_budget,
            self.config.max_analyses,
        )
        """``analyse`` requests (server/io/services/analysis_service.py)."""
        self._trim: asyncio.TimerHandle | None = None
        self.served: dict[str, web.Asset] = {}
        """This server's own answers to some paths (``/games.json`` with its engines)."""
        self.connects = PerAddress(self.config.connects_per_second, self.config.connect_burst)
        self.abusers = Backoff(
            free=0,
            base=self.config.abuse_cooldown / 2,
            cap=self.config.abuse_cooldown_cap,
            forget=ABUSE_FORGOTTEN,
        )
        """Addresses one of whose connections was closed for abuse, and how long they
        wait before connecting again (``front_door.crowded``, ``carrier.close_link``)."""
        self.sessions = Sessions()
        """The session speaking for each connected player id."""
        self.services = Services(queries=HistoryService.handles, analyses=True)
        """What sessions hand to the server's services (history queries, analyses)."""
        self.connections: set[Connection] = set()
        self.per_ip: Counter[str] = Counter()
        self.max_connections = self.config.max_connections
        """The connection cap in force (fitted to the open-files limit at start)."""
        self.unwelcomed: Gate[Connection] = Gate(
            self.config.max_unwelcomed,
            self.config.max_unwelcomed_per_address,
            idle_after=self.config.unwelcomed_idle,
            heard=_heard,
        )
        """Connections that have not said ``hello`` yet."""
        self.handshakes = HandshakeGuard(
            self.config.max_handshakes,
            self.config.max_handshakes_per_address,
            self.config.max_request_head,
            self._freed,
            self.config.handshake_grace,
        )
        self.hosts = origin.KnownHosts(hosts.own_names(self.config))
        """The names this server answers to (others get 421; ``server/core/origin.py``)."""
        self.allowed_origins = frozenset(
            o for o in map(origin.normalize, self.config.allow_origins) if o is not None
        )
        self._freed_bytes = 0
        self.carrier = Carrier(self)
        """Carries out the core's effects (``carrier.py``)."""
        self.upkeep = upkeep.Upkeep(self)
        """The store's alive mark and pruning (``upkeep.py``)."""
        self._server: Server | None = None
        self._closed = False
        self.admin = AdminAccess(self.config.admin_token, self.config.admin_from, secrets)
        """Who may open the admin page (``server/core/admin_access.py``)."""
        self.admin_channel = AdminChannel(self)
        self.activity = RoomActivity()
        """Rooms' age, moves and last activity, for the admin page."""
        self.settings: Settings | None = None
        """Where each setting came from (set by the command line's ``main``)."""
        self.admin_settings: dict[str, object] = {}
        """Settings changed from the admin page (kept in the store; they win)."""
        self.hub.bans.by_id.update((b.ban, b) for b in self.store.admin.load_bans(time.time()))
        self.apply_admin_settings(self.store.admin.settings())

    # -- lifecycle ------------------------------------------------------------
    async def start(self) -> None:
        await self._offer_engines()
        upkeep.restore(self)
        self.upkeep.start()
        caps = socket_caps(
            raise_soft_limit(),
            self.config.fd_reserve,
            self.config.max_handshakes,
            self.config.max_connections,
        )
        self.handshakes.gate.total = caps.handshakes
        self.handshakes.gate.ceiling = caps.ceiling
        self.max_connections = caps.connections
        self._server = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            compression=None,  # small frames; deflate costs latency and memory per socket
            max_size=p.MAX_FRAME,
            max_queue=16,
            ping_interval=self.config.ping_interval,
            ping_timeout=self.config.ping_timeout,
            close_timeout=5,
            process_request=functools.partial(front_door.answer, self),
            open_timeout=self.config.handshake_timeout,
            server_header=SERVER_HEADER,
            create_connection=self.handshakes.connection_class(),
        )
        deepen_backlog(self._server.sockets, self.config.listen_backlog)
        self.hub.nodes.own = own_address(self.config.host, self.port, lan_addresses)
        self.hosts.add(hosts.url_host(self.hub.nodes.own) or "")
        self.work.warm_up()
        try:
            self.cluster = await self.clustering.start(self)
        except BaseException:  # a node that cannot join stops: what it wrote at start
            await self.flushed()  # is committed first, never cut off mid-query
            raise
        log.info(
            "gridhall server %r listening on %s:%d", self.config.name, self.config.host, self.port
        )

    async def _offer_engines(self) -> None:
        """Probe the external engines (server/io/workers/engines.py) through each game's bridge;
        a game offers those that answer as computer levels."""
        if not self.config.engines:
            return
        specs = [engines.EngineSpec(name, argv) for name, argv in self.config.engines]
        described = games.to_json()
        for name, spec in list(self.hub.lobby.games.items()):
            if spec.engines is None:
                continue
            offered = await engines.probe_all(spec.engines, specs)
            self.computers.engines[name] = offered
            if offered:
                plugged = spec.with_engines(tuple(offered))
                self.hub.lobby.games[name] = plugged
                described["games"][name] = plugged.description.to_json()
                self.served["/games.json"] = web.games_json(described)

    def apply_admin_settings(self, values: dict[str, object]) -> None:
        """Run with retention settings the admin page set (already checked, or read
        back from the store: unknown keys are skipped)."""
        for key, value in values.items():
            if key in RETENTION_KEYS and isinstance(value, (int, float)):
                setattr(self.config, key, value)
                self.admin_settings[key] = value
        self.store.pruner.limits = self.config.retention()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        """Stop for a restart: close every connection with 1012 and a reason, stop
        computers and timers, keep every room in the store, close it."""
        if self._closed:
            return
        self._closed = True
        if self._server is not None:
            # no connection from now on (one let in later would never be told to close);
            # websockets' close is asked for once: it then waits for every handler
            self._server.close(close_connections=False)
        await self.carrier.flushed()  # what was sent goes out before the closes
        self.carrier.stop()
        self.upkeep.stop()
        for conn in list(self.connections):
            conn.close(RESTART_CLOSE, RESTART_REASON)
        # admin pages are not game connections: they are told here
        await asyncio.gather(
            *(ws.close(RESTART_CLOSE, "server restarting") for ws in list(self.admin_channel.open)),
            return_exceptions=True,
        )
        if self._server is not None:
            await asyncio.gather(
                *(c.wait_closed() for c in list(self.connections)), return_exceptions=True
            )
            await self._handlers_done(self._server)
        if self._trim is not None:
            self._trim.cancel()
        if self.cluster is not None:
            await self.cluster.close()
        self.computers.close()
        self.analyses.close()
        self.work.close()
        self.queries.close()
        self.store.mark_alive(time.time())
        self.store.close()
        log.info("server stopped; rooms kept for the next start")

    async def _handlers_done(self, server: Server) -> None:
        """Wait for every connection's handler to return (:data:`SHUTDOWN_WAIT` at
        most): those still open that were never game connections (one being admitted)
        are told to close first."""
        leftover = [ws.close(RESTART_CLOSE, "server restarting") for ws in server.connections]
        await asyncio.gather(*leftover, return_exceptions=True)
        try:
            await asyncio.wait_for(server.wait_closed(), SHUTDOWN_WAIT)
        except TimeoutError:
            running = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            named = "; ".join(task_chain(task) for task in running[:STUCK_NAMED])
            more = len(running) - STUCK_NAMED
            log.error(
                "stopping: %s after %g s; stopping without them. Tasks still running: %s%s",
                STOP_CUT_SHORT,
                SHUTDOWN_WAIT,
                named,
                f"; and {more} more" if more > 0 else "",
            )

    async def run_until_signalled(
        self, on_ready: Callable[[GameServer], None] | None = None
    ) -> None:
        """Serve until SIGINT or SIGTERM, then shut down cleanly (``upkeep.py``)."""
        await upkeep.run_until_signalled(self, on_ready)

    # -- connections ----------------------------------------------------------
    async def _admits(self, conn: Connection) -> bool:
        """Whether one more connection fits the caps: in all (an idle stranger's
        connection may make room), per address, and per address over the cluster."""
        if len(self.connections) >= self.max_connections:
            self._make_room(time.monotonic())
        return (
            len(self.connections) < self.max_connections
            and self.per_ip[conn.peer] < self.config.max_connections_per_ip
            and (self.cluster is None or await self.cluster.admits(conn.peer))
        )

    async def _handle(self, ws: ServerConnection) -> None:
        if ws.request is not None and admin_web.is_admin(ws.request):
            await self.admin_channel.serve(ws)
            return
        forget_handshake(ws)
        conn = Connection(ws, self.config)
        limit_kernel_buffer(ws, self.config.socket_send_buffer)
        if not await self._admits(conn):
            busy = p.encode(
                p.Error(
                    code=ErrorCode.SERVER_BUSY.value,
                    message="The server has as many players as it allows; try again later.",
                )
            )
            self.stats.frame_out(busy)
            conn.send_frame(busy)
            conn.close(1013, "server busy")
            await conn.wait_closed()
            return
        admitted, evicted = self.unwelcomed.enter(conn, conn.peer, time.monotonic())
        if evicted is not None:
            evicted.close(NO_HELLO_CLOSE, NO_HELLO_EVICTED)
        if not admitted:
            conn.close(1013, "too many connections from your address have not said hello")
            await conn.wait_closed()
            return
        self.connections.add(conn)
        self.stats.connection_opened()
        self.per_ip[conn.peer] += 1
        session = Session(self, conn, time.time())
        no_hello = asyncio.get_running_loop().call_later(
            self.config.hello_timeout, self._no_hello, conn
        )
        reader = _Reader(self, conn, session, no_hello)
        try:
            await self._read(ws, reader)
        finally:
            if isinstance(ws, GuardedConnection):
                ws.on_frame = None
            no_hello.cancel()
            self._forget(conn, session)
            if not self._closed:
                self.execute(session.closed(time.time()), session)
            if conn.closed:
                await conn.wait_closed()
            else:
                await conn.drain()
            if conn.released >= TRIM_AFTER:
                self._trim_soon()
            conn.detach()
            session.link = _GONE

    async def _read(self, ws: ServerConnection, reader: _Reader) -> None:
        """Hand a game connection's frames to its session until it closes: most from the
        socket's reads themselves (``GuardedConnection.on_frame``), the rest (a burst's
        later frames, text, fragments; every frame on a cluster node, which may relay
        them) by this task, one frame per turn of the loop."""
        conn, session = reader.conn, reader.session
        waiting = _received_frames(ws)
        if isinstance(ws, GuardedConnection):
            ws.on_frame = reader.direct
        try:
            async for frame in ws:
                if conn.closed:
                    break
                reader.busy = True  # (the cluster may wait: no frame goes past this one)
                try:
                    if self.cluster is None or not await self.cluster.intercept(session, frame):
                        reader.take(frame)  # (else relayed: server/cluster/)
                    elif not reader.welcomed:
                        reader.check_welcomed()
                finally:
                    reader.busy = False
                if conn.closed:
                    break
                if waiting is None or waiting:
                    # one frame at a time: other connections go before this one's next
                    # (with nothing more received, the next read waits anyway)
                    await asyncio.sleep(0)
        except ConnectionClosed:
            pass

    def _forget(self, conn: Connection, session: Session) -> None:
        """A connection ended: it no longer counts against any cap (the cluster's too)."""
        self.unwelcomed.leave(conn)
        self.connections.discard(conn)
        self.stats.connection_closed()
        self.per_ip[conn.peer] -= 1
        if self.per_ip[conn.peer] <= 0:
            del self.per_ip[conn.peer]
        if self.cluster is not None:
            self.cluster.left(conn.peer)
            self.cluster.gone(session)

    # -- carrying out what the core said (carrier.py) ---------------------------
    def execute(self, effects: Iterable[Said], session: Session | None = None) -> None:
        """Carry out the core's effects (:meth:`Carrier.execute`)."""
        self.carrier.execute(effects, session)

    def bind(self, ident: Identity, session: Session) -> None:
        self.carrier.bind(ident, session)

    def reply(self, link: Link, frame: bytes) -> None:
        """A frame for one connection (an error, a refusal), in order with the rest."""
        self.carrier.reply(link, frame)

    def close_link(self, link: Link, code: int, reason: str) -> None:
        self.carrier.close_link(link, code, reason)

    def _flush(self) -> None:
        """Commit what this turn stored, then deliver what it sent, now."""
        self.carrier.flush()

    async def flushed(self) -> None:
        """This turn's writes committed and its frames sent (:meth:`Carrier.flushed`)."""
        await self.carrier.flushed()

    def _make_room(self, now: float) -> None:
        """All connections are taken: one that has sent nothing for a while (since its
        handshake) goes, so silent sockets never keep a new player out."""
        evicted = self.unwelcomed.evict_idle(now)
        if evicted is not None:
            evicted.close(NO_HELLO_CLOSE, NO_HELLO_EVICTED)
            self.connections.discard(evicted)  # its place is the newcomer's now

    def _no_hello(self, conn: Connection) -> None:
        if self.unwelcomed.leave(conn):
            conn.close(NO_HELLO_CLOSE, f"no valid hello within {self.config.hello_timeout:g} s")

    def _freed(self, size: int) -> None:
        """A socket dropped before its handshake had sent ``size`` bytes: trim once
        such drops add up to :data:`TRIM_AFTER`."""
        self._freed_bytes += size
        if self._freed_bytes >= TRIM_AFTER:
            self._freed_bytes = 0
            self._trim_soon()

    def _trim_soon(self) -> None:
        """Hand freed memory back to the OS shortly (once for a burst of drops)."""
        if self._trim is None and not self._closed:
            self._trim = asyncio.get_running_loop().call_later(0.5, self._trim_now)

    def _trim_now(self) -> None:
        self._trim = None
        release_free_memory()


class MetricsUnavailable(RuntimeError):
    """``--metrics`` was asked for without ``prometheus-client`` installed."""


def exporter(server: GameServer) -> Exporter:
    """The server's ``/metrics`` (imports ``prometheus-client``, only needed then)."""
    try:
        from ..admin.metrics import Exporter
    except ImportError as exc:
        raise MetricsUnavailable(
            "--metrics needs the prometheus-client package: pip install "
            '"gridhall[metrics]" (or leave --metrics out)'
        ) from exc
    return Exporter(server)


def _heard(conn: Connection) -> bool:
    """A connection waiting for ``hello`` that has sent something (see the gate)."""
    return conn.ws is not None and heard_from(conn.ws)


def _received_frames(ws: ServerConnection) -> Sized | None:
    """The frames websockets has received from ``ws`` and not yet handed out (None if
    this version of websockets does not say)."""
    frames = getattr(getattr(ws, "recv_messages", None), "frames", None)
    return frames if isinstance(frames, Sized) else None


def limit_kernel_buffer(ws: ServerConnection, size: int) -> None:
    """Cap the kernel's send buffer for this socket: without it, Linux grows it to
    several MB for a peer that does not read, memory the send-queue limit does not
    see and copying the loop pays for."""
    sock = ws.transport.get_extra_info("socket") if ws.transport is not None else None
    if sock is not None and size > 0:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)


class _Reader:
    """A game connection's frames, handed to its session: by the handler task, or
    straight from the socket's ``data_received`` (``GuardedConnection.on_frame``)."""

    __slots__ = ("busy", "conn", "no_hello", "server", "session", "welcomed")

    def __init__(
        self, server: GameServer, conn: Connection, session: Session, no_hello: asyncio.TimerHandle
    ) -> None:
        self.server = server
        self.conn = conn
        self.session = session
        self.no_hello = no_hello
        self.welcomed = False
        self.busy = False
        """The handler task is handing on a frame (a cluster node's may wait for Redis):
        later frames queue behind it."""

    def take(self, frame: bytes | str) -> None:
        session = self.session  # straight to the carrier (``GameServer.execute``): every frame
        self.server.carrier.execute(
            session.receive(frame, time.time(), time.perf_counter()), session
        )
        if not self.welcomed:
            self.check_welcomed()

    def direct(self, frame: bytes) -> bool:
        """A frame from ``data_received``: ignored once the connection is closing (as
        the handler task stops reading then). On a cluster node, taken here only when
        it is surely this node's to handle (its player is in a room here, and no earlier
        frame is still on its way): False leaves it to the handler task, which asks the
        relay (a frame that may wait for Redis)."""
        if self.conn.closed or self.server._closed:
            return True
        cluster = self.server.cluster
        if cluster is not None and (self.busy or not cluster.local(self.session)):
            return False
        try:
            self.take(frame)
        except Exception:  # never into the transport's callback: it would cut the socket
            log.exception("could not handle a frame from %s", self.conn.peer)
        if self.conn.closed and self.conn.ws is not None:
            cast(GuardedConnection, self.conn.ws).wake_reader()  # it stops reading now
        return True

    def check_welcomed(self) -> None:
        if self.session.identity is not None:
            self.welcomed = True  # past hello: this connection waits no more
            self.server.unwelcomed.leave(self.conn)
            self.no_hello.cancel()


class _Gone:
    """The link of a session whose connection is over (nothing refers back to it)."""

    peer = "?"
    closed = True

    def send_frame(self, frame: bytes) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass


_GONE = _Gone()


def task_chain(task: asyncio.Task[object]) -> str:
    """A task's name and the chain of awaits it is suspended in, innermost last, each
    as function (file:line): what a stuck stop names."""
    chain: list[str] = []
    step: Any = task.get_coro()
    while step is not None:
        frame = getattr(step, "cr_frame", None) or getattr(step, "gi_frame", None)
        if frame is None:
            break
        code = frame.f_code
        chain.append(f"{code.co_name} ({code.co_filename.rsplit('/', 1)[-1]}:{frame.f_lineno})")
        step = getattr(step, "cr_await", None) or getattr(step, "gi_yieldfrom", None)
    return f"{task.get_name()}: {' > '.join(chain[-4:])}"
