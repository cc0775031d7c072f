"""Players on one node, their room on another: the session relayed over Redis streams.

A client may connect to any node. When it joins a room another node owns (or resumes
by token into one), the node it reached (the *edge*) says ``hello`` for it itself, as
always, and from then on forwards each of its frames, untouched, to the room's owner on
the owner's stream ``gridhall:relay:{owner}:in`` (each message names its room); the
owner runs an ordinary
:class:`~gridhall.server.core.session.Session` for it whose link writes frames back on
the edge's own stream ``gridhall:relay:{edge}:out``, and the edge hands them to the
client. So every rule, limit
and view is the owner's, decided once, and frames still leave the owner only after its
commit. Each message carries ``s``, a per-player sequence number: a gap (a message
lost, Redis restarted) closes the client's connection with 1012, and the client's
reconnect resumes with ``since``, the existing resync path for anything missed. When
the room's owner changes (a takeover: the edge's beat sees the lease move, or the old
owner says it let the room go), the edge follows the room to its new owner for its
relayed clients, who hear its state there without reconnecting.

The edge applies the session's own limits to every frame before it goes on
(:meth:`Session.admit`: the rate, the codec, bad frames; and no frame larger than
:data:`RELAY_FRAME`), so what a client may put on Redis is what it may ask of a local
session. Messages are signed with the cluster secret and bounded in bytes, waiting and
in Redis (:mod:`.streams`); the owner reads a connection's messages in sequence (a
gap closes it, 1012) and takes an ``open`` only while it is fresh, so a message
written by hand on a stream, or an old one written again, speaks for nobody.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from redis.exceptions import RedisError

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.i18n import gettext as _

from ..core.session import Session
from ..io.runtime.tasks import stop_task
from .lease import PREFIX, owner_key
from .lease import as_text as _text
from .moving import wait_for_owner
from .signing import Part
from .streams import Share, StreamReader, StreamWriter

if TYPE_CHECKING:
    from ..core.room import Room
    from .service import ClusterService

log = logging.getLogger("gridhall.cluster.relay")

MOVED_CLOSE = 1012
MOVED_REASON = "your room moved to another server node; reconnect to resume"
BUSY_CLOSE = 1013
RELAY_FRAME = 4096
"""The largest client frame relayed to another node (bytes): twice the largest valid
message a room takes (a 500-character chat line is at most 2,000 bytes of UTF-8)."""
OPEN_WINDOW_MS = 120_000
"""How old an ``open`` may be when the owner reads it (an older one is a replay)."""
PLAYER_TTL_MS = 24 * 3600 * 1000
MAX_HELD = 64
"""Frames a relayed client may send while its room is being taken over (held, then
sent on to the new owner); past that it is closed (1012) to reconnect."""


def in_key(node: str) -> str:
    """The stream of everything edges send to ``node`` for the rooms it owns (each
    message names its room): one per node, read as one."""
    return f"{PREFIX}relay:{node}:in"


def out_key(node: str) -> str:
    """The stream of everything owners send to ``node``'s relayed clients: one per
    node, not per room, so a node reads two streams in all (a stream per room, owned
    or relayed for, had every read name them all, hundreds, for a message or two)."""
    return f"{PREFIX}relay:{node}:out"


def player_key(pid: str) -> str:
    """Which room a player is in (the owner writes it): a node the player reaches
    after a failover finds the room through it."""
    return f"{PREFIX}player:{pid}"


@dataclass
class Proxy:
    """At the edge: one client whose session runs on the room's owner."""

    session: Session
    pid: str
    room: str
    owner: str
    conn: str
    """This connection's name in the messages (a reconnect is another one)."""
    expected: int = 0
    """The next ``s`` from the owner."""
    sent: int = 0
    share: Share = field(default_factory=Share)
    """What this client has waiting for Redis."""


def busy_reason() -> str:
    """Why a relayed client is closed when its messages pile up (Redis too slow)."""
    return _("this server node could not pass your messages on in time; reconnect to resume")


@dataclass(eq=False)
class RemoteLink:
    """At the owner: the link of a session whose client is connected to another node."""

    relay: Relay
    room: str
    pid: str
    edge: str
    peer: str
    conn: str
    closed: bool = False
    sent: int = 0
    received: int = 1
    """The next ``s`` from the edge (its ``open`` was 0)."""
    share: Share = field(default_factory=Share)
    """What this session has waiting for Redis."""
    session: Session | None = field(default=None, repr=False)

    def send_frame(self, frame: bytes) -> None:
        if not self.closed:
            self.relay.out(self, {"k": "frame", "d": frame})

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.relay.out(self, {"k": "close", "c": code, "r": reason})
            self.closed = True

    def moved(self, reason: str) -> None:
        """The room left this node (another owns it now): the edge follows it to its new
        owner for the client, who hears its state and is not closed. (``m`` marks it; an
        edge from before it closes the client, 1012, to reconnect, as it always did.)"""
        if not self.closed:
            self.relay.out(self, {"k": "close", "c": MOVED_CLOSE, "r": reason, "m": 1})
            self.closed = True


class Relay:
    """Both halves of the relay for one node (see the module docstring)."""

    def __init__(self, service: ClusterService) -> None:
        self.service = service
        self.server = service.server
        self.redis: Any = service.redis
        self.node = service.node
        self.proxies: dict[Session, Proxy] = {}
        """Edge: relayed clients, by their local session."""
        self.by_conn: dict[str, Session] = {}
        """Edge: the same, by their connection's name in the messages (each frame
        from an owner finds its client at once)."""
        self.remote: dict[tuple[str, str], RemoteLink] = {}
        """Owner: (room, player) -> the link of the session run here for it."""
        self.writer = StreamWriter(
            self.redis, service.signer, service.server.config.send_queue_bytes, self._lost_all
        )
        self.reader = StreamReader(
            self.redis, service.signer, self.node, self._wanted, self._handle
        )
        self._tasks: list[asyncio.Task[None]] = []
        self._conns = 0
        self._nonce = secrets.token_hex(4)
        """Names this process's connections (a restarted node never repeats one)."""
        self.moving: dict[Session, list[bytes]] = {}
        """Edge: relayed clients whose room is being taken over, with what they sent
        meanwhile (:meth:`_follow`)."""
        self._following: set[asyncio.Task[None]] = set()
        self._landing: dict[str, list[dict[bytes, Any]]] = {}
        """Owner: rooms being taken over here, with what edges sent them meanwhile."""

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.reader.run()), loop.create_task(self.writer.run())]

    async def close(self) -> None:
        for task in [*self._tasks, *self._following]:
            task.cancel()
        for task in self._tasks:
            await stop_task(task)  # (cancelled again if a cancel was lost)

    # -- the edge ---------------------------------------------------------------
    async def intercept(self, session: Session, frame: bytes | str) -> bool:
        """Called for every frame a client sends this node: True if the relay took it
        (forwarded to the room's owner, or a hello handled and relayed)."""
        proxy = self.proxies.get(session)
        if proxy is not None:
            data = self._passes(session, frame)
            if data is not None:
                await self._forward(session, proxy, data)
            return True
        held = self.moving.get(session)
        if held is not None:  # its room is being taken over: held until it lands
            data = self._passes(session, frame)
            if data is not None and len(held) >= MAX_HELD:
                session.link.close(MOVED_CLOSE, MOVED_REASON)
            elif data is not None:
                held.append(data)
            return True
        if (
            not isinstance(frame, bytes)
            or not self.service.available
            or (session.identity is not None and session.identity.room is not None)
        ):
            return False  # (a player in a room here joins nothing: no need to look)
        kind, fields = _peek(frame)
        if session.identity is None:
            if kind != "hello" or not fields.get("token"):
                return False
            self.server.execute(session.receive(frame, time.time()), session)  # as always
            ident = session.identity
            if ident is not None and ident.room is None:
                await self._resume_elsewhere(session, ident.id, fields.get("since"))
            return True
        if (
            kind == "join-room"
            and isinstance(fields.get("room"), str)
            and session.identity.room is None
        ):
            code = fields["room"].strip().upper()
            if code in self.server.hub.lobby.rooms or not 0 < len(code) <= 16:
                return False
            try:  # private rooms are not listed: the lease says who owns it
                owner = await self.redis.get(owner_key(code))
                if (
                    owner is None
                    or _text(owner) == self.node
                    or session.link.closed
                    or session.identity is None
                    or session.identity.room is not None
                ):
                    return False
                if self._passes(session, frame) is None:
                    return True
                await self._open(session, code, _text(owner), None)
            except (RedisError, OSError):
                return False  # the hub answers (cluster-unavailable)
            self._send_in(self.proxies[session], {"k": "frame", "d": frame})
            return True
        return False

    def local(self, session: Session) -> bool:
        """True when :meth:`intercept` would leave ``session``'s frame here without a look
        (its player in a room here): the server may hand it over from the socket's read."""
        ident = session.identity
        held = session in self.proxies or session in self.moving
        return ident is not None and ident.room is not None and not held

    def _passes(self, session: Session, frame: bytes | str) -> bytes | None:
        """A frame to relay if it is within the session's limits, applied here by the
        session's own code (the client is told if not), and small enough; else None."""
        msg, said = session.admit(frame, time.time(), hold_sync=False)
        self.server.execute(said, session)
        if msg is None or not isinstance(frame, bytes):  # (the codec takes bytes only)
            return None
        if len(frame) > RELAY_FRAME:
            refusal = ProtocolError(
                ErrorCode.BAD_MESSAGE,
                _(
                    "This message is larger than {limit} bytes, the most a message to a "
                    "room on another server node may be; it was not handled.",
                    limit=RELAY_FRAME,
                ),
                getattr(msg, "id", None),
            )
            self.server.execute(session.refused(refusal), session)
            return None
        return frame

    async def _forward(self, session: Session, proxy: Proxy, frame: bytes) -> None:
        """Send a client's frame on to its room's owner; while too much of this
        client's waits for Redis, first wait (its socket is not read meanwhile)."""
        if self.writer.full(proxy.share):
            await self.writer.room(proxy.share)
            if session.link.closed:
                return
            held = self.moving.get(session)
            if held is not None:  # its room moved meanwhile
                held.append(frame)
                return
            if self.proxies.get(session) is not proxy:
                return
        self._send_in(proxy, {"k": "frame", "d": frame})

    async def _resume_elsewhere(self, session: Session, pid: str, since: Any) -> None:
        """A player said hello here whose room is on another node: relay to it. A room
        in the middle of a takeover (no lease, or its owner dead) is waited for
        (:mod:`.moving`): back in the seat here or relayed to the new owner, else the
        client is closed (1012) to reconnect."""
        try:
            room = await self.redis.get(player_key(pid))
            if room is None:
                return
            code = _text(room)
            if code in self.server.hub.lobby.rooms:
                return
            held = await self.redis.get(owner_key(code))
            owner = None if held is None else _text(held)  # (a node id: text, as the beat's)
            if owner is None or not await self.service.registry.is_alive(owner):
                owner = await wait_for_owner(self.service, session, code)
            if owner is None or owner == self.node or session.link.closed:
                return
            await self.server.flushed()  # this node's welcome goes first
            if session.link.closed:
                return
            await self._open(session, code, owner, since if isinstance(since, int) else None)
        except (RedisError, OSError):
            return

    async def _open(self, session: Session, room: str, owner: str, since: int | None) -> None:
        assert session.identity is not None
        await self.reader.watch(out_key(self.node))
        self._conns += 1
        conn = f"{self.node}:{self._nonce}:{self._conns}"
        proxy = Proxy(session, session.identity.id, room, owner, conn)
        self._unproxy(session)
        self.proxies[session] = proxy
        self.by_conn[conn] = session
        self._send_in(
            proxy,
            {
                "k": "open",
                "a": session.link.peer,
                "since": -1 if since is None else since,
                "deltas": int(session.identity.deltas),
                "t": int(time.time() * 1000),
            },
        )

    def _send_in(self, proxy: Proxy, fields: dict[str, Part], guard: str | None = None) -> None:
        fields.update(p=proxy.pid, n=self.node, i=proxy.conn, s=proxy.sent, r=proxy.room)
        proxy.sent += 1
        self.writer.add(in_key(proxy.owner), fields, proxy.share, guard)

    def gone(self, session: Session) -> None:
        """A relayed client's connection ended: the owner's session for it ends too."""
        self.moving.pop(session, None)
        proxy = self._unproxy(session)
        if proxy is not None:  # (a room closed meanwhile reads nothing: no stream again)
            self._send_in(proxy, {"k": "close"}, guard=owner_key(proxy.room))

    def check_owners(self, owners: dict[str, str | None]) -> None:
        """Rooms whose owner changed (``owners``: room -> owning node now): their
        relayed clients follow the room to its new owner (:meth:`_follow`)."""
        for session, proxy in list(self.proxies.items()):
            if proxy.room in owners and owners[proxy.room] != proxy.owner:
                self._send_in(proxy, {"k": "close"})  # (if the old owner still runs)
                self._move(session, proxy)

    def _move(self, session: Session, proxy: Proxy, leaving: str | None = None) -> None:
        """``session`` follows its room (:meth:`_follow`) past ``leaving``, if given."""
        self._unproxy(session)
        self.moving[session] = []
        task = asyncio.get_running_loop().create_task(self._follow(session, proxy.room, leaving))
        self._following.add(task)
        task.add_done_callback(self._following.discard)

    async def _follow(self, session: Session, room: str, leaving: str | None = None) -> None:
        """Wait for ``room``'s takeover, then relay ``session`` to the new owner (or,
        taken over here, the adoption seated it); what the client sent meanwhile
        follows. Closed (1012) to reconnect if the room did not land in time."""
        try:
            owner = await wait_for_owner(self.service, session, room, leaving)
            if owner is None and not session.link.closed:
                session.link.close(MOVED_CLOSE, MOVED_REASON)
            elif owner is not None and owner != self.node and not session.link.closed:
                await self._open(session, room, owner, None)
        except (RedisError, OSError):
            session.link.close(MOVED_CLOSE, MOVED_REASON)
        finally:
            held = self.moving.pop(session, [])
            proxy = self.proxies.get(session)
            for frame in held:
                if session.link.closed:
                    break
                if proxy is not None:
                    self._send_in(proxy, {"k": "frame", "d": frame})
                else:
                    said = session.receive(frame, time.time(), time.perf_counter())
                    self.server.execute(said, session)

    def _drop(self, session: Session, code: int, reason: str) -> None:
        self._unproxy(session)
        session.link.close(code, reason)

    def _unproxy(self, session: Session) -> Proxy | None:
        """``session`` is relayed no more (its proxy, if it had one)."""
        proxy = self.proxies.pop(session, None)
        if proxy is not None and self.by_conn.get(proxy.conn) is session:
            del self.by_conn[proxy.conn]
        return proxy

    def proxied_rooms(self) -> set[str]:
        return {proxy.room for proxy in self.proxies.values()}

    def _deliver(self, fields: dict[bytes, Any]) -> None:
        session = self.by_conn.get(_text(fields.get(b"i", b"")))
        proxy = self.proxies.get(session) if session is not None else None
        if session is None or proxy is None:
            return
        owner = fields.get(b"o")
        if owner is not None and _text(owner) != proxy.owner:
            return  # a node that owned the room before and has not yet learnt it lost it
        seq = int(fields.get(b"s", -1))
        if seq != proxy.expected:
            log.warning(
                "relay: lost frames for %s (got %d, wanted %d); resyncing",
                proxy.pid,
                seq,
                proxy.expected,
            )
            self._drop(session, MOVED_CLOSE, MOVED_REASON)
            return
        proxy.expected += 1
        if _text(fields.get(b"k", b"")) != "close":
            session.link.send_frame(bytes(fields.get(b"d", b"")))
        elif b"m" in fields:
            self._move(session, proxy, leaving=proxy.owner)  # (it let the room go)
        else:
            self._drop(session, int(fields.get(b"c", 1000)), _text(fields.get(b"r", b"")))

    # -- the owner --------------------------------------------------------------
    def out(self, link: RemoteLink, fields: dict[str, Part]) -> None:
        """A message for a relayed client; a frame while too much of its waits for
        Redis closes it instead (1013: it reconnects and resyncs)."""
        if fields["k"] == "frame" and self.writer.full(link.share):
            log.warning("relay: %s's messages are not leaving fast enough; closing it", link.pid)
            link.close(BUSY_CLOSE, busy_reason())
            asyncio.get_running_loop().call_soon(self._end, link, time.time())
            return
        fields.update(p=link.pid, n=link.edge, i=link.conn, s=link.sent, o=self.node)
        link.sent += 1
        self.writer.add(out_key(link.edge), fields, link.share)

    def landing(self, room: str) -> None:
        """``room`` is being taken over here: what edges send it (an ``open`` from a
        player who saw the new lease) waits until it is replayed (:meth:`landed`)."""
        self._landing.setdefault(room, [])

    def landed(self, room: str) -> None:
        """The takeover of ``room`` is over: what waited is handled now, in order (and
        dropped if the room did not land here)."""
        for fields in self._landing.pop(room, []):
            self._arrived(room, fields)

    def _arrived(self, room: str, fields: dict[bytes, Any]) -> None:
        waiting = self._landing.get(room)
        if waiting is not None:
            if len(waiting) < MAX_HELD:
                waiting.append(fields)
            return
        if room not in self.service.store.epochs:
            return  # (a room this node does not own, or no longer: not its to answer)
        kind = _text(fields.get(b"k", b""))
        pid = _text(fields.get(b"p", b""))
        conn = _text(fields.get(b"i", b""))
        seq = int(fields.get(b"s", -1))
        now = time.time()
        link = self.remote.get((room, pid))
        if kind == "open":
            if seq != 0 or abs(now * 1000 - int(fields.get(b"t", 0))) > OPEN_WINDOW_MS:
                log.warning("relay: an out-of-date open for %s in %s; ignored", pid, room)
                return  # (written again: a fresh open is read within moments)
            if link is not None and link.session is not None:
                self._end(link, now)
            self._attach(room, pid, conn, fields, now)
            return
        if link is None or link.session is None or link.conn != conn or seq < link.received:
            return  # an older connection's (the player reconnected since), or written again
        if seq > link.received:
            log.warning("relay: lost messages from %s (got %d, wanted %d)", pid, seq, link.received)
            link.close(MOVED_CLOSE, MOVED_REASON)  # it reconnects and resyncs
            self._end(link, now)
            return
        link.received += 1
        if kind == "frame":
            said = link.session.receive(bytes(fields.get(b"d", b"")), now, time.perf_counter())
            self.server.execute(said, link.session)
            if link.closed:
                self._end(link, now)
        elif kind == "close":
            link.closed = True
            self._end(link, now)

    def _attach(self, room: str, pid: str, conn: str, opened: dict[bytes, Any], now: float) -> None:
        """A session here for the player an ``open`` (``opened``) names, relayed by its edge."""
        peer = _text(opened.get(b"a", b"?"))
        link = RemoteLink(self, room, pid, _text(opened.get(b"n", b"")), peer, conn)
        session = Session(self.server, link, now)
        link.session = session
        since = int(opened.get(b"since", -1))
        deltas = bool(int(opened.get(b"deltas", 0)))
        try:
            ident, effects = self.service.hub.attach(
                pid, peer, None if since < 0 else since, deltas, now
            )
        except ProtocolError as exc:
            self.server.execute(session.error(exc), session)
            link.close(1008, exc.message)
            return
        self.remote[(room, pid)] = link
        self.server.execute(session.attached(ident, effects), session)

    def _end(self, link: RemoteLink, now: float) -> None:
        if self.remote.get((link.room, link.pid)) is link:
            del self.remote[(link.room, link.pid)]
        session = link.session
        if session is not None:
            self.server.execute(session.closed(now), session)

    # -- streams ------------------------------------------------------------------
    def _lost_all(self) -> None:
        """Redis lost messages: every relayed client resyncs by reconnecting."""
        for session in list(self.proxies):
            self._drop(session, MOVED_CLOSE, MOVED_REASON)
        now = time.time()
        for link in list(self.remote.values()):
            link.closed = True
            self._end(link, now)

    def _wanted(self) -> set[str]:
        """The streams this node reads: its rooms' input, its relayed clients' output."""
        wanted = {in_key(self.node)}
        if self.proxies:
            wanted.add(out_key(self.node))
        return wanted

    def _handle(self, key: str, fields: dict[bytes, Any]) -> None:
        """One signed message meant for this node (:class:`StreamReader` checked)."""
        if key.endswith(":in"):
            self._arrived(_text(fields.get(b"r", b"")), fields)
        else:
            self._deliver(fields)

    def players(self) -> dict[str, str]:
        """Owner: every member of the rooms this node owns -> its room."""
        return members(self.server.hub.lobby.rooms, self.service.store.epochs)


def members(rooms: Mapping[str, Room], owned: Iterable[str]) -> dict[str, str]:
    """Every person (no computer) in the rooms ``owned`` -> its room."""
    return {m.id: code for code in owned if code in rooms for m in rooms[code].members if not m.bot}


def _peek(frame: bytes) -> tuple[str, dict[str, Any]]:
    try:
        fields = p.decode_map(frame)
    except ProtocolError:
        return "", {}
    kind = fields.get("type")
    return (kind if isinstance(kind, str) else ""), fields
