"""The client side of one connection to a gridhall server, shared by every UI.

A :class:`Session` owns the WebSocket: it says ``hello``, keeps the latest
``state`` for the room we are in and folds room events (``moved``, ``chat``,
``game-over`` ...) into it, asks for a ``sync`` when a room's ``seq`` skips,
and reconnects with the saved token (exponential backoff with jitter) when
the connection drops, so the server gives us our seat back.

It knows no game rules and no UI. A UI registers listeners (called on the
session's event loop after each message has been applied) and sends intents
with :meth:`Session.submit`, which is safe to call from any thread: the Tk
client runs the session in a background thread (:func:`run_in_thread`).

Besides server messages, listeners receive one local message type,
``connection`` {``status``: ``connecting`` | ``connected`` | ``lost`` |
``closed`` | ``failed``, ``attempt``?, ``delay``?, ``reason``?}, and local
``error`` messages with code ``offline`` for intents sent while disconnected.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from gridhall.protocol import (
    CLIENT_MESSAGES,
    MAX_SERVER_FRAME,
    PROTOCOL_VERSION,
    ProtocolError,
    decode_map,
    encode,
)
from gridhall.protocol.schema import from_map

Message = dict[str, Any]
Listener = Callable[[Message], None]
CHAT_KEEP = 200


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


@dataclass
class RoomCopy:
    """Our copy of a room: the last ``state`` with later events applied, plus the
    transient facts a UI shows but a snapshot does not carry."""

    room: str
    seq: int
    state: Message = field(default_factory=dict)
    again: list[str] = field(default_factory=list)
    """Players who asked for or agreed to another game since the last one ended."""
    declined: list[str] = field(default_factory=list)
    last_actions: dict[str, Message] = field(default_factory=dict)
    """Each player's latest accepted move, e.g. to mark others' clicks."""
    syncing: bool = False


class Session:
    """One player's connection; see the module docstring."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        token: str | None = None,
        backoff: Backoff | None = None,
        open_timeout: float = 5.0,
    ) -> None:
        self.url = url
        self.name = name
        self.token = token
        self.player: str | None = None
        self.server_name: str | None = None
        self.backoff = backoff or Backoff()
        self.open_timeout = open_timeout
        self.room: RoomCopy | None = None
        self._listeners: list[Listener] = []
        self._ws: ClientConnection | None = None
        self._welcomed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closing = False
        self._ids = itertools.count(1)
        self._requests: dict[int, str] = {}
        self._stopped = asyncio.Event()
        self._wake = asyncio.Event()

    # ---- what UIs read -------------------------------------------------------------

    @property
    def connected(self) -> bool:
        """True once ``welcome`` arrived on the current connection."""
        return self._ws is not None and self._welcomed

    @property
    def state(self) -> Message | None:
        """The current room's state (kept current by events), or None in the lobby."""
        return self.room.state if self.room else None

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the session runs on (for ``run_coroutine_threadsafe``)."""
        return self._loop

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    # ---- sending -------------------------------------------------------------------

    def submit(self, type_: str, **fields: Any) -> None:
        """Send an intent from any thread; errors come back through listeners."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("the session is not running")
        msg = {"type": type_, **fields}
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            loop.create_task(self.send(msg))
        else:
            loop.call_soon_threadsafe(lambda: loop.create_task(self.send(msg)))

    async def send(self, msg: Message) -> int | None:
        """Send ``msg`` now (on the session's loop); returns its request id, or None
        if we are offline (listeners then get an ``offline`` error)."""
        ws = self._ws
        if ws is None or not self._welcomed:
            self._emit(
                {
                    "type": "error",
                    "code": "offline",
                    "message": "Not connected to the server right now; "
                    "reconnecting, try again in a moment.",
                    "request": msg.get("type"),
                }
            )
            return None
        req = next(self._ids) & 0x7FFFFFFF
        try:
            frame = _frame({**msg, "id": req})
        except ProtocolError as exc:  # caught here, before the server has to say it
            self._emit(
                {
                    "type": "error",
                    "code": str(exc.code),
                    "message": exc.message,
                    "request": msg.get("type"),
                }
            )
            return None
        self._requests[req] = str(msg.get("type"))
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
        try:
            while not self._closing:
                self._emit({"type": "connection", "status": "connecting", "attempt": attempt})
                reason = await self._one_connection()
                if reason == "fatal" or self._closing:
                    break
                if reason == "welcomed":
                    attempt = 0
                delay = self.backoff.delay(attempt)
                attempt += 1
                self._emit(
                    {"type": "connection", "status": "lost", "delay": delay, "attempt": attempt}
                )
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
        finally:
            self._emit({"type": "connection", "status": "closed"})
            self._stopped.set()

    async def close(self) -> None:
        """Stop for good: close the socket and end :meth:`run`."""
        self._closing = True
        self._wake.set()  # cut short a backoff pause
        if self._ws is not None:
            await self._ws.close()
        if self._loop is not None and not self._stopped.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopped.wait(), timeout=2)

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
            self._emit({"type": "connection", "status": "failed", "reason": str(exc)})
            return "fatal" if isinstance(exc, InvalidURI) else "failed"
        self._ws = ws
        self._welcomed = False
        hello: Message = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name}
        if self.token:
            hello["token"] = self.token
        outcome = "failed"
        try:
            await ws.send(_frame(hello))
            async for frame in ws:
                if isinstance(frame, str):
                    continue  # the contract is binary only
                try:
                    msg = decode_map(frame, MAX_SERVER_FRAME)
                except ProtocolError:
                    continue
                if msg.get("type") == "welcome":
                    outcome = "welcomed"
                if self._on_message(msg) == "fatal":
                    outcome = "fatal"
                    await ws.close()
        except ConnectionClosed:
            pass
        finally:
            self._ws = None
            self._welcomed = False
        if self.room is not None and outcome != "fatal":
            self.room.syncing = True  # the resent state after resume replaces it
        return outcome

    # ---- applying server messages --------------------------------------------------

    def _emit(self, msg: Message) -> None:
        for listener in list(self._listeners):
            try:
                listener(msg)
            except Exception:  # noqa: BLE001 - a UI bug must not kill the connection
                import traceback

                traceback.print_exc()

    def _on_message(self, msg: Message) -> str | None:
        kind = msg.get("type")
        if kind == "welcome":
            self.player = msg.get("player")
            self.token = msg.get("token") or self.token
            self.server_name = msg.get("server")
            self._welcomed = True
            self._emit({"type": "connection", "status": "connected"})
            if self.room is not None and self._loop is not None:
                self._loop.call_later(1.5, self._sync_if_stale, self.room)
        elif kind == "error":
            if isinstance(msg.get("re"), int):
                msg = {**msg, "request": self._requests.get(msg["re"])}
            if msg.get("code") == "not-in-room" and self.room is not None:
                self.room = None  # our room is gone (e.g. while we were away)
            if msg.get("code") == "version-mismatch":
                self._emit(msg)
                return "fatal"
        elif "room" in msg and isinstance(msg.get("seq"), int):
            self._apply_room_event(msg)
        self._emit(msg)
        return None

    def _is_me(self, msg: Message) -> bool:
        who = msg.get("player")
        return who is None or who == self.player

    def _apply_room_event(self, msg: Message) -> None:
        kind, room_id, seq = msg["type"], msg["room"], msg["seq"]
        if kind == "state":
            self._apply_state(msg)
            return
        if kind == "joined" and self._is_me(msg):
            if self.room is None or self.room.room != room_id:
                self.room = RoomCopy(room=room_id, seq=seq, syncing=True)
            return
        if kind == "left" and self._is_me(msg):
            if self.room is not None and self.room.room == room_id:
                self.room = None
            return
        copy = self.room
        if copy is None or copy.room != room_id:
            return
        if seq <= copy.seq and not copy.syncing:
            return  # already covered by the snapshot we hold
        gap = seq > copy.seq + 1
        copy.seq = max(copy.seq, seq)
        if gap and not copy.syncing:
            self._request_sync(copy)
            return
        if not copy.state:
            return  # nothing to fold into until the snapshot arrives
        self._fold(copy, msg)

    def _apply_state(self, msg: Message) -> None:
        room_id = msg["room"]
        copy = self.room
        if copy is None or copy.room != room_id:
            copy = self.room = RoomCopy(room=room_id, seq=msg["seq"])
        fresh_game = copy.state.get("round") != msg.get("round") or (
            msg.get("status") != "over" and copy.state.get("status") == "over"
        )
        if fresh_game:
            copy.again.clear()
            copy.declined.clear()
            copy.last_actions.clear()
        copy.state = dict(msg)
        copy.state["chat"] = list(msg.get("chat") or [])
        copy.seq = msg["seq"]
        copy.syncing = False
        if isinstance(msg.get("pending_again"), list):
            copy.again = [str(p) for p in msg["pending_again"]]

    def _sync_if_stale(self, copy: RoomCopy) -> None:
        """After a resume the server resends our room's state; ask if it did not."""
        if self.room is copy and copy.syncing and self.connected:
            self._request_sync(copy)

    def _request_sync(self, copy: RoomCopy) -> None:
        copy.syncing = True
        if self._loop is not None:
            self._loop.create_task(self.send({"type": "sync"}))

    def _fold(self, copy: RoomCopy, msg: Message) -> None:
        """Apply one room event to the copied state (no game rules: only fields the
        event carries, plus whose turn it is from the view's own ``next``)."""
        state, kind = copy.state, msg["type"]
        if kind == "moved":
            if isinstance(msg.get("view"), dict):
                state["view"] = msg["view"]
            if "turn" in msg:
                state["turn"] = msg["turn"]
            else:
                state["turn"] = turn_from_view(state.get("view") or {})
            if "status" in msg:
                state["status"] = msg["status"]
            if isinstance(msg.get("by"), str):
                copy.last_actions[msg["by"]] = dict(msg.get("move") or {})
        elif kind == "game-over":
            state["status"] = "over"
            state["result"] = msg.get("result") or {}
            state.pop("turn", None)
            copy.again.clear()
            copy.declined.clear()
        elif kind == "chat":
            chat = state.setdefault("chat", [])
            chat.append({k: msg.get(k) for k in ("from", "name", "text", "ts")})
            del chat[:-CHAT_KEEP]
        elif kind == "player-info":
            for p in state.get("players") or []:
                if p.get("player") == msg.get("player"):
                    p.update({k: v for k, v in msg.items() if k in ("name", "color", "connected")})
                    break
            else:
                self._request_sync(copy)
        elif kind in ("joined", "left"):
            self._request_sync(copy)  # someone else came or went: take a fresh roster
        elif kind in ("play-again", "agree-again"):
            who = msg.get("from") or msg.get("player")
            if isinstance(who, str) and who not in copy.again:
                copy.again.append(who)
        elif kind == "decline-again":
            who = msg.get("from") or msg.get("player")
            if isinstance(who, str):
                copy.declined.append(who)
        elif kind == "offer":
            view = state.setdefault("view", {})
            view["pending"] = {"kind": msg.get("kind"), "from": msg.get("from")}
        elif kind == "answer":
            (state.get("view") or {}).pop("pending", None)


def _frame(msg: Message) -> bytes:
    """Encode an outgoing intent through the typed message, so the contract's
    limits (name length, chat length ...) are checked before it leaves."""
    cls = CLIENT_MESSAGES.get(msg["type"])
    if cls is None:
        raise ProtocolError("unknown-type", f"The client has no message {msg['type']!r}.")
    return encode(from_map(cls, msg))


def turn_from_view(view: Message) -> str | None:
    """Whose turn a turn-based view implies (``next`` colour -> player), if any."""
    nxt, colors = view.get("next"), view.get("colors")
    if isinstance(nxt, str) and isinstance(colors, dict):
        for player, color in colors.items():
            if color == nxt:
                return str(player)
    return None


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
