"""One connection's conversation: limits, decoding, and dispatch to the hub.

Every frame passes the rate limit, then the codec; anything refused becomes an
``error`` to this client alone (with ``re`` when the frame's ``id`` could be
read, and ``retry_after`` when waiting helps) and changes nothing: no frame is
dropped silently. Abuse past the configured counts closes the connection with
1008 and a reason. ``sync`` is the exception: it is never refused for going too
fast (a client asks for one because the room told it something changed, which
is other members' doing): one asked while the connection's snapshot limit is
spent is answered once it allows, and any asked meanwhile fold into that one.

The session is pure, like the hub and the rooms: each input (a frame, the time a
held ``sync`` asked for, the connection's end) returns what to do, in order: the
hub's effects and the session's own (``server/core/effects.py``: :class:`Reply`,
:class:`Hangup`, :class:`Bind`, :class:`Unbind`, :class:`Recall`, :class:`Ask`), which
its host in the I/O layer carries out (``server/io/net/app.py``; a list in unit tests).
It never touches its connection: ``link`` is the host's handle on it, kept here for
the host.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.analysis import Analyse
from gridhall.protocol.schema import evolve

from .config import ServerConfig
from .devices import SIGNED_OUT, SIGNED_OUT_REASON
from .effects import Ask, Bind, Effect, Hangup, Recall, Reply, Said, Unbind
from .hub import Hub
from .identity import Identity
from .limits import SlidingWindow, TokenBucket
from .stats import Stats, claimed_type

log = logging.getLogger("gridhall.session")

SNAPSHOTS = (p.Sync, p.JoinRoom, p.CreateRoom)
"""Requests answered with a whole room (``state``): a 200x200 board is 40 KB, so
they have their own, slower limit (``snapshots_per_second``)."""


FLOOD = "message flood"
BAD_FRAMES = "too many bad messages"
ABUSE_CLOSE = 1008
ABUSE = frozenset({FLOOD, BAD_FRAMES})
"""The reasons a connection is closed for abuse (with :data:`ABUSE_CLOSE`): its address
then waits before it may connect again (``server/io/net/carrier.py``)."""

SYNC_FLOOD = 10
"""Syncs a connection may send, as a multiple of the message rate and burst, before it
counts as a flood: far more than a room's arrivals and departures could prompt."""

SYNC_MARGIN = 0.001
"""Seconds past the snapshot limit's wait before a held ``sync`` is tried again."""


class Link(Protocol):
    """The connection as the session's host sees it (the session never calls it)."""

    peer: str

    @property
    def closed(self) -> bool: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


def _no_queries(msg: Any) -> bool:
    return False


@dataclass(frozen=True)
class Services:
    """What the server around a session answers beyond the hub, each through an
    :class:`Ask`: history queries (``queries`` says which messages are; the history
    service's own test) and ``analyse`` requests (``analyses``)."""

    queries: Callable[[Any], bool] = _no_queries
    analyses: bool = False


class SessionHost(Protocol):
    """The parts of the core a session works with (the server's, or a test's)."""

    config: ServerConfig
    hub: Hub
    stats: Stats
    services: Services


class Sessions(dict[str, "Session"]):
    """Which session speaks for each player id: one at a time, the newest wins.
    Both the server and the tests' fake server keep theirs in one of these, and
    carry out a session's :class:`Bind` and :class:`Unbind` on it."""

    def bind(
        self,
        ident: Identity,
        session: Session,
        close: Callable[[Link, int, str], None] | None = None,
    ) -> None:
        """``session`` now speaks for ``ident``; an older one is closed (4000), by
        ``close`` if given (the server's: after the frames it was sent)."""
        older = self.get(ident.id)
        if older is not None and older is not session:
            older.identity = None  # its close must not count as this player dropping
            if close is None:
                older.link.close(4000, "replaced by a newer connection")
            else:
                close(older.link, 4000, "replaced by a newer connection")
        self[ident.id] = session

    def unbind(self, ident: Identity, session: Session) -> bool:
        """``session`` is gone; True if it was the one speaking for ``ident``."""
        if self.get(ident.id) is not session:
            return False
        del self[ident.id]
        return True


class Session:
    """See the module docstring. Every public input returns a list of what to do."""

    def __init__(self, host: SessionHost, link: Link, now: float) -> None:
        config = host.config
        self.config = config
        self.hub = host.hub
        self.stats = host.stats
        self.services = host.services
        self.link = link
        """The host's handle on the connection (the session never calls it)."""
        self.peer = link.peer
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst, now)
        self.chat = SlidingWindow(config.chat_lines, config.chat_window)
        self.strikes = SlidingWindow(config.max_rate_strikes, config.strike_window)
        self.snapshots = TokenBucket(config.snapshots_per_second, config.snapshot_burst, now)
        self.queries = TokenBucket(config.history_per_second, config.history_burst, now)
        """History queries (``server/io/services/history_service.py``), all types together."""
        self.bad_messages = 0
        self.identity: Identity | None = None
        self.sync_flood = TokenBucket(
            SYNC_FLOOD * config.rate_per_second, SYNC_FLOOD * config.rate_burst, now
        )
        """Syncs cost nothing at the message rate, but a client sending them far past
        anything the room could explain is flooding (closed with 1008)."""
        self.deferred_sync: p.Sync | None = None
        """A ``sync`` waiting for the snapshot limit (the ones asked meanwhile folded in)."""
        self._sync_armed = False
        self.received_at: float | None = None
        """When the frame being handled arrived, on the host's monotonic clock (a
        move's round trip starts there; None: not measured)."""

    # -- inputs -------------------------------------------------------------------
    def receive(self, frame: bytes | str, now: float, arrived: float | None = None) -> list[Said]:
        """Handle one frame (which arrived at ``arrived`` on the host's monotonic
        clock, for the round-trip figures); never raises for anything the client sent."""
        msg, said = self.admit(frame, now, arrived=arrived)
        if msg is None:
            return said
        ident = self.identity
        try:
            if type(msg) is p.Move and ident is not None:  # every move: no limit of its own
                self._handle(said, ident, msg, now)
            else:
                self.dispatch(said, msg, now)
        except ProtocolError as exc:
            self._refuse(said, exc)
        except Exception:  # a server bug must not end the connection or the server
            log.exception(
                "internal error handling a frame from %s",
                self.peer,
                extra={"player": self.identity.id if self.identity else None},
            )
            said += self.fault(msg)
        return said

    def admit(
        self, frame: bytes | str, now: float, hold_sync: bool = True, arrived: float | None = None
    ) -> tuple[Any, list[Said]]:
        """The limits every frame passes before anything acts on it: the rate (past
        it: refused, and closed past the strikes), the codec (a bad frame refused and
        counted, closed past ``max_bad_messages``) and the sync flood. The decoded
        message if the frame passed, else None (the client is told), with what to do
        so far. A cluster node relaying a client's frames to another node applies
        these same limits first (``server/cluster/relay.py``), with ``hold_sync``
        False: a ``sync`` past the rate is passed on (the node running the session
        holds it), not held here."""
        said: list[Said] = []
        self.received_at = arrived
        if not self.bucket.take(now):
            return self._over_rate(said, frame, now, hold_sync), said
        msg: Any = None
        try:
            try:
                msg = p.decode(frame, "client")
            finally:
                self.stats.message_in(msg.TYPE if msg is not None else claimed_type(frame), now)
        except ProtocolError as exc:
            self._refuse(said, exc)
            return None, said
        if isinstance(msg, p.Sync) and self.identity is not None:  # see _defer_sync
            self.bucket.tokens = min(self.bucket.burst, self.bucket.tokens + 1.0)
            if not self.sync_flood.take(now):
                said.append(Hangup(ABUSE_CLOSE, FLOOD))
                return None, said
        return msg, said

    def answer_sync(self, now: float) -> list[Said]:
        """The held ``sync``'s time (a :class:`Recall`) has come; still waiting if the
        limit says so. The host calls it only while the connection is open."""
        said: list[Said] = []
        self._sync_armed = False
        msg, ident = self.deferred_sync, self.identity
        if msg is None or ident is None:
            self.deferred_sync = None
            return said
        if not self.snapshots.take(now):
            self._recall(said, now)
            return said
        self.deferred_sync = None
        self._handle(said, ident, msg, now)
        return said

    def attached(self, ident: Identity, effects: list[Effect]) -> list[Said]:
        """The session speaks for ``ident``, whose hello another node answered (the
        cluster's relay): bound to it, then ``effects``."""
        self.identity = ident
        return [Bind(ident), *effects]

    def closed(self, now: float) -> list[Said]:
        """The connection is gone: the hub keeps a seat for the grace period. (A
        session replaced by a newer connection has no identity any more.)"""
        ident = self.identity
        self.identity = None
        if ident is None:
            return []
        return [Unbind(ident), *self.hub.disconnected(ident, now)]

    # -- answers the host asks for ------------------------------------------------
    def error(self, exc: ProtocolError) -> list[Said]:
        """An ``error`` to this connection for ``exc``."""
        return [
            Reply(
                p.encode(
                    p.Error(
                        code=exc.code.value,
                        message=exc.message,
                        re=exc.request_id,
                        retry_after=exc.retry_after,
                    )
                )
            )
        ]

    def refused(self, exc: ProtocolError) -> list[Said]:
        """Tell the client; count malformed frames toward closing the connection."""
        said: list[Said] = []
        self._refuse(said, exc)
        return said

    def fault(self, msg: Any) -> list[Said]:
        """The server failed on ``msg`` (its own fault, logged by the caller)."""
        error = p.Error(
            code=ErrorCode.INTERNAL_ERROR.value,
            message="The server failed on that request; this is its own fault and has been logged.",
            re=getattr(msg, "id", None),
        )
        return [Reply(p.encode(error))]

    # -- the limits ---------------------------------------------------------------
    def _over_rate(self, said: list[Said], frame: bytes | str, now: float, hold_sync: bool) -> Any:
        """A frame past the rate limit: refused with ``rate-limited`` (echoing its
        ``id`` if it has one), or, past ``max_rate_strikes`` such frames within
        ``strike_window`` seconds, the connection is closed with 1008. A ``sync`` is
        held for later instead (or, not ``hold_sync``, returned to pass on)."""
        data: dict[str, Any] = {}
        if isinstance(frame, bytes):
            try:
                data = p.decode_map(frame)
            except ProtocolError:
                pass
        kind = data.get("type")
        self.stats.message_in(kind if isinstance(kind, str) else "", now)
        if data.get("type") == "sync" and self.identity is not None:
            if not self.sync_flood.take(now):
                said.append(Hangup(ABUSE_CLOSE, FLOOD))
                return None
            try:
                sync = p.decode(frame, "client")
            except ProtocolError:
                pass
            else:
                if not hold_sync:
                    return sync
                self._defer_sync(said, sync, now)
                return None
        if not self._strike(said, now):
            return None
        rid = data.get("id")
        wait = round(self.bucket.retry_after(), 3)
        self._refuse(
            said,
            ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"You are sending messages too fast; this one was not handled. Wait {wait:.2f} s.",
                rid
                if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= p.MAX_ID
                else None,
                retry_after=wait,
            ),
        )
        return None

    def _strike(self, said: list[Said], now: float) -> bool:
        """Count a request refused for going too fast; past ``max_rate_strikes``
        within ``strike_window`` seconds (a client that ignores ``retry_after``)
        the connection is closed with 1008. False once closed."""
        if self.strikes.allow(now):
            return True
        said.append(Hangup(ABUSE_CLOSE, FLOOD))
        return False

    def _too_fast(
        self, said: list[Said], now: float, what: str, wait: float, rid: int | None
    ) -> ProtocolError:
        """A strike, and the refusal to raise (``what`` says how long to wait)."""
        self._strike(said, now)
        return ProtocolError(ErrorCode.RATE_LIMITED, what, rid, retry_after=wait)

    def _refuse(self, said: list[Said], exc: ProtocolError) -> None:
        if exc.code in (ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE):
            self.bad_messages += 1
            if self.bad_messages > self.config.max_bad_messages:
                said.append(Hangup(ABUSE_CLOSE, BAD_FRAMES))
                return
        said += self.error(exc)

    # -- dispatch -----------------------------------------------------------------
    def dispatch(self, said: list[Said], msg: Any, now: float) -> None:
        """A message within the connection's rate: to hello, the hub or a service,
        past the limits of its kind; ProtocolError to refuse it."""
        ident = self.identity
        if type(msg) is p.Move and ident is not None:  # every move: no limit of its own
            self._handle(said, ident, msg, now)
            return
        rid = getattr(msg, "id", None)
        if isinstance(msg, p.Hello):
            self._on_hello(said, msg, now)
            return
        if ident is None:
            raise ProtocolError(ErrorCode.NOT_WELCOMED, "Say hello first.", rid)
        if isinstance(msg, p.Sync):
            if self.deferred_sync is not None or not self.snapshots.take(now):
                self._defer_sync(said, msg, now)
                return
        elif isinstance(msg, SNAPSHOTS) and not self.snapshots.take(now):
            wait = round(self.snapshots.retry_after(), 3)
            what = f"{msg.TYPE} sends a whole room; wait {wait:.1f} s before asking again."
            raise self._too_fast(said, now, what, wait, rid)
        if self.services.queries(msg) or isinstance(msg, Analyse):
            self._ask(said, msg, now)
            return
        if isinstance(msg, p.Chat) and ident.room is not None and not self.chat.allow(now):
            wait = round(self.chat.retry_after(now), 3)
            what = f"You are chatting too fast; wait {wait:.0f} s before the next line."
            raise self._too_fast(said, now, what, wait, rid)
        self._handle(said, ident, msg, now)

    def _ask(self, said: list[Said], msg: Any, now: float) -> None:
        """A history query or an ``analyse``, within the history queries' rate (one
        rate for both), goes to the server's service for it."""
        rid = getattr(msg, "id", None)
        if isinstance(msg, Analyse) and not self.services.analyses:
            raise ProtocolError(ErrorCode.UNKNOWN_TYPE, "This server does not analyse games.", rid)
        if not self.queries.take(now):
            wait = round(self.queries.retry_after(), 3)
            what = f"You are asking for history too fast; wait {wait:.1f} s."
            raise self._too_fast(said, now, what, wait, rid)
        said.append(Ask(msg))

    def _handle(self, said: list[Said], ident: Identity, msg: Any, now: float) -> None:
        """Pass a message that is within every limit to the hub."""
        effects, error = self.hub.handle(ident, msg, now)
        if error is None and isinstance(msg, p.Move) and effects and self.received_at is not None:
            self.stats.move_accepted(self.received_at)
        said += effects
        if error is not None:
            if error.request_id is None:
                error.request_id = getattr(msg, "id", None)
            self._refuse(said, error)
        elif ident.signed_out:  # this connection's own device (after the answer)
            ident.signed_out = False
            said.append(Hangup(SIGNED_OUT, SIGNED_OUT_REASON))

    def _defer_sync(self, said: list[Said], msg: p.Sync, now: float) -> None:
        """Keep a ``sync`` until the snapshot limit allows one; another asked meanwhile
        folds into it (the earlier ``since``, none if either has none; the latest
        ``id``). It is no refusal and no strike: one answer comes."""
        held = self.deferred_sync
        if held is not None:
            since = None if held.since is None or msg.since is None else min(held.since, msg.since)
            msg = evolve(msg, since=since)
        self.deferred_sync = msg
        if not self._sync_armed:
            self._recall(said, now)

    def _recall(self, said: list[Said], now: float) -> None:
        self._sync_armed = True
        said.append(Recall(now + self.snapshots.retry_after() + SYNC_MARGIN))

    def _on_hello(self, said: list[Said], msg: p.Hello, now: float) -> None:
        if msg.protocol != p.PROTOCOL_VERSION:
            said += self.error(
                ProtocolError(
                    ErrorCode.VERSION_MISMATCH,
                    f"This server speaks protocol {p.PROTOCOL_VERSION}; update your client.",
                    msg.id,
                )
            )
            said.append(Hangup(1002, "protocol version mismatch"))
            return
        if self.identity is not None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "You already said hello.", msg.id)
        try:
            ident, effects = self.hub.hello(msg, now, self.peer)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.BANNED:
                raise
            said += self.error(exc)
            said.append(Hangup(1008, "banned"))
            return
        log.info("%s is %s (%s)", self.peer, ident.name, ident.id, extra={"player": ident.id})
        said += self.attached(ident, effects)
