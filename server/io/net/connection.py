"""One client connection: frames go straight to the socket while it keeps up, and
into a queue bounded in bytes only under backpressure, so a slow reader never
stalls a room and never holds more than ``send_queue_bytes`` of memory.

This is the session's :class:`~gridhall.server.core.session.Link` in production.
A frame is written at once (no task switch, no coroutine) when nothing is
queued and the transport is not paused; otherwise it waits in the queue, which
a writer task (started only then, ended when the queue is empty) drains with
flow control. Order is kept either way: while anything is queued, new frames
queue behind it. A client that lets its queue grow past the limit is dropped
(1008, "too slow reading messages"): its queue is emptied at once, and nothing
it leaves behind forms a reference cycle, so its memory goes back without
waiting for the garbage collector.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from ...core.config import ServerConfig

log = logging.getLogger("gridhall.connection")

CLOSE_WAIT = 2.0
"""Seconds a closing handshake may take before the socket is cut."""


class Connection:
    """Wraps a websocket; see the module docstring."""

    __slots__ = (
        "__weakref__",
        "_closer",
        "closed",
        "frames",
        "limit",
        "peer",
        "queued",
        "released",
        "writer",
        "ws",
    )

    def __init__(self, ws: ServerConnection, config: ServerConfig) -> None:
        self.ws: ServerConnection | None = ws
        self.frames: deque[bytes] | None = None
        """Frames waiting for the transport to take more (backpressure); made when the
        first one must wait (an empty deque is some 600 bytes a connection)."""
        self.queued = 0
        """Bytes in ``frames``."""
        self.limit = config.send_queue_bytes
        self.closed = False
        self.released = 0
        """Bytes that were still queued when the connection ended (freed then)."""
        self._closer: asyncio.Task[None] | None = None
        self.writer: asyncio.Task[None] | None = None
        """Drains ``frames``; exists only while something is queued."""
        self.peer = str(ws.remote_address[0]) if ws.remote_address else "?"

    def send_frame(self, frame: bytes) -> None:
        """Send an encoded frame to this client: now if the socket keeps up, else
        queued (dropping the client if it reads too slowly)."""
        if self.closed:
            return
        ws = self.ws
        if ws is None:
            return
        if not self.frames and not ws.paused and ws.protocol.state is State.OPEN:
            if ws.protocol.extensions:
                ws.protocol.send_binary(frame)
                ws.send_data()
            else:
                ws.transport.write(binary_frame(frame))
            return
        if self.queued + len(frame) > self.limit:
            log.warning("dropping %s: %d bytes wait for it to read", self.peer, self.queued)
            self.close(1008, "too slow reading messages", flush=False)
            return
        if self.frames is None:
            self.frames = deque()
        self.frames.append(frame)
        self.queued += len(frame)
        if self.writer is None:
            self.writer = asyncio.get_running_loop().create_task(self._write(ws))

    async def _write(self, ws: ServerConnection) -> None:
        """Write queued frames in order, with flow control, until none is left."""
        frames = self.frames
        try:
            while frames:
                frame = frames.popleft()
                self.queued -= len(frame)
                await ws.send(frame)
                del frame
        except ConnectionClosed:
            pass
        finally:
            if self.writer is asyncio.current_task():
                self.writer = None

    def close(self, code: int = 1000, reason: str = "", flush: bool = True) -> None:
        """Close with ``code``: after what is queued is written (up to
        :data:`CLOSE_WAIT` s) if ``flush``, else at once (the queue is freed now)."""
        if self.closed:
            return
        self.closed = True
        if not flush:
            self._release()
        self._closer = asyncio.get_running_loop().create_task(self._close(code, reason))

    def _release(self) -> None:
        """Free the queue and stop the writer now."""
        self.released = max(self.released, self.queued)
        if self.frames is not None:
            self.frames.clear()  # the writer's hold on them too
            self.frames = None
        self.queued = 0
        if self.writer is not None:
            self.writer.cancel()
            self.writer = None

    async def _close(self, code: int, reason: str) -> None:
        ws, writer = self.ws, self.writer
        if ws is None:
            return
        if writer is not None and not writer.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, ConnectionClosed):
                await asyncio.wait_for(asyncio.shield(writer), CLOSE_WAIT)
            writer.cancel()
        self._release()
        try:
            await asyncio.wait_for(ws.close(code, reason), CLOSE_WAIT)
        except (TimeoutError, ConnectionClosed, OSError):
            pass
        finally:
            if ws.transport is not None:
                ws.transport.abort()  # a peer that never reads never acknowledges the close

    async def wait_closed(self) -> None:
        """Wait for a close started by :meth:`close` to finish."""
        if self._closer is not None:
            await asyncio.shield(self._closer)

    async def drain(self) -> None:
        """The peer is gone: stop the writer and free what it never read."""
        self.closed = True
        self._release()

    def detach(self) -> None:
        """Forget the websocket and tasks once the connection is over, so nothing
        refers back (the tasks may outlive it a little)."""
        self._release()
        self._closer = None
        self.ws = None


def binary_frame(payload: bytes) -> bytes:
    """``payload`` as one unmasked, final binary WebSocket frame (RFC 6455 5.2), as
    websockets' own ``send_binary`` would write it without extensions, made in one
    step: a server sends two of these per move."""
    size = len(payload)
    if size < 126:
        return bytes((0x82, size)) + payload
    if size < 1 << 16:
        return b"\x82\x7e" + size.to_bytes(2, "big") + payload
    return b"\x82\x7f" + size.to_bytes(8, "big") + payload
