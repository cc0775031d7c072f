"""The client side of one connection to a gridhall server, shared by every UI.

A :class:`Session` owns the WebSocket: it says ``hello``, decodes every frame
into the typed messages of :mod:`gridhall.protocol`, keeps our copy of the room
we are in (:mod:`client.room` folds each event into it), asks for a ``sync``
when a room's ``seq`` skips, and reconnects with the saved token (exponential
backoff with jitter) when the connection drops, so the server gives us our
seat back; a cluster's other nodes (``welcome.nodes``) are tried in turn, a
bounded number of rounds (:mod:`client.failover`). Message types a newer server
may add are skipped, not fatal.

It knows no game rules and no UI. A UI registers listeners (called on the
session's event loop after each message has been applied) and sends intents
with :meth:`Session.submit`, which is safe to call from any thread: the Tk
client runs the session in a background thread (:func:`run_in_thread`).

Listeners receive the server's typed messages, plus the local types of
:mod:`client.messages`: :class:`Connection` (connecting, connected, lost,
closed, failed) and :class:`Refused` (the server's ``error`` with the refused
request named, or a refusal made here, e.g. ``offline``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from gridhall import protocol as p
from gridhall.client import served
from gridhall.client.clocktime import shown_time
from gridhall.client.failover import ROUNDS, Route
from gridhall.client.messages import OFFLINE, REPLACED, SIGNED_OUT, Refused, Request
from gridhall.client.room import RoomCopy
from gridhall.client.session_messages import Listener, ServerMessages
from gridhall.protocol import (
    CLIENT_MESSAGES,
    MAX_SERVER_FRAME,
    ProtocolError,
)
from gridhall.protocol.i18n import _
from gridhall.protocol.schema import from_map, to_map

__all__ = ["Backoff", "Listener", "Session", "run_in_thread"]


@dataclass
class Backoff:
    """Reconnect delays: ``first`` doubling up to ``cap``, scaled by 50..100 % jitter
    so a LAN full of clients does not reconnect in lock step."""

    first: float = 0.5
    cap: float = 10.0
    jitter: float = 0.5

    def delay(self, attempt: int) -> float:
        base = min(self.cap, self.first * 2.0 ** min(attempt, 30))
        return base * (1 - self.jitter * random.random())


class Session(ServerMessages):
    """One player's connection; see the module docstring. What the server says is
    applied by :class:`ServerMessages` (``client/session_messages.py``)."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        token: str | None = None,
        backoff: Backoff | None = None,
        open_timeout: float = 5.0,
        clock: Callable[[], float] = time.time,
        keep_token: Callable[[str], None] | None = None,
        deltas: bool = True,
        link: str | None = None,
        rounds: int = ROUNDS,
        device: str | dict[str, str] | None = None,
    ) -> None:
        self.url = url
        self.name = name
        self.token = token
        self.link = link
        """A link code to say ``hello`` with (once) instead of the token: this device
        then becomes the identity that asked for the code (:meth:`link_with`)."""
        self.device = device
        """What this device is in the player's device list (``hello.device``:
        :func:`gridhall.client.devices.this_device`)."""
        self.keep_token = keep_token
        self.deltas = deltas
        """Ask for ``moved`` as changes to the view we hold (smaller frames; folded by
        :mod:`client.room`); False: every ``moved`` carries the whole view."""
        """Called with each token the server gives us (the CLI saves it on disk)."""
        self.player: str | None = None
        self.server_name: str | None = None
        self.features: frozenset[str] = frozenset()
        """What the server offers beyond the base contract (``welcome.features``):
        a UI shows a feature's screens only when its name is here."""
        self.home = url
        """The address the player chose; ``keep_token`` keeps that node's tokens only."""
        self._home_player: str | None = None
        self.nodes: list[str] = []
        """Every node of the server's cluster, from the last ``welcome`` (none: a single
        server); where the session goes when its node is gone."""
        self.rounds = rounds
        """Failed rounds over a cluster's nodes before the session gives up (status
        ``gave-up``; :meth:`reconnect_now` starts again)."""
        self.backoff = backoff or Backoff()
        self.open_timeout = open_timeout
        self.clock = clock
        """Wall-clock time for :attr:`RoomCopy.view_at` (tests may pass their own)."""
        self.room: RoomCopy | None = None
        """Our copy of the room we are in; replaced (never changed) by each event."""
        self.offline_since: float | None = None
        """When (``clock`` time) our last welcomed connection dropped; None while
        connected: clocks stand still from then (:meth:`clock_time`)."""
        self._listeners: list[Listener] = []
        self._ws: ClientConnection | None = None
        self._welcomed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._ids = itertools.count(1)
        self._requests: dict[int, str] = {}
        self._stopped = asyncio.Event()
        self._wake = asyncio.Event()
        self._closed_by: tuple[int, str] | None = None
        self._room_heard = False
        self._linking = False
        """The current connection's ``hello`` carried a link code (not yet answered)."""
        self._relink = False
        self._banned_until: float | None = None
        """A ban's end (``clock`` time), from the server's ``banned`` answer to ``hello``:
        no reconnect before it, as one would only be refused again."""

    # ---- what UIs read -------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """True once ``welcome`` arrived on the current connection."""
        return self._ws is not None and self._welcomed

    def clock_time(self) -> float:
        """The time the room's clocks show: now, or while offline the moment the
        connection dropped (see :mod:`client.clocktime`)."""
        return shown_time(self.clock(), self.offline_since)

    @property
    def state(self) -> p.State | None:
        """The current room's state (kept current by events), or None in the lobby."""
        return self.room.state if self.room else None

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the session runs on (for ``run_coroutine_threadsafe``)."""
        return self._loop

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # ---- sending -------------------------------------------------------------------

    def submit(self, request: Request | str, **fields: Any) -> None:
        """Send an intent from any thread: a typed request (``protocol.Move(...)``) or
        a type name and its fields; refusals come back through listeners."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("the session is not running")
        msg = request if not isinstance(request, str) else {"type": request, **fields}
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(self.send(msg))
        else:
            loop.call_soon_threadsafe(lambda: loop.create_task(self.send(msg)))

    async def send(self, msg: Request | dict[str, Any]) -> int | None:
        """Send ``msg`` now (on the session's loop); returns its request id, or None
        if it was refused here (listeners then get a :class:`Refused`)."""
        kind = msg.get("type") if isinstance(msg, dict) else msg.TYPE
        ws = self._ws
        if ws is None or not self._welcomed:
            self._emit(
                Refused(
                    OFFLINE,
                    _(
                        "Not connected to the server right now; "
                        "reconnecting, try again in a moment."
                    ),
                    str(kind),
                )
            )
            return None
        req = next(self._ids) & 0x7FFFFFFF
        try:
            frame = _frame(msg, req)
        except ProtocolError as exc:  # caught here, before the server has to say it
            self._emit(Refused(str(exc.code), exc.message, str(kind)))
            return None
        self._requests[req] = str(kind)
        if len(self._requests) > 256:
            self._requests.pop(next(iter(self._requests)))
        try:
            await ws.send(frame)
        except ConnectionClosed:
            return None  # the reader notices and reconnects
        return req

    # ---- lifecycle -----------------------------------------------------------------

    async def run(self) -> None:
        """Connect, then keep reconnecting until :meth:`close`; returns when closed
        or when the server refuses our protocol version."""
        self._loop = asyncio.get_running_loop()
        self._stopped.clear()
        attempt = 0
        route = Route.from_(self.url, self.nodes)
        try:
            while not self._closing:
                self.url = route.current
                self._status("connecting", attempt=attempt, address=self.url)
                reason = await self._one_connection()
                if reason == "fatal" or self._closing:
                    break
                if reason == "welcomed":
                    attempt = 0
                    route = Route.from_(self.url, self.nodes)  # this node first, then the others
                elif not route.failed():
                    continue  # on to the cluster's next node at once
                elif len(route.order) > 1 and route.rounds >= self.rounds:
                    route = await self._give_up(route)
                    attempt = 0
                    continue
                delay = self.backoff.delay(attempt)
                if self._relink:  # we closed it ourselves to say hello with a link code
                    self._relink = False
                    if reason == "welcomed":
                        continue
                if self._banned_until is not None:
                    delay = max(delay, self._banned_until - self.clock())
                    self._banned_until = None
                attempt += 1
                code, why = self._closed_by or (None, "")
                if code in (REPLACED, SIGNED_OUT):  # another device has it / we were signed out
                    self._status("lost", attempt=attempt, delay=0.0, code=code, reason=why)
                    self._wake.clear()
                    await self._wake.wait()
                    attempt = 0
                    continue
                self._status("lost", attempt=attempt, delay=delay, code=code, reason=why)
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
        finally:
            self._status("closed")
            self._stopped.set()

    async def _give_up(self, route: Route) -> Route:
        """No node answered for :attr:`rounds` rounds: say so, and wait until asked to
        try again (:meth:`reconnect_now`); then start over from the same node."""
        self._status("gave-up", attempt=route.rounds, count=len(route.order))
        self._wake.clear()
        await self._wake.wait()
        return Route(route.order)

    async def close(self) -> None:
        """Stop for good: close the socket and end :meth:`run`."""
        self._closing = True
        self._wake.set()  # cut short a backoff pause
        if self._ws is not None:
            await self._ws.close()
        if self._loop is not None and not self._stopped.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), timeout=2)

    def request_link_code(self) -> None:
        """Ask for a code that carries this identity to another device (the answer
        is a ``LinkCodeIssued`` for the listeners)."""
        self.submit(p.LinkCode())

    def link_with(self, code: str) -> None:
        """Become the identity that showed ``code`` on another device: reconnect now
        with ``hello.link``. A refused code is a :class:`Refused` (``bad-link``) and
        the session goes on as before. Safe from any thread."""
        loop = self._loop
        if loop is None:
            self.link = code
            return

        def relink() -> None:
            self.link = code
            self._relink = True
            ws = self._ws
            if ws is not None:
                loop.create_task(ws.close(1000, "linking to another identity"))
            self._wake.set()

        loop.call_soon_threadsafe(relink)

    def list_devices(self) -> None:
        """Ask for this player's devices (the answer is a ``Devices`` for the listeners)."""
        self.submit(p.ListDevices())

    def sign_out_device(self, device: str) -> None:
        """Sign out one of this player's devices by its id: its token stops working (ours
        too, when it is this device: the server then closes this connection)."""
        self.submit(p.SignOutDevice(device=device))

    def reconnect_now(self) -> None:
        """Skip the rest of the current backoff pause (a UI's "retry now")."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def drop_connection(self) -> None:
        """Abort the socket without a closing handshake, as a network failure would
        (used by tests and by a UI's "reconnect now")."""
        if self._ws is not None:
            self._ws.transport.abort()

    async def _one_connection(self) -> str:
        """Run one connection to its end: ``welcomed`` (was up), ``failed`` or ``fatal``."""
        try:
            ws = await connect(
                self.url,
                compression=None,
                open_timeout=self.open_timeout,
                max_size=MAX_SERVER_FRAME,
            )
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as exc:
            self._status("failed", reason=str(exc))
            return "fatal" if isinstance(exc, InvalidURI) else "failed"
        self._ws = ws
        self._welcomed = False
        self._closed_by = None
        refresh = asyncio.ensure_future(served.refresh(self.url))  # this server's engines
        # Back in a room we were in: ask for what we missed, as events, from our seq on.
        since = self.room.seq if self.room is not None and self.token else None
        self._linking = self.link is not None
        hello = self._hello(since=since, link=self.link)
        outcome = "failed"
        try:
            await ws.send(p.encode(hello))
            async for frame in ws:
                result = self._on_frame(frame)
                if result == "welcomed":
                    outcome = "welcomed"
                elif result == "fatal":
                    outcome = "fatal"
                    await ws.close()
        except ConnectionClosed:
            pass
        finally:
            if self._welcomed:
                self.offline_since = self.clock()
            self._ws = None
            self._welcomed = False
            refresh.cancel()
        if ws.close_code is not None:
            self._closed_by = (ws.close_code, ws.close_reason or "")
        if ws.close_code == SIGNED_OUT:  # our token no longer works: next time, someone new
            self.token = None
            self.room = None
        return outcome


def _frame(msg: Request | dict[str, Any], req: int) -> bytes:
    """Encode an outgoing intent with request id ``req``, checked against the typed
    message first, so the contract's limits (name length, chat length ...) hold
    before it leaves."""
    raw = {**(msg if isinstance(msg, dict) else to_map(msg)), "id": req}
    cls = CLIENT_MESSAGES.get(str(raw.get("type")))
    if cls is None:
        raise ProtocolError("unknown-type", f"The client has no message {raw.get('type')!r}.")
    return p.encode(from_map(cls, raw))


def run_in_thread(session: Session) -> threading.Thread:
    """Run ``session`` on its own event loop in a daemon thread (for Tk).

    Listeners are then called on that thread: a Tk UI should hand each message
    to its main loop (e.g. put it on a ``queue.Queue`` polled with ``after``).
    Stop with ``asyncio.run_coroutine_threadsafe(session.close(), loop)``,
    where the loop is ``session.loop`` once started.
    """
    started = threading.Event()

    def target() -> None:
        async def main() -> None:
            session._loop = asyncio.get_running_loop()
            started.set()
            await session.run()

        asyncio.run(main())

    thread = threading.Thread(target=target, name="gridhall-session", daemon=True)
    thread.start()
    started.wait(5)
    return thread
