"""The admin page's WebSocket, ``/admin``: sign in with the token, then live status
once a second and the operator's actions (PROTOCOL.md, "The admin channel").

Only a peer :meth:`~gridhall.server.core.admin_access.AdminAccess.peer_allowed` gets this
far (others are refused with 403 at the upgrade, in ``GameServer._http``). The first
frame must be ``admin-hello`` with the token, within :data:`HELLO_TIMEOUT` seconds;
a wrong one is refused (``admin-refused``, the address's backoff grows; past it
``rate-limited`` with ``retry_after``) and the socket closed with 1008. Frames are
MessagePack maps as on the game socket. Nothing a page sends can raise out of here:
a malformed request gets ``bad-message`` and changes nothing. Every action, and
every refused sign-in, goes to the audit log (a store table and a log line).
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

from ..core.limits import TokenBucket
from .admin_actions import AdminActions
from .admin_status import status

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("gridhall.admin")

HELLO_TIMEOUT = 5.0
STATUS_EVERY = 1.0
MAX_ADMINS = 8
"""Admin sockets open at once (signed in or not); past it the newcomer is closed."""
REFUSED_CLOSE = 1008
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
        if len(self.open) >= MAX_ADMINS:
            await ws.close(1013, "too many admin pages are open")
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
            self.open.discard(ws)

    async def _hello(self, ws: ServerConnection, peer: str) -> bool:
        """Wait for ``admin-hello`` and check it; False (socket closed) if refused."""
        try:
            frame = await asyncio.wait_for(ws.recv(), HELLO_TIMEOUT)
        except TimeoutError:
            await ws.close(REFUSED_CLOSE, f"no admin-hello within {HELLO_TIMEOUT:g} s")
            return False
        now = time.time()
        access = self.server.admin
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
                    ErrorCode.BAD_MESSAGE, "Send admin-hello with the admin token first."
                )
        except ProtocolError as exc:
            return await self._refuse(ws, peer, exc.code, exc.message, rid, now, "bad hello")
        wait = access.wait(peer, now)
        if wait > 0:
            return await self._refuse(
                ws,
                peer,
                ErrorCode.RATE_LIMITED,
                f"Too many wrong admin tokens from your address; wait {wait:.0f} s.",
                rid,
                now,
                "rate-limited",
                retry_after=round(wait, 3),
            )
        if not access.attempt(peer, token, now):
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
        self.audit(peer, "sign-in", {}, now)
        await ws.send(
            p.encode_map({"type": "admin-welcome", "re": rid, "server": self.server.config.name})
        )
        return True

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
