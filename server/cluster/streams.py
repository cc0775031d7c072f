"""The relay's Redis streams, signed and bounded (docs/cluster.md, "Relay").

One writer per node puts messages on the streams in the order they were made, each
signed with the cluster secret (:mod:`.signing`); one reader per node reads the streams
it wants and hands on the messages meant for it whose signature is right (the others
are ignored, and counted in the log). What the writer holds is bounded in bytes:

- **waiting for Redis** (the outbox): one connection may have at most ``per_link``
  bytes waiting (the server's ``send_queue_bytes``, what a local client's send queue
  may hold) and the node :data:`OUTBOX_BYTES` in all. :meth:`StreamWriter.full` says
  when a connection is past its share: the edge then stops reading that client's socket
  until Redis has taken what waits (back-pressure), the owner closes that client's
  session (1013). Nothing waits longer than Redis's timeout: a write that fails drops
  the whole outbox and every relayed client reconnects.
- **in Redis**: of the messages this node wrote, each stream keeps at most
  :data:`STREAM_BYTES` (the oldest are trimmed, the newest never) and all streams
  together :data:`STREAM_TOTAL`; a stream nobody writes to expires
  :data:`STREAM_TTL_MS` after its last message. Messages are read within milliseconds
  of being written, so only a reader that fell far behind loses any; it sees the gap in
  the sequence numbers and its client reconnects to resync (as for any lost message).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError

from .lease import as_text as _text
from .signing import Part, Signer

log = logging.getLogger("gridhall.cluster.relay")

OUTBOX_BYTES = 32 * 2**20
"""What one node may hold for Redis at once, all connections together."""
STREAM_BYTES = 4 * 2**20
"""What one stream keeps of the messages one node wrote to it."""
STREAM_TOTAL = 64 * 2**20
"""What all streams keep of the messages one node wrote."""
STREAM_TTL_MS = 120_000
"""A stream nobody wrote to for this long is gone (a room's, after it closed)."""
MAXLEN = 10_000
"""Messages a stream keeps at most, whatever their size (trimmed approximately)."""
SIGNATURE = "h"
"""The field that carries a message's signature."""
BLOCK_MS = 100
"""How long one read of the streams waits for news (a new stream is read from the next
read on)."""
GUARDED_ADD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
return redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 2))
"""
"""XADD only while the guard key exists (a message that matters only while its room
lives never makes the stream again after the room's keys were deleted)."""


@dataclass(eq=False)
class Share:
    """What one connection has waiting for Redis (bytes)."""

    waiting: int = 0


@dataclass
class _Kept:
    """What Redis keeps of the messages this node wrote to one stream."""

    ids: deque[tuple[bytes, int]]
    size: int = 0
    at: float = 0.0
    """When this node last wrote to it (``time.monotonic()``)."""


_Queued = tuple[str, dict[str, Part], "Share | None", int, "str | None"]
"""An outbox entry: stream, fields, the connection's share, size, guard key."""


def _size(fields: dict[str, Part]) -> int:
    return sum(len(k) + (len(v) if isinstance(v, (bytes, str)) else 8) for k, v in fields.items())


class StreamWriter:
    """See the module docstring."""

    def __init__(
        self,
        redis: Any,
        signer: Signer,
        per_link: int,
        lost: Callable[[], None],
        budgets: tuple[int, int, int] = (OUTBOX_BYTES, STREAM_BYTES, STREAM_TOTAL),
    ) -> None:
        """``budgets``: what the outbox, one stream and all streams may hold (bytes)."""
        self.redis = redis
        self.signer = signer
        self.per_link = per_link
        self.outbox_bytes, self.stream_bytes, self.stream_total = budgets
        self.lost = lost
        """Called when Redis refused a batch (those messages are gone)."""
        self.waiting = 0
        """Bytes in the outbox."""
        self._outbox: list[_Queued] = []
        self._wrote = asyncio.Event()
        self._drained = asyncio.Event()
        self._kept: dict[str, _Kept] = {}
        self.kept = 0
        """Bytes Redis keeps of what this node wrote (all streams)."""
        self._pruned = time.monotonic()

    def add(
        self, key: str, fields: dict[str, Part], share: Share | None, guard: str | None = None
    ) -> None:
        """Queue one message for ``key``, signed; counted in ``share``. With ``guard``,
        the message is written only if that key still exists when it is written."""
        fields[SIGNATURE] = self.signer.sign_fields(key, fields)
        size = _size(fields)
        self._outbox.append((key, fields, share, size, guard))
        self.waiting += size
        if share is not None:
            share.waiting += size
        self._wrote.set()

    def full(self, share: Share) -> bool:
        """Whether ``share``'s connection is past what it may have waiting."""
        return share.waiting >= self.per_link or self.waiting >= self.outbox_bytes

    async def room(self, share: Share) -> None:
        """Wait until ``share``'s connection may add again (back-pressure)."""
        while self.full(share):
            self._drained.clear()
            await self._drained.wait()

    def forget(self, *keys: str) -> None:
        """These streams were deleted: nothing of them is kept any more."""
        for key in keys:
            kept = self._kept.pop(key, None)
            if kept is not None:
                self.kept -= kept.size

    async def run(self) -> None:
        """One writer: messages reach Redis in the order they were made."""
        while True:
            await self._wrote.wait()
            self._wrote.clear()
            await self.flush()

    async def flush(self) -> None:
        """Write what waits now (one pipeline), then trim to the budgets."""
        batch, self._outbox = self._outbox, []
        if batch:
            await self._write(batch)

    async def _write(self, batch: list[_Queued]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for key, fields, _, _, guard in batch:
            if guard is None:
                pipe.xadd(key, fields, maxlen=MAXLEN, approximate=True)
            else:
                flat = [part for pair in fields.items() for part in pair]
                pipe.eval(GUARDED_ADD, 2, guard, key, MAXLEN, *flat)
        keys = dict.fromkeys(key for key, *_ in batch)
        for key in keys:
            pipe.pexpire(key, STREAM_TTL_MS)
        try:
            ids = await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("relay: Redis refused %d messages (%s)", len(batch), exc)
            self._release(batch)
            self.lost()
            return
        self._release(batch)
        now = time.monotonic()
        for (key, _, _, size, _), msg_id in zip(batch, ids):
            if msg_id is None:  # (a guarded message whose guard was gone)
                continue
            kept = self._kept.setdefault(key, _Kept(deque()))
            kept.ids.append((msg_id, size))
            kept.size += size
            kept.at = now
            self.kept += size
            if len(kept.ids) > MAXLEN:  # (Redis trimmed it by MAXLEN already)
                self._drop_oldest(kept)
        if now - self._pruned > STREAM_TTL_MS / 10_000:
            self._prune(now)
        trims = self._trims(keys)
        if trims:
            pipe = self.redis.pipeline(transaction=False)
            for key, first in trims.items():
                pipe.xtrim(key, minid=first, approximate=False)
            try:
                await pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("relay: could not trim %d streams (%s)", len(trims), exc)

    def _release(self, batch: list[_Queued]) -> None:
        for _, _, share, size, _ in batch:
            self.waiting -= size
            if share is not None:
                share.waiting -= size
        self._drained.set()

    def _prune(self, now: float) -> None:
        """Forget streams this node has not written for their lifetime (gone from Redis)."""
        self._pruned = now
        for key in [k for k, kept in self._kept.items() if now - kept.at > STREAM_TTL_MS / 1000]:
            self.forget(key)

    def _trims(self, written: dict[str, None]) -> dict[str, bytes]:
        """Drop the oldest of what Redis keeps past the budgets (never a stream's
        newest): each stream's first id to keep, for the streams that lose any."""
        trims: dict[str, bytes] = {}
        for key in written:
            kept = self._kept.get(key)  # (none: only guarded messages, not written)
            if kept is None:
                continue
            while kept.size > self.stream_bytes and len(kept.ids) > 1:
                trims[key] = self._drop_oldest(kept)
        while self.kept > self.stream_total:
            key, kept = max(self._kept.items(), key=lambda item: item[1].size)
            if len(kept.ids) <= 1:
                break
            trims[key] = self._drop_oldest(kept)
        return trims

    def _drop_oldest(self, kept: _Kept) -> bytes:
        _, size = kept.ids.popleft()
        kept.size -= size
        self.kept -= size
        return kept.ids[0][0]


class StreamReader:
    """Reads the streams this node wants, each from where it began watching it."""

    def __init__(
        self,
        redis: Any,
        signer: Signer,
        node: str,
        wanted: Callable[[], set[str]],
        handle: Callable[[str, dict[bytes, Any]], None],
    ) -> None:
        """``wanted``: the streams to read now; ``handle(stream, fields)``: a message
        meant for this node, its signature checked."""
        self.redis = redis
        self.signer = signer
        self._node = node.encode()
        self.wanted = wanted
        self.handle = handle
        self._read_from: dict[str, str] = {}
        self.forged = 0
        """Messages read whose signature was wrong (written by someone else)."""

    async def watch(self, key: str) -> None:
        """Read ``key`` from its current end on (this node's own streams, from when it
        started or began relaying): nothing written for an earlier run's connections is
        ever handled here."""
        if key not in self._read_from:
            last = await self.redis.xrevrange(key, count=1)
            self._read_from[key] = _text(last[0][0]) if last else "0-0"

    async def run(self) -> None:
        while True:
            streams = self._streams()
            if not streams:
                await asyncio.sleep(BLOCK_MS / 1000)  # nothing to read yet
                continue
            try:
                answer = await self.redis.xread(streams, block=BLOCK_MS, count=500)
            except (RedisError, OSError):
                await asyncio.sleep(BLOCK_MS / 1000)
                continue
            for key, messages in answer or []:
                name = _text(key)
                for msg_id, fields in messages:
                    self._read_from[name] = _text(msg_id)
                    try:
                        self._take(name, fields)
                    except Exception:
                        log.exception("relay: a message on %s failed", name)

    def _streams(self) -> dict[str, str]:
        wanted = self.wanted()
        for key in list(self._read_from):
            if key not in wanted:
                del self._read_from[key]
        return dict(self._read_from)

    def _take(self, key: str, fields: Mapping[bytes, Any]) -> None:
        """A message is acted on if it is meant for this node (every edge reads all of
        a room's output) and signed with the cluster's secret."""
        inbound = key.endswith(":in")
        if not inbound and fields.get(b"n") != self._node:
            return
        if not self.signer.valid_fields(key, fields, SIGNATURE.encode()):
            self.forged += 1
            if self.forged in (1, 10, 100, 1000) or self.forged % 10_000 == 0:
                log.warning(
                    "relay: %d messages not signed with this cluster's secret ignored "
                    "(the latest on %s): someone else writes to Redis, or a node has "
                    "another --cluster-secret",
                    self.forged,
                    key,
                )
            return
        self.handle(key, dict(fields))
