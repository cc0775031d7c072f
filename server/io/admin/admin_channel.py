"""The admin page's WebSocket, ``/admin``: sign in with the token, then live status
once a second and the operator's actions (PROTOCOL.md, "The admin channel").

Only a peer :meth:`~gridhall.server.core.admin_access.AdminAccess.peer_allowed` gets this
far (others are refused with 403 at the upgrade, in ``GameServer._http``). The first
frame must be ``admin-hello`` with the token, within :data:`HELLO_TIMEOUT` seconds.
The right token is taken at once, whatever wrong ones came before it; a wrong one is
refused (``admin-refused``) and the socket closed with 1008, its answer held back
while its address (or everyone) is sending wrong ones (``AdminAccess.check``).

Any local process shares the operator's address, so what a socket that has not
signed in may hold is kept apart from the signed-in pages, each stage bounded per
address and in total: sockets waiting to say ``admin-hello`` (past a bound the
oldest silent one of that address, or of all, is closed: the newest, the operator's,
always gets its turn), wrong ones waiting for their answer (past a bound the oldest is
answered now), and at most :data:`MAX_ADMINS` signed-in pages (one more is closed
with 1013; only pages that signed in count).

Frames are MessagePack maps as on the game socket. Nothing a page sends can raise out
of here: a malformed request gets ``bad-message`` (with its ``re`` whenever the frame
names an ``id``) and changes nothing. Every action, and every refused sign-in, goes
to the audit log (a store table and a log line).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ...core.gate import Gate
from ...core.limits import TokenBucket
from ..net.handshake import heard_from
from .admin_actions import AdminActions
from .admin_status import status

if TYPE_CHECKING:
    from ..net.app import GameServer

log = logging.getLogger("gridhall.admin")

HELLO_TIMEOUT = 5.0
STATUS_EVERY = 1.0
MAX_ADMINS = 8
"""Signed-in admin pages at once; one more is closed with 1013 (it signed in, but the
pages open stay: a page closed this way would come back and close another)."""
MAX_WAITING = 8
WAITING_PER_ADDRESS = 2
"""Admin sockets that have not said ``admin-hello`` yet, in all and per address."""
WAITING_IDLE = 1.0
WAITING_CEILING = 64
"""Past ``MAX_WAITING`` only a socket silent for ``WAITING_IDLE`` seconds is closed for
a newcomer (the operator's page says hello within milliseconds) unless ``WAITING_CEILING``
sockets wait: an attacker churning sockets from many addresses must open that many
within the operator's round trip to push the operator's page out."""
MAX_HELD = 16
HELD_PER_ADDRESS = 4
"""Wrong tokens whose answer is being held back, in all and per address."""
REFUSED_CLOSE = 1008
MAKE_ROOM_CLOSE = 1013
REQUESTS_PER_SECOND = 10.0
REQUEST_BURST = 30


def _request_id(msg: dict[str, Any]) -> int | None:
    rid = msg.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= p.MAX_ID:
        return rid
    return None


def error_frame(
    code: ErrorCode, message: str, re: int | None, retry_after: float | None = None
) -> bytes:
    return p.encode(p.Error(code=code.value, message=message, re=re, retry_after=retry_after))


class AdminChannel:
    """Serves every admin socket of one server."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.actions = AdminActions(server)
        self.open: set[ServerConnection] = set()
        """Every admin socket, signed in or not (closed when the server stops)."""
        self.signed_in: dict[ServerConnection, None] = {}
        """Signed-in pages, oldest first."""
        self.waiting: Gate[ServerConnection] = Gate(
            MAX_WAITING,
            WAITING_PER_ADDRESS,
            idle_after=WAITING_IDLE,
            heard=heard_from,
            evict_own=True,
            ceiling=WAITING_CEILING,
        )
        self.held: Gate[ServerConnection] = Gate(MAX_HELD, HELD_PER_ADDRESS, evict_own=True)
        self._answer_now: dict[ServerConnection, asyncio.Event] = {}

    def audit(self, address: str, action: str, detail: dict[str, Any], now: float) -> None:
        """One row in the audit log, and one log line."""
        log.info("admin %s from %s: %s", action, address, detail)
        try:
            self.server.store.admin.audit(now, address, action, detail)
        except Exception:
            log.exception("could not write the audit log")

    async def serve(self, ws: ServerConnection) -> None:
        """One admin socket, from the upgrade to its close."""
        peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        admitted, evicted = self.waiting.enter(ws, peer, time.monotonic())
        if evicted is not None:
            self._make_room(evicted, "other admin pages are signing in")
        if not admitted:  # all of its address's have spoken: they go first
            await ws.close(MAKE_ROOM_CLOSE, "too many admin pages are signing in")
            return
        self.open.add(ws)
        sender: asyncio.Task[None] | None = None
        lock = asyncio.Lock()
        try:
            if not await self._hello(ws, peer):
                return
            sender = asyncio.get_running_loop().create_task(self._status_loop(ws, lock))
            bucket = TokenBucket(REQUESTS_PER_SECOND, REQUEST_BURST, time.time())
            async for frame in ws:
                reply = self._request(frame, peer, bucket)
                async with lock:
                    for out in reply:
                        await ws.send(out)
        except ConnectionClosed:
            pass
        finally:
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender
            self.waiting.leave(ws)
            self.held.leave(ws)
            self.signed_in.pop(ws, None)
            self.open.discard(ws)

    @staticmethod
    def _make_room(ws: ServerConnection, reason: str) -> None:
        asyncio.get_running_loop().create_task(ws.close(MAKE_ROOM_CLOSE, reason))

    async def _hello(self, ws: ServerConnection, peer: str) -> bool:
        """Wait for ``admin-hello`` and check it; False (socket closed) if refused."""
        try:
            frame = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(REFUSED_CLOSE, f"no admin-hello within {HELLO_TIMEOUT:g} s")
            return False
        finally:
            self.waiting.leave(ws)
        now = time.time()
        rid: int | None = None
        try:
            msg = p.decode_map(frame)
            rid = _request_id(msg)
            token = msg.get("token")
            if (
                msg["type"] != "admin-hello"
                or not isinstance(token, str)
                or not 0 < len(token) <= 256
            ):
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, "Send admin-hello with the admin token first.", rid
                )
        except ProtocolError as exc:
            return await self._refuse(
                ws, peer, exc.code, exc.message, exc.request_id, now, "bad hello"
            )
        held = self.server.admin.check(peer, token, now)
        if held is not None:
            await self._hold(ws, peer, held)
            return await self._refuse(
                ws,
                peer,
                ErrorCode.ADMIN_REFUSED,
                "That is not this "
                "server's admin token; open the admin link the server "
                "printed at start.",
                rid,
                now,
                "wrong token",
            )
        if len(self.signed_in) >= MAX_ADMINS:  # only pages signed in with the token count
            self.audit(peer, "sign-in-refused", {"why": "too many pages"}, now)
            await ws.close(MAKE_ROOM_CLOSE, "too many admin pages are open")
            return False
        self.audit(peer, "sign-in", {}, now)
        self.signed_in[ws] = None
        await ws.send(
            p.encode_map({"type": "admin-welcome", "re": rid, "server": self.server.config.name})
        )
        return True

    async def _hold(self, ws: ServerConnection, peer: str, seconds: float) -> None:
        """Hold back the answer to a wrong token for ``seconds`` (sooner if more are held
        than the bounds allow: the oldest is answered to make room)."""
        if seconds <= 0:
            return
        admitted, evicted = self.held.enter(ws, peer, time.monotonic())
        if evicted is not None:
            self._answer_now.pop(evicted, asyncio.Event()).set()
        if not admitted:
            return
        event = self._answer_now[ws] = asyncio.Event()
        waits = {asyncio.ensure_future(event.wait()), asyncio.ensure_future(ws.wait_closed())}
        try:  # until its time, its turn (evicted), or the guesser is gone
            await asyncio.wait(waits, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
            self._answer_now.pop(ws, None)
            self.held.leave(ws)

    async def _refuse(
        self,
        ws: ServerConnection,
        peer: str,
        code: ErrorCode,
        message: str,
        rid: int | None,
        now: float,
        why: str,
        retry_after: float | None = None,
    ) -> bool:
        self.audit(peer, "sign-in-refused", {"why": why}, now)
        await ws.send(error_frame(code, message, rid, retry_after))
        await ws.close(REFUSED_CLOSE, "admin sign-in refused")
        return False

    async def _status_loop(self, ws: ServerConnection, lock: asyncio.Lock) -> None:
        while True:
            frame = self.status_frame()
            async with lock:
                await ws.send(frame)
            await asyncio.sleep(STATUS_EVERY)

    def status_frame(self) -> bytes:
        """A fresh ``admin-status`` (an ``internal-error`` should building it fail: a bug
        must not end the page's socket)."""
        try:
            return p.encode_map(status(self.server, time.time()))
        except Exception:
            log.exception("could not build the admin status")
            return error_frame(
                ErrorCode.INTERNAL_ERROR,
                "The server could not build its status; this is its own fault and has been logged.",
                None,
            )

    def _request(self, frame: bytes | str, peer: str, bucket: TokenBucket) -> list[bytes]:
        """The frames that answer one request from a signed-in page."""
        now = time.time()
        rid: int | None = None
        try:
            if not bucket.take(now):
                wait = round(bucket.retry_after(), 3)
                raise ProtocolError(
                    ErrorCode.RATE_LIMITED,
                    f"Too many admin requests; wait {wait:.1f} s.",
                    retry_after=wait,
                )
            msg = p.decode_map(frame)
            rid = _request_id(msg)
            if msg["type"] != "admin":
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    f"{msg['type'][:40]!r} is not an "
                    "admin request; send type 'admin' with an 'action'.",
                )
            action, detail = self.actions.run(msg, now)
        except ProtocolError as exc:
            rid = rid if rid is not None else exc.request_id
            return [error_frame(exc.code, exc.message, rid, exc.retry_after)]
        except Exception:  # a bug must not end the page's socket or the server
            log.exception("admin request from %s failed", peer)
            return [
                error_frame(
                    ErrorCode.INTERNAL_ERROR,
                    "The server failed on that request; this is its own fault and has been logged.",
                    rid,
                )
            ]
        self.audit(peer, action, detail, now)
        return [
            p.encode_map({"type": "admin-done", "re": rid, "action": action}),
            self.status_frame(),
        ]
