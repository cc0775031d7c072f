"""The game server's I/O layer: websockets, timers, SQLite, worker processes.

``GameServer`` owns everything that waits or touches the outside world and
nothing else: the rules of who may do what live in the pure :class:`Hub` and
its rooms, which return effects that :meth:`GameServer.execute` carries out.
Port 0 picks a free port (tests); ``port`` tells which.

Effects are carried out in two steps: store effects and outgoing frames of one
event-loop turn are collected; at the end of the turn the store effects are
committed in one transaction and only then are the frames delivered, in order
(group commit: durable before it is broadcast, one commit however busy).
On start the server restores the rooms its store holds; on SIGTERM/SIGINT it
closes connections with 1012 (service restart) and keeps them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import signal
import socket
import time
from collections import Counter
from collections.abc import Callable, Sized
from http import HTTPStatus
from typing import TYPE_CHECKING, cast

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, games

from ..core import origin
from ..core.admin_access import AdminAccess
from ..core.bans import refusal
from ..core.cluster_nodes import own_address
from ..core.config import ServerConfig
from ..core.effects import STORED, DropRoom, Effect, Send, Stored, Think, Wake, Work
from ..core.fairness import PerAddress
from ..core.gate import Gate
from ..core.identity import Identity
from ..core.scheduler import Owner
from ..core.session import Link, Session, Sessions
from ..core.stats import Stats
from ..games.base import JSON
from ..games.gomoku.spec import GomokuSpec
from ..games.jobs import BUSY
from . import (
    admin_web,
    engines,
    hosts,
    leaderboards,  # noqa: F401  (registers the rating queries with the service)
    web,
)
from .admin_channel import AdminChannel
from .admin_status import RETENTION_KEYS, RoomActivity
from .analysis_service import Analyses
from .clustering import Clustering, ClusterNode, SingleProcess
from .computer import Computers
from .connection import Connection
from .fdlimit import raise_soft_limit, socket_caps
from .handshake import (
    GuardedConnection,
    HandshakeGuard,
    deepen_backlog,
    forget_handshake,
    heard_from,
)
from .history_service import HistoryService
from .job_runner import run_job
from .memory import release_free_memory
from .netinfo import lan_addresses
from .settings_file import Settings
from .store_api import RoomStore
from .work import WorkPool

if TYPE_CHECKING:
    from .metrics import Exporter

TRIM_AFTER = 2**20
"""Bytes a dropped connection must have held for the server to hand freed memory
back to the OS (see ``server/io/memory.py``)."""

log = logging.getLogger("gridhall.server")

RESTART_CLOSE = 1012
RESTART_REASON = "server restarting; your game is kept, reconnect in a moment"
NO_HELLO_CLOSE = 1008
NO_HELLO_EVICTED = "no hello yet, and others are waiting to connect"
SERVER_HEADER = "gridhall"
"""The ``Server`` header of every HTTP answer: no versions for a stranger to look up."""
ALIVE_EVERY = 2.0
"""Seconds between the store's "still running" marks (the downtime a restart skips)."""
PRUNE_EVERY = 5.0
PRUNE_AGAIN = 0.05
"""Seconds between the store's pruning batches (server/io/retention.py): every few
seconds, and soon again while one batch was not enough."""


class GameServer:
    def __init__(
        self, config: ServerConfig | None = None, clustering: Clustering | None = None
    ) -> None:
        """``clustering``: how the store, the hub and a cluster node are made
        (``server/io/clustering.py``; the command line gives the cluster's), else a
        single process on SQLite."""
        self.config = config or ServerConfig()
        self.metrics = exporter(self) if self.config.metrics else None
        """``GET /metrics`` (server/io/metrics.py), with ``--metrics`` only."""
        self.clustering = clustering or SingleProcess()
        self.store: RoomStore = self.clustering.open_store(self.config)
        self.hub = self.clustering.hub(self.config, self.store)
        self.cluster: ClusterNode | None = None
        """This node's part in a cluster (``--cluster``; ``server/cluster/``)."""
        self.hub.ratings.load(self.store.ratings.load())
        self.hub.ratings.pairs.load(self.store.ratings.pairs(time.time()), time.time())
        self.stats = Stats()
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
        """History queries, off the event loop (``server/io/history_service.py``)."""
        self.computers = Computers(self.work, self.config.ai_budget)
        self.analyses = Analyses(
            self.work,
            self.queries,
            self.store.save_analysis,
            self.config.analysis_budget,
            self.config.max_analyses,
        )
        """``analyse`` requests (server/io/analysis_service.py)."""
        self._trim: asyncio.TimerHandle | None = None
        self.served: dict[str, web.Asset] = {}
        """This server's own answers to some paths (``/games.json`` with its engines)."""
        self.connects = PerAddress(self.config.connects_per_second, self.config.connect_burst)
        self.sessions = Sessions()
        """The session speaking for each connected player id."""
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
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._pending_store: list[Stored] = []
        self._pending_frames: list[tuple[bytes, list[Link]]] = []
        """Each frame of this turn with the connections it goes to, in order."""
        self._flush_handle: asyncio.Handle | None = None
        self._alive: asyncio.TimerHandle | None = None
        self._prune_timer: asyncio.TimerHandle | None = None
        self._server: Server | None = None
        self._closed = False
        self.admin = AdminAccess(self.config.admin_token, self.config.admin_from)
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
        self._restore()
        self._mark_alive()
        self._prune()
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
            process_request=self._http,
            open_timeout=self.config.handshake_timeout,
            server_header=SERVER_HEADER,
            create_connection=self.handshakes.connection_class(),
        )
        deepen_backlog(self._server.sockets, self.config.listen_backlog)
        self.hub.nodes.own = own_address(self.config.host, self.port, lan_addresses)
        self.hosts.add(hosts.url_host(self.hub.nodes.own) or "")
        self.work.warm_up()
        self.cluster = await self.clustering.start(self)
        log.info(
            "gridhall server %r listening on %s:%d", self.config.name, self.config.host, self.port
        )

    async def _offer_engines(self) -> None:
        """Probe the external engines (server/io/engines.py); offer those that answer."""
        if not self.config.engines:
            return
        offered = await engines.probe_all(
            engines.EngineSpec(name, argv) for name, argv in self.config.engines
        )
        self.computers.engines = offered
        if offered:
            spec = GomokuSpec(tuple(offered))
            self.hub.lobby.games["gomoku"] = spec
            described = games.to_json()
            described["games"]["gomoku"] = spec.description.to_json()
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

    def _restore(self) -> None:
        identities, rooms = self.store.load_live()
        quarantined = self.store.quarantined()
        if not identities and not rooms and not quarantined:
            return
        now = time.time()
        down_since = self.store.alive_at() or now
        self.activity.restored(rooms, now)
        links = (self.store.links.tokens(), self.store.links.codes(now))
        devices = self.store.links.devices()
        self.execute(
            self.hub.restore(identities, rooms, now, down_since, links, devices, quarantined)
        )
        self._flush()
        for q in quarantined:  # set aside at an earlier start: not tried again
            log.warning(
                "room %s stays set aside (%s); see gridhall-server rooms --quarantined",
                q.code,
                q.reason,
                extra={"room": q.code},
            )

    def _mark_alive(self) -> None:
        self._alive = None
        if self._closed:
            return
        try:
            self.store.mark_alive(time.time())
        except Exception:
            log.exception("could not write to the store")
        self._alive = asyncio.get_running_loop().call_later(ALIVE_EVERY, self._mark_alive)

    def _prune(self) -> None:
        """One small batch of history past the retention limits, then the next."""
        self._prune_timer = None
        if self._closed:
            return
        more = False
        try:
            more = self.store.prune(time.time())
        except Exception:
            log.exception("could not prune the store")
        self._prune_timer = asyncio.get_running_loop().call_later(
            PRUNE_AGAIN if more else PRUNE_EVERY, self._prune
        )

    async def close(self) -> None:
        """Stop for a restart: close every connection with 1012 and a reason, stop
        computers and timers, keep every room in the store, close it."""
        if self._closed:
            return
        self._flush()
        self._closed = True
        if self._alive is not None:
            self._alive.cancel()
        if self._prune_timer is not None:
            self._prune_timer.cancel()
        for conn in list(self.connections):
            conn.close(RESTART_CLOSE, RESTART_REASON)
        # admin pages are not game connections: websockets closes only the first time
        # it is asked to, so they are told here, or the close waits on them
        await asyncio.gather(
            *(ws.close(RESTART_CLOSE, "server restarting") for ws in list(self.admin_channel.open)),
            return_exceptions=True,
        )
        if self._server is not None:
            self._server.close(close_connections=False)
            await asyncio.gather(
                *(c.wait_closed() for c in list(self.connections)), return_exceptions=True
            )
            self._server.close(close_connections=True)
            await self._server.wait_closed()
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
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

    async def run_until_signalled(
        self, on_ready: Callable[[GameServer], None] | None = None
    ) -> None:
        """Serve until SIGINT or SIGTERM, then shut down cleanly. The signals are the
        server's from before it starts: a Ctrl-C while it starts (probing engines,
        joining a cluster) ends the start, never with a traceback."""
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        starting = asyncio.ensure_future(self.start())
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait((starting, stopping), return_when=asyncio.FIRST_COMPLETED)
            if starting.done():
                starting.result()  # its error, if it failed (e.g. the port is taken)
            else:
                starting.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await starting
            if not stopping.done():
                if on_ready is not None:
                    on_ready(self)
                await stopping
        finally:
            stopping.cancel()
        log.info("signal received: closing connections")
        await self.close()

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """First of all, a request naming a host this server is not known by gets 421
        (DNS rebinding; :mod:`~gridhall.server.core.origin`). Then ``GET /healthz``
        answers 200 for health checks; a plain GET gets the browser client's files
        (:mod:`.web`); WebSocket upgrades go on to the game, unless they come from
        another site's page (403) or the address opens connections too fast (429 with
        Retry-After). A banned address gets 403 with the ban's end and reason;
        ``/admin`` is the admin page and channel, for allowed peers only (others: 404,
        or 403 at the upgrade; see ``server/io/admin_web.py``)."""
        misdirected = hosts.misdirected(connection, request, self.hosts)
        if misdirected is not None:
            return misdirected
        method = getattr(request, "method", "GET")
        peer = _peer(connection)
        admin = admin_web.is_admin(request)
        if admin:
            allowed = self.admin.peer_allowed(peer)
            page = admin_web.respond(request, allowed)
            if page is not None:
                return page
            if not allowed:
                return connection.respond(HTTPStatus.FORBIDDEN, "forbidden\n")
        else:
            ban = self.hub.bans.address(peer, time.time())
            if ban is not None:
                return connection.respond(HTTPStatus.FORBIDDEN, refusal(ban) + "\n")
        if self.metrics is not None and request.path.split("?", 1)[0] == "/metrics":
            return self.metrics.respond(request, peer)
        if request.path == "/healthz" and method in web.ALLOWED_METHODS:
            health = connection.respond(HTTPStatus.OK, "ok\n")
            return web.headers_only(health) if method == "HEAD" else health
        page = web.respond(request, self.served, self.hub.nodes.addresses())
        if page is not None:
            return page
        if not origin.allowed(
            request.headers.get("Origin"),
            request.headers.get("Host"),
            self.allowed_origins | self.hub.nodes.origins(),
        ):
            return connection.respond(HTTPStatus.FORBIDDEN, origin.REFUSAL)
        if admin:  # the admin channel bounds its own sockets (server/io/admin_channel.py)
            return None
        return self._crowded(connection, peer)

    def _crowded(self, connection: ServerConnection, peer: str) -> Response | None:
        """429 for an address with too many connections not yet past hello, or opening
        them too fast; None lets the upgrade go on."""
        if self.unwelcomed.by_address[peer] >= self.unwelcomed.per_address:
            response = connection.respond(
                HTTPStatus.TOO_MANY_REQUESTS,
                "Too many connections from your address have not "
                "said hello yet; retry in a few seconds.\n",
            )
            response.headers["Retry-After"] = str(math.ceil(self.config.hello_timeout))
            return response
        wait = self.connects.take(peer, time.time())
        if wait > 0:
            response = connection.respond(
                HTTPStatus.TOO_MANY_REQUESTS,
                f"Too many connections from your address; retry after {wait:.1f} s.\n",
            )
            response.headers["Retry-After"] = str(math.ceil(wait))
            return response
        return None

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
                session.closed(time.time())
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
        if self.cluster is None and isinstance(ws, GuardedConnection):
            ws.on_frame = reader.direct
        try:
            async for frame in ws:
                if conn.closed:
                    break
                if self.cluster is None or not await self.cluster.intercept(session, frame):
                    reader.take(frame)  # (else relayed: server/cluster/)
                elif not reader.welcomed:
                    reader.check_welcomed()
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

    # -- what sessions ask of the server (SessionHost) ---------------------------
    def bind(self, ident: Identity, session: Session) -> None:
        older = self.sessions.get(ident.id)
        if older is not None and older is not session:
            self._flush()  # what this turn sent the older connection goes before its close
        self.sessions.bind(ident, session)

    def unbind(self, ident: Identity, session: Session) -> bool:
        return self.sessions.unbind(ident, session)

    def execute(self, effects: list[Effect]) -> None:
        """Carry out the core's effects: timers and computers at once; store writes
        and frames at the end of this event-loop turn, writes first."""
        if self._closed:
            return
        for effect in effects:
            if isinstance(effect, Send):
                sessions = self.sessions
                links = [s.link for pid in effect.to if (s := sessions.get(pid)) is not None]
                if links:
                    self._pending_frames.append((effect.frame, links))
            elif isinstance(effect, Wake):
                self._arm(effect)
            elif isinstance(effect, Think):
                self.computers.schedule(effect, self._computer_answered)
            elif isinstance(effect, Work):
                self._run_work(effect)
            elif isinstance(effect, STORED):
                self._pending_store.append(effect)
                self.activity.stored(effect)
                if isinstance(effect, DropRoom):
                    self.work.forget_room(effect.room)
        self._schedule_flush()

    def reply(self, link: Link, frame: bytes) -> None:
        """A frame for one connection (an error, a refusal), in order with the rest."""
        self._pending_frames.append((frame, [link]))
        self._schedule_flush()

    def close_link(self, link: Link, code: int, reason: str) -> None:
        self._flush()
        link.close(code, reason)

    def call_later(self, delay: float, callback: Callable[[float], None]) -> None:
        """A session's deferred ``sync`` (see ``Session.defer_sync``)."""

        def fire() -> None:
            if not self._closed:
                callback(time.time())

        if not self._closed:
            asyncio.get_running_loop().call_later(delay, fire)

    def _schedule_flush(self) -> None:
        if self._flush_handle is None and (self._pending_frames or self._pending_store):
            self._flush_handle = asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        """Commit what this turn stored, then deliver what it sent."""
        self._flush_handle = None
        stored, self._pending_store = self._pending_store, []
        frames, self._pending_frames = self._pending_frames, []
        stats = self.stats
        if stored:
            began = time.perf_counter()
            try:
                self.store.write(stored)
            except Exception:  # the game goes on for the players even if the disk does not
                log.exception("could not write %d changes to the store", len(stored))
            else:
                stats.commit(time.perf_counter() - began)
        for frame, links in frames:
            stats.frame_out(frame, len(links))
            for link in links:
                try:
                    link.send_frame(frame)
                except Exception:  # one failing socket must not cost the others their frames
                    log.exception("could not send to %s; closing that connection", link.peer)
                    with contextlib.suppress(Exception):
                        link.close(1011, "the server could not send to this connection")
        if frames:
            stats.delivered(time.perf_counter())

    def _arm(self, wake: Wake) -> None:
        timer = self._timers.pop(wake.key, None)
        if timer is not None:
            timer.cancel()
        if wake.at is not None and not self._closed:
            delay = max(0.0, wake.at - time.time()) + 0.001  # never a hair early
            self._timers[wake.key] = asyncio.get_running_loop().call_later(
                delay, self._woken, wake.key
            )

    def _woken(self, key: str) -> None:
        self._timers.pop(key, None)
        if not self._closed:
            self.execute(self.hub.wake(key, time.time()))

    def _computer_answered(self, job: Think, move: JSON) -> None:
        if not self._closed:
            self.execute(self.hub.computer_move(job, move, time.time()))

    def _run_work(self, work: Work) -> None:
        """Run a room's job in the pool as a quick job charged to whoever asked; one
        refused (its address past its share) is answered ``busy`` after the current
        effects, so the order of sends is kept, or later if pushed out of the queue."""

        def done(answer: JSON) -> None:
            self._work_answered(work, answer)

        def failed(exc: BaseException) -> None:
            log.error(
                "room %s: a %s job failed: %r",
                work.room,
                work.job.kind,
                exc,
                extra={"room": work.room},
            )
            self._work_answered(work, {"error": "failed"})

        def busy() -> None:
            self._work_answered(work, BUSY)

        owner = Owner(work.address or "room:" + work.room, work.room)
        if not self.work.submit(
            run_job,
            work.job,
            owner=owner,
            key=("work", work.room),
            done=done,
            failed=failed,
            busy=busy,
            kind=work.job.kind,
        ):
            asyncio.get_running_loop().call_soon(busy)

    def _work_answered(self, work: Work, answer: JSON) -> None:
        if not self._closed:
            self.execute(self.hub.work_done(work.room, work.ticket, answer, time.time()))

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
        from .metrics import Exporter
    except ImportError as exc:
        raise MetricsUnavailable(
            "--metrics needs the prometheus-client package: pip install "
            '"gridhall[metrics]" (or leave --metrics out)'
        ) from exc
    return Exporter(server)


def _peer(connection: ServerConnection) -> str:
    return str(connection.remote_address[0]) if connection.remote_address else "?"


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

    __slots__ = ("conn", "no_hello", "server", "session", "welcomed")

    def __init__(
        self, server: GameServer, conn: Connection, session: Session, no_hello: asyncio.TimerHandle
    ) -> None:
        self.server = server
        self.conn = conn
        self.session = session
        self.no_hello = no_hello
        self.welcomed = False

    def take(self, frame: bytes | str) -> None:
        self.session.receive(frame, time.time())
        if not self.welcomed:
            self.check_welcomed()

    def direct(self, frame: bytes) -> None:
        """A frame from ``data_received``: ignored once the connection is closing (as
        the handler task stops reading then)."""
        if self.conn.closed or self.server._closed:
            return
        try:
            self.take(frame)
        except Exception:  # never into the transport's callback: it would cut the socket
            log.exception("could not handle a frame from %s", self.conn.peer)
        if self.conn.closed and self.conn.ws is not None:
            cast(GuardedConnection, self.conn.ws).wake_reader()  # it stops reading now

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
