"""Glue between the networking thread and the Tk thread.

Tk may only be touched from the thread that created it, and a slow or vanished
server must never freeze the window. So the shared :class:`client.session.Session`
runs on its own asyncio loop in a daemon thread (:func:`client.session.run_in_thread`);
its listener puts each message, with a snapshot of what the UI may know, on a
:class:`queue.Queue`, and the Tk side drains that queue from ``after()``.
Messages and room copies are immutable (the session replaces its
:class:`~client.room.RoomCopy` on every event, never edits it), so a snapshot
is a few references: no locks, no deep copies.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import tkinter as tk
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gridhall.client.messages import Event, Request
from gridhall.client.room import RoomCopy
from gridhall.client.session import Session, run_in_thread

POLL_MS = 25
MAX_PER_POLL = 200
"""Messages handled per poll; the rest wait for the next tick so input stays responsive."""


@dataclass(frozen=True)
class Snapshot:
    """What the UI may know after a message, taken on the session thread (the room
    copy is immutable, so the Tk thread may read it freely)."""

    player: str | None
    connected: bool
    room: RoomCopy | None
    server_name: str | None = None
    offline_since: float | None = None
    """When the connection dropped (None while connected): clocks stand still then."""


Handler = Callable[[Event, Snapshot], None]


@dataclass(frozen=True)
class Sent:
    """A request :meth:`Bridge.ask` sent went out with id ``req`` (None: refused
    before leaving); queued behind the messages that came before it."""

    req: int | None
    then: Callable[[int | None], None]


class Bridge:
    """Runs a session in the background and hands its messages to ``handler`` on
    the Tk thread; :meth:`submit` sends intents from the Tk thread without blocking."""

    def __init__(self, session: Session, root: tk.Misc, handler: Handler) -> None:
        self.session = session
        self.root = root
        self.handler = handler
        self.latest = Snapshot(player=None, connected=False, room=None)
        self._queue: queue.Queue[tuple[Event | Sent, Snapshot]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._after: str | None = None
        self._closed = False
        session.add_listener(self._listen)

    def start(self) -> None:
        """Start the network thread and the polling loop."""
        self._thread = run_in_thread(self.session)
        self._schedule()

    def _listen(self, msg: Event) -> None:
        """Runs on the session thread: note everything the UI may look at."""
        s = self.session
        snap = Snapshot(
            player=s.player,
            connected=s.connected,
            room=s.room,
            server_name=s.server_name,
            offline_since=s.offline_since,
        )
        self._queue.put((msg, snap))

    def _schedule(self) -> None:
        if not self._closed:
            with contextlib.suppress(tk.TclError):
                self._after = self.root.after(POLL_MS, self.poll)

    def poll(self) -> int:
        """Hand queued messages to the handler (on the Tk thread); returns how many."""
        handled = 0
        try:
            while handled < MAX_PER_POLL:
                try:
                    msg, snap = self._queue.get_nowait()
                except queue.Empty:
                    break
                handled += 1
                if isinstance(msg, Sent):
                    msg.then(msg.req)
                    continue
                self.latest = snap
                try:
                    self.handler(msg, snap)
                except tk.TclError:
                    if self._closed:
                        break
                    raise
        finally:
            self._schedule()
        return handled

    def submit(self, request: Request | str, **fields: Any) -> None:
        """Queue an intent for the server (a typed request, or a type and its fields);
        never blocks the UI."""
        if self.session.loop is not None:
            self.session.submit(request, **fields)

    def ask(self, request: dict[str, Any], then: Callable[[int | None], None]) -> None:
        """Send a request whose answer is wanted (it echoes the id as ``re``): ``then``
        gets the id on the Tk thread, or None if it was not sent."""
        loop = self.session.loop
        if loop is None or not loop.is_running():
            then(None)
            return

        async def send() -> None:
            req = await self.session.send(request)
            self._queue.put((Sent(req, then), self.latest))

        asyncio.run_coroutine_threadsafe(send(), loop)

    def reconnect_now(self) -> None:
        self.session.reconnect_now()

    def close(self, timeout: float = 3.0) -> None:
        """Stop polling and close the connection (waits briefly for a clean close)."""
        self._closed = True
        if self._after is not None:
            with contextlib.suppress(tk.TclError):
                self.root.after_cancel(self._after)
        loop = self.session.loop
        if loop is not None and loop.is_running():
            future = asyncio.run_coroutine_threadsafe(self.session.close(), loop)
            with contextlib.suppress(Exception):
                future.result(timeout)
        if self._thread is not None:
            self._thread.join(timeout)
