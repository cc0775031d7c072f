"""One connection's conversation: limits, decoding, and dispatch to the hub.

Every frame passes the rate limit, then the codec; anything refused becomes an
``error`` to this client alone (with ``re`` when the frame's ``id`` could be
read, and ``retry_after`` when waiting helps) and changes nothing: no frame is
dropped silently. Abuse past the configured counts closes the connection with
1008 and a reason. ``sync`` is the exception: it is never refused for going too
fast (a client asks for one because the room told it something changed, which
is other members' doing): one asked while the connection's snapshot limit is
spent is answered once it allows, and any asked meanwhile fold into that one.
The session holds no socket: it talks
through a :class:`Link` (the websocket in production, a list in unit tests) and
hands the hub's effects to its :class:`SessionHost` to carry out.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.analysis import Analyse

from .config import ServerConfig
from .devices import SIGNED_OUT, SIGNED_OUT_REASON
from .effects import Effect
from .hub import Hub
from .identity import Identity
from .limits import SlidingWindow, TokenBucket
from .stats import Stats

log = logging.getLogger("gridhall.session")

SNAPSHOTS = (p.Sync, p.JoinRoom, p.CreateRoom)
"""Requests answered with a whole room (``state``): a 200x200 board is 40 KB, so
they have their own, slower limit (``snapshots_per_second``)."""


SYNC_FLOOD = 10
"""Syncs a connection may send, as a multiple of the message rate and burst, before it
counts as a flood: far more than a room's arrivals and departures could prompt."""


class Link(Protocol):
    """The connection as the session sees it."""

    peer: str

    @property
    def closed(self) -> bool: ...

    def send_frame(self, frame: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class SessionHost(Protocol):
    """What a session needs from the server around it."""

    config: ServerConfig
    hub: Hub
    stats: Stats

    def bind(self, ident: Identity, session: Session) -> None:
        """``session`` now speaks for ``ident`` (an older one is closed)."""

    def unbind(self, ident: Identity, session: Session) -> bool:
        """``session`` is gone; True if it was the one speaking for ``ident``."""

    def execute(self, effects: list[Effect]) -> None:
        """Carry out the hub's effects."""

    def reply(self, link: Link, frame: bytes) -> None:
        """Send a frame to one connection, in order with the effects' frames."""

    def close_link(self, link: Link, code: int, reason: str) -> None:
        """Close a connection after what was sent to it so far."""

    def call_later(self, delay: float, callback: Callable[[float], None]) -> None:
        """Call ``callback(now)`` in ``delay`` seconds (a deferred ``sync``)."""


class Sessions(dict[str, "Session"]):
    """Which session speaks for each player id: one at a time, the newest wins.
    Both the server and the tests' fake server keep theirs in one of these."""

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
    """See the module docstring."""

    def __init__(self, host: SessionHost, link: Link, now: float) -> None:
        config = host.config
        self.host = host
        self.link = link
        self.bucket = TokenBucket(config.rate_per_second, config.rate_burst, now)
        self.chat = SlidingWindow(config.chat_lines, config.chat_window)
        self.strikes = SlidingWindow(config.max_rate_strikes, config.strike_window)
        self.snapshots = TokenBucket(config.snapshots_per_second, config.snapshot_burst, now)
        self.queries = TokenBucket(config.history_per_second, config.history_burst, now)
        """History queries (``server/io/history_service.py``), all types together."""
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
        self.received_at = 0.0
        """``time.perf_counter()`` when the frame being handled arrived (a move's
        round trip starts there)."""

    def send(self, msg: Any) -> None:
        self.host.reply(self.link, p.encode(msg))

    def send_frame(self, frame: bytes) -> None:
        """An answer that comes later (a history query's), unless the connection is gone."""
        if not self.link.closed:
            self.host.reply(self.link, frame)

    def error(self, exc: ProtocolError) -> None:
        self.send(
            p.Error(
                code=exc.code.value,
                message=exc.message,
                re=exc.request_id,
                retry_after=exc.retry_after,
            )
        )

    def receive(self, frame: bytes | str, now: float) -> None:
        """Handle one frame; never raises for anything the client sent."""
        msg = self.admit(frame, now)
        if msg is None:
            return
        try:
            self.dispatch(msg, now)
        except ProtocolError as exc:
            self.refused(exc)
        except Exception:  # a server bug must not end the connection or the server
            log.exception(
                "internal error handling a frame from %s",
                self.link.peer,
                extra={"player": self.identity.id if self.identity else None},
            )
            self.send(
                p.Error(
                    code=ErrorCode.INTERNAL_ERROR.value,
                    message="The server failed on that request; this is its own "
                    "fault and has been logged.",
                    re=getattr(msg, "id", None),
                )
            )

    def admit(self, frame: bytes | str, now: float, hold_sync: bool = True) -> Any:
        """The limits every frame passes before anything acts on it: the rate (past
        it: refused, and closed past the strikes), the codec (a bad frame refused and
        counted, closed past ``max_bad_messages``) and the sync flood. The decoded
        message if the frame passed, else None (the client was told). A cluster node
        relaying a client's frames to another node applies these same limits first
        (``server/cluster/relay.py``), with ``hold_sync`` False: a ``sync`` past the
        rate is passed on (the node running the session holds it), not held here."""
        self.received_at = time.perf_counter()
        if not self.bucket.take(now):
            return self.over_rate(frame, now, hold_sync)
        msg: Any = None
        try:
            try:
                msg = p.decode(frame, "client")
            finally:
                self.host.stats.message_in(msg.TYPE if msg is not None else _type_of(frame), now)
        except ProtocolError as exc:
            self.refused(exc)
            return None
        if isinstance(msg, p.Sync) and self.identity is not None:  # see defer_sync
            self.bucket.tokens = min(self.bucket.burst, self.bucket.tokens + 1.0)
            if not self.sync_flood.take(now):
                self.host.close_link(self.link, 1008, "message flood")
                return None
        return msg

    def over_rate(self, frame: bytes | str, now: float, hold_sync: bool = True) -> Any:
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
        self.host.stats.message_in(kind if isinstance(kind, str) else "", now)
        if data.get("type") == "sync" and self.identity is not None:
            if not self.sync_flood.take(now):
                self.host.close_link(self.link, 1008, "message flood")
                return None
            try:
                sync = p.decode(frame, "client")
            except ProtocolError:
                pass
            else:
                if not hold_sync:
                    return sync
                self.defer_sync(sync, now)
                return None
        if not self.strike(now):
            return None
        rid = data.get("id")
        wait = round(self.bucket.retry_after(), 3)
        self.error(
            ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"You are sending messages too fast; this one was not handled. Wait {wait:.2f} s.",
                rid
                if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= p.MAX_ID
                else None,
                retry_after=wait,
            )
        )
        return None

    def strike(self, now: float) -> bool:
        """Count a request refused for going too fast; past ``max_rate_strikes``
        within ``strike_window`` seconds (a client that ignores ``retry_after``)
        the connection is closed with 1008. False once closed."""
        if self.strikes.allow(now):
            return True
        self.host.close_link(self.link, 1008, "message flood")
        return False

    def refused(self, exc: ProtocolError) -> None:
        """Tell the client; count malformed frames toward closing the connection."""
        if exc.code in (ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE):
            self.bad_messages += 1
            if self.bad_messages > self.host.config.max_bad_messages:
                self.host.close_link(self.link, 1008, "too many bad messages")
                return
        self.error(exc)

    def dispatch(self, msg: Any, now: float) -> None:
        rid = getattr(msg, "id", None)
        if isinstance(msg, p.Hello):
            self.on_hello(msg, now)
            return
        ident = self.identity
        if ident is None:
            raise ProtocolError(ErrorCode.NOT_WELCOMED, "Say hello first.", rid)
        if isinstance(msg, p.Sync):
            if self.deferred_sync is not None or not self.snapshots.take(now):
                self.defer_sync(msg, now)
                return
        elif isinstance(msg, SNAPSHOTS) and not self.snapshots.take(now):
            wait = round(self.snapshots.retry_after(), 3)
            self.strike(now)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"{msg.TYPE} sends a whole room; wait {wait:.1f} s before asking again.",
                rid,
                retry_after=wait,
            )
        service = getattr(self.host, "queries", None)
        if service is not None and service.handles(msg):
            if not self.queries.take(now):
                wait = round(self.queries.retry_after(), 3)
                self.strike(now)
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"You are asking for history too fast; wait {wait:.1f} s.",
                    rid,
                    retry_after=wait,
                )
            service.ask(self, msg, self.link.peer)
            return
        if isinstance(msg, Analyse):
            self.analyse(msg, now)
            return
        if isinstance(msg, p.Chat) and ident.room is not None and not self.chat.allow(now):
            wait = round(self.chat.retry_after(now), 3)
            self.strike(now)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"You are chatting too fast; wait {wait:.0f} s before the next line.",
                rid,
                retry_after=wait,
            )
        self.handle(ident, msg, now)

    def handle(self, ident: Identity, msg: Any, now: float) -> None:
        """Pass a message that is within every limit to the hub."""
        effects, error = self.host.hub.handle(ident, msg, now)
        if error is None and isinstance(msg, p.Move) and effects:
            self.host.stats.move_accepted(self.received_at)
        self.host.execute(effects)
        if error is not None:
            if error.request_id is None:
                error.request_id = getattr(msg, "id", None)
            self.refused(error)
        elif ident.signed_out:  # this connection's own device (after the answer)
            ident.signed_out = False
            self.host.close_link(self.link, SIGNED_OUT, SIGNED_OUT_REASON)

    def analyse(self, msg: Analyse, now: float) -> None:
        """An ``analyse`` goes to the server's analyses (``server/io/analysis_service.py``)."""
        analyses = getattr(self.host, "analyses", None)
        if analyses is None:
            raise ProtocolError(
                ErrorCode.UNKNOWN_TYPE, "This server does not analyse games.", msg.id
            )
        if not self.queries.take(now):  # the history queries' rate, shared
            wait = round(self.queries.retry_after(), 3)
            self.strike(now)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"You are asking for history too fast; wait {wait:.1f} s.",
                msg.id,
                retry_after=wait,
            )
        analyses.request(self, self.link.peer, msg)

    def defer_sync(self, msg: p.Sync, now: float) -> None:
        """Keep a ``sync`` until the snapshot limit allows one; another asked meanwhile
        folds into it (the earlier ``since``, none if either has none; the latest
        ``id``). It is no refusal and no strike: one answer comes."""
        held = self.deferred_sync
        if held is not None:
            since = None if held.since is None or msg.since is None else min(held.since, msg.since)
            msg = replace(msg, since=since)
        self.deferred_sync = msg
        if not self._sync_armed:
            self._sync_armed = True
            self.host.call_later(self.snapshots.retry_after() + 0.001, self.answer_sync)

    def answer_sync(self, now: float) -> None:
        """The deferred ``sync``'s time has come (still waiting if the limit says so)."""
        self._sync_armed = False
        msg, ident = self.deferred_sync, self.identity
        if msg is None or ident is None or self.link.closed:
            self.deferred_sync = None
            return
        if not self.snapshots.take(now):
            self._sync_armed = True
            self.host.call_later(self.snapshots.retry_after() + 0.001, self.answer_sync)
            return
        self.deferred_sync = None
        self.handle(ident, msg, now)

    def on_hello(self, msg: p.Hello, now: float) -> None:
        if msg.protocol != p.PROTOCOL_VERSION:
            self.error(
                ProtocolError(
                    ErrorCode.VERSION_MISMATCH,
                    f"This server speaks protocol {p.PROTOCOL_VERSION}; update your client.",
                    msg.id,
                )
            )
            self.host.close_link(self.link, 1002, "protocol version mismatch")
            return
        if self.identity is not None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "You already said hello.", msg.id)
        try:
            ident, effects = self.host.hub.hello(msg, now, self.link.peer)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.BANNED:
                raise
            self.error(exc)
            self.host.close_link(self.link, 1008, "banned")
            return
        self.identity = ident
        self.host.bind(ident, self)
        log.info("%s is %s (%s)", self.link.peer, ident.name, ident.id, extra={"player": ident.id})
        self.host.execute(effects)

    def closed(self, now: float) -> None:
        """The connection is gone: the hub keeps a seat for the grace period."""
        ident = self.identity
        self.identity = None
        if ident is not None and self.host.unbind(ident, self):
            self.host.execute(self.host.hub.disconnected(ident, now))


def _type_of(frame: bytes | str) -> str:
    """The ``type`` a frame the codec refused claims to be (only counted, bounded
    by :meth:`Stats.message_in`)."""
    if isinstance(frame, bytes):
        try:
            kind = p.decode_map(frame).get("type")
        except ProtocolError:
            return ""
        return kind if isinstance(kind, str) else ""
    return ""
