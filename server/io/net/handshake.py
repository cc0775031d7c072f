"""Sockets before the WebSocket handshake: bounded in number, bytes and time.

A stranger can open a TCP connection and send a request head slowly, or a huge
one, without ever finishing it. websockets itself allows about 1 MiB of headers
per socket and keeps them in memory, and the server once held 1.1 GiB for
1,000 such sockets. Here each socket is a :class:`GuardedConnection` (the
``create_connection`` class given to ``serve()``):

- it waits in a :class:`~.gate.Gate` from ``connection_made`` until its request
  has been read: an address past its own bound is cut at once, and past the
  total the oldest waiter that has waited ``grace`` seconds is cut to let the
  newcomer in (younger ones are not: a crowd reconnecting at once keeps the event
  loop behind, and their requests are on their way), up to a hard ceiling that
  keeps file descriptors for the open connections;
- it may send at most ``max_request_head`` bytes before its request is read,
  else it is cut (no answer: it is not a request we could read);
- ``serve()``'s ``open_timeout`` cuts it if the handshake takes longer.

After the handshake, a read (up to 64 KiB, :data:`READ_SIZE`) is handed to websockets' parser a slice
at a time (:data:`FEED_SLICE`): once the connection's queue of frames is full (the
``max_queue`` given to ``serve()``) the rest of the read is held back, unparsed, and
the socket is not read again until the session has taken frames. websockets itself
parses a whole read at once: a 128 KB read of tiny frames was ~4,400 frames parsed and
queued in one callback of ~120 ms, a stall of the event loop for everyone (issue 41,
item 10).

Cut sockets are aborted (RST, no lingering close), which frees their buffers at
once; the server then hands the freed heap back to the OS (``on_freed``).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, cast

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.frames import Frame, Opcode
from websockets.protocol import Event, State

try:  # websockets' C unmasking, as its own parser uses (built with it on every wheel)
    from websockets.speedups import apply_mask
except ImportError:
    from websockets.utils import apply_mask

from ...core.gate import Gate

try:
    import fcntl
    import termios
except ImportError:  # Windows: unread bytes are not looked at
    fcntl = None  # type: ignore[assignment]


FEED_SLICE = 1024
"""Bytes parsed at a time after the handshake: at most ~150 frames (the smallest a
client can send is 7 bytes) before the queue is looked at again."""


class HandshakeGuard:
    """The server's sockets before the handshake, and what each may send."""

    def __init__(
        self,
        total: int,
        per_address: int,
        max_request_head: int,
        on_freed: Callable[[int], None] | None = None,
        grace: float = 0.0,
    ) -> None:
        self.gate: Gate[GuardedConnection] = Gate(total, per_address, idle_after=grace)
        self.max_request_head = max_request_head
        self.on_freed = on_freed
        """Called with the bytes a dropped pending socket had sent (for a trim)."""
        self.refused = 0
        """Sockets cut: an address over its bound, the oldest past the total, or too
        many bytes before the request was read (for logs and benchmarks)."""

    def connection_class(self) -> type[GuardedConnection]:
        """A ``create_connection`` class for ``serve()`` bound to this guard."""
        return type("Guarded", (GuardedConnection,), {"guard": self})


READ_SIZE = 64 * 1024
"""Bytes asyncio's transport reads from a socket at once (its own default: 256 KiB)."""


def read_from_the_heap(transport: asyncio.BaseTransport) -> None:
    """asyncio reads each time into a new ``bytes`` of its read size, then shrinks it to
    what came. 256 KiB is above glibc's threshold for ``mmap``: unless something once
    freed a bigger block (which raises that threshold for good), every read of a move
    costs an ``mmap``, an ``mremap`` and a ``munmap``, some 20 us of the kernel's time.
    64 KiB, the largest frame a client may send, comes from the heap. (uvloop reads
    into a buffer of its own: nothing to do there.)"""
    if getattr(transport, "max_size", None) is not None:
        with contextlib.suppress(AttributeError):
            transport.max_size = READ_SIZE  # type: ignore[attr-defined]


class GuardedConnection(ServerConnection):
    """A server connection that waits in its guard's gate until its request is read."""

    guard: ClassVar[HandshakeGuard]
    __slots__ = ("_direct", "_head", "_held", "_refused", "heard", "on_frame")
    """Slots, not the instance's ``__dict__``: websockets' connection already has some
    27 attributes, and more set after ``__init__`` cost every connection about 1.5 KiB
    (its dict no longer shares its keys with the others')."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._head = 0
        """Bytes received before the request was read."""
        self._refused = False
        """Cut in ``connection_made``, before websockets set anything up for it."""
        self.heard = False
        """Bytes came after the handshake (a ``hello`` on its way in, perhaps not yet
        read by the server): the connection is not idle (``server/core/gate.py``)."""
        self.on_frame: Callable[[bytes], bool] | None = None
        """Set by the server for a game connection: a whole binary frame is handed to
        it from ``data_received`` itself, without websockets' queue, the handler task's
        wake-up and its ``recv`` (about a tenth of a move's CPU). Only the first frame
        of each read, and only while nothing is queued, so the order is kept and a
        burst still goes one frame per turn through the handler task; anything else
        (text, fragments, control frames) takes websockets' own path, and so does a
        frame ``on_frame`` declines (returns False: a cluster node's frame that may be
        relayed, which the handler task hands on)."""
        self._direct = False
        """Within ``data_received``, before its first data frame."""
        self._held = b""
        """Bytes read but not parsed: the queue of frames was full (see the module)."""
        super().__init__(*args, **kwargs)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        admitted, evicted = self.guard.gate.enter(self, address, time.monotonic())
        if evicted is not None:
            self.guard.refused += 1
            evicted.transport.abort()
        if not admitted:  # the cheapest refusal: no handler task, no handshake
            self.guard.refused += 1
            self._refused = True
            cast(asyncio.Transport, transport).abort()
            return
        read_from_the_heap(transport)
        super().connection_made(transport)
        self.recv_messages.resume = self._resume_reading

    def data_received(self, data: bytes) -> None:
        if self.request is not None:
            self.heard = True
            if self._held:  # (reading is paused: this came with the same read)
                self._held += data
                return
            if self.on_frame is not None and self._whole_frame(data):
                return
            self._direct = self.on_frame is not None
            try:
                self._feed(data)
            finally:
                self._direct = False
            return
        self._head += len(data)
        if self._head > self.guard.max_request_head:
            self.guard.refused += 1
            self._passed()
            self.transport.abort()
            return
        super().data_received(data)

    def _whole_frame(self, data: bytes) -> bool:
        """A read that is exactly one small binary frame, whole and unfragmented (a
        move), arriving at a frame's boundary while nothing is queued: its payload goes
        to ``on_frame`` without websockets' parser, which would have read the same
        header, checked the same bounds and left its state as it was (it ends at the
        next frame's boundary; no fragment in progress). About a twelfth of a move's
        CPU. Anything else (text, control frames, fragments, several frames or part
        of one, a closing connection) returns False: websockets' own path."""
        if len(data) < 6 or data[0] != 0x82:  # FIN, no RSV bits, binary
            return False
        length = data[1] ^ 0x80  # a client's frame is masked: >= 128 here if it was not
        if length < 126:
            start = 6
        elif length == 126 and len(data) >= 8:
            length, start = int.from_bytes(data[2:4], "big"), 8
        else:
            return False
        protocol = self.protocol
        most, fragment = protocol.max_message_size, protocol.max_fragment_size
        if (
            len(data) != start + length
            or (most is not None and length > most)
            or (fragment is not None and length > fragment)
            or protocol.state is not State.OPEN
            or protocol.current_size is not None
            or protocol.parser_exc is not None
            or protocol.extensions
            or protocol.reader.buffer
            or self.recv_messages.frames.queue
        ):
            return False
        assert self.on_frame is not None
        return self.on_frame(apply_mask(data[start:], data[start - 4 : start]))

    def _feed(self, data: bytes) -> None:
        """Parse ``data`` a slice at a time; once the queue of frames is full, hold the
        rest back (reading is paused then) until the session takes frames."""
        for at in range(0, len(data), FEED_SLICE):
            if at and self.recv_messages.paused:
                self._held = data[at:]
                return
            super().data_received(data[at : at + FEED_SLICE])

    def _resume_reading(self) -> None:
        """The session took frames (the queue is low): parse what was held back, in a
        turn of its own, before reading more."""
        if self._held:
            self.loop.call_soon(self._feed_held)
        else:
            self.transport.resume_reading()

    def _feed_held(self) -> None:
        held, self._held = self._held, b""
        if not held or self.transport.is_closing():
            return
        self._feed(held)
        if not self._held and not self.recv_messages.paused:
            self.transport.resume_reading()

    def process_event(self, event: Event) -> None:
        if self._direct:
            self._direct = False
            if (
                type(event) is Frame
                and event.opcode is Opcode.BINARY
                and event.fin
                and not self.recv_messages.frames.queue
                and self.on_frame is not None
                and self.on_frame(bytes(event.data))
            ):
                return
        if self.request is None:  # the first event is the request: the head is read
            self._passed(dropped=False)
        super().process_event(event)

    def wake_reader(self) -> None:
        """Hand the handler task an empty frame, so that it looks at its connection
        again (closed by a frame ``on_frame`` took) and stops reading, as it would
        have after handling that frame itself."""
        with contextlib.suppress(EOFError):
            self.recv_messages.put(Frame(Opcode.BINARY, b""))

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:
            return  # websockets never saw it
        self._passed()
        super().connection_lost(exc)

    def _passed(self, dropped: bool = True) -> None:
        """Out of the gate: its request was read, or (``dropped``) it is gone."""
        self.guard.gate.leave(self)
        if dropped and self._head and self.guard.on_freed is not None:
            self.guard.on_freed(self._head)
        self._head = 0


_NO_HEADERS = Headers()


def forget_handshake(ws: ServerConnection) -> None:
    """Let go of the handshake's request and response headers once a game connection
    is past its checks (Host, Origin, the admin path): nothing reads them again, and
    websockets keeps both for the connection's life, some 2.5 KB a player."""
    if ws.request is not None:
        ws.request.headers = _NO_HEADERS
    if ws.response is not None:
        ws.response.headers = _NO_HEADERS


def heard_from(ws: ServerConnection) -> bool:
    """Has ``ws`` sent anything since its handshake, even bytes still in the kernel's
    buffer that the event loop has not read yet (a crowd arriving at once keeps the
    loop behind)?"""
    if getattr(ws, "heard", False):
        return True
    return unread_bytes(ws.transport) > 0


def unread_bytes(transport: asyncio.BaseTransport | None) -> int:
    """Bytes the kernel holds for this socket that nobody has read yet (0 if unknown)."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None or fcntl is None:
        return 0
    try:
        packed = fcntl.ioctl(sock.fileno(), termios.FIONREAD, b"\0\0\0\0")
    except (OSError, ValueError):
        return 0
    return int.from_bytes(packed, sys.byteorder, signed=True)


def deepen_backlog(listening: Iterable[socket.socket], backlog: int) -> None:
    """Let the kernel queue ``backlog`` connections on each listening socket.

    asyncio uses one number both for the kernel's queue and for how many sockets
    it accepts in one turn of the loop; its default (100) keeps a turn short, but
    a burst of attackers' connects then fills the queue and new players' SYNs are
    dropped (retried after 1 s, 3 s ...). Listening again on a duplicate of the
    socket deepens the kernel's queue only."""
    for sock in listening:
        with contextlib.suppress(OSError), sock.dup() as same:
            same.listen(backlog)
