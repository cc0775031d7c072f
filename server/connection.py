"""One client connection: an outgoing queue so a slow reader never stalls a room.

This is the session's :class:`~gridhall.server.session.Link` in production."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from .config import ServerConfig

log = logging.getLogger("gridhall.connection")


class Connection:
    """Wraps a websocket: sends are queued and written by one task per connection."""

    def __init__(self, ws: ServerConnection, config: ServerConfig) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=config.send_queue)
        self.closed = False
        self._closer: asyncio.Task[None] | None = None
        self.peer = str(ws.remote_address[0]) if ws.remote_address else "?"
        self.writer = asyncio.create_task(self._write(), name=f"writer-{self.peer}")

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded frame for this client."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("dropping %s: it does not read its messages", self.peer)
            self.close(1008, "too slow reading messages")

    async def _write(self) -> None:
        try:
            while (frame := await self.queue.get()) is not None:
                await self.ws.send(frame)
        except ConnectionClosed:
            pass

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Flush what is queued (up to 2 s), then close with ``code``."""
        if self.closed:
            return
        self.closed = True
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.writer.cancel()
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, ConnectionClosed):
            await asyncio.wait_for(asyncio.shield(self.writer), 2)
        await self.ws.close(code, reason)

    async def wait_closed(self) -> None:
        """Wait for a close started by :meth:`close` to finish."""
        if self._closer is not None:
            await asyncio.shield(self._closer)

    async def drain(self) -> None:
        """Stop the writer after what is queued has been sent (on disconnect)."""
        self.closed = True
        self.writer.cancel()
