"""The relay's writer on a real Redis (``server/cluster/streams.py``): streams keep at most
their byte budget (never losing the newest message), all of them together theirs; every
message is signed and every stream expires; a connection past its share waits; when
Redis does not answer, what waited is dropped (the relayed clients resync), never held
without bound."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.cluster.conftest import RedisServer
from tests.cluster.nodes import SECRET

aioredis = pytest.importorskip("redis.asyncio", reason='pip install "gridhall[cluster]"')
from gridhall.server.cluster.signing import Signer  # noqa: E402
from gridhall.server.cluster.streams import (  # noqa: E402
    SIGNATURE,
    STREAM_TTL_MS,
    Share,
    StreamWriter,
)

pytestmark = pytest.mark.timeout(60)

KIB = 1024


@pytest.fixture
async def client(redis_clean: str) -> AsyncIterator[Any]:
    redis = aioredis.from_url(redis_clean, socket_timeout=1.0)
    yield redis
    await redis.aclose()


def message(n: int, size: int) -> dict[str, Any]:
    return {"k": "frame", "d": b"x" * size, "p": "p1", "n": "node1", "i": "c", "s": n}


async def payload(client: Any, key: str) -> tuple[int, list[bytes]]:
    """The bytes of what ``key`` holds (field names and values) and its ids."""
    entries = await client.xrange(key)
    size = sum(len(k) + len(v) for _, fields in entries for k, v in fields.items())
    return size, [msg_id for msg_id, _ in entries]


async def test_each_stream_keeps_its_budget_and_all_together_theirs(client: Any) -> None:
    signer = Signer(SECRET)
    writer = StreamWriter(client, signer, 2**30, lambda: None, (2**30, 64 * KIB, 160 * KIB))
    keys = [f"gridhall:room:T{n}:out" for n in range(4)]
    for n in range(40):  # 10 KiB each: 400 KiB to each stream, in batches of 4
        for key in keys:
            writer.add(key, message(n, 10 * KIB), None)
        await writer.flush()
    total = 0
    for key in keys:
        size, ids = await payload(client, key)
        total += size
        assert size <= 64 * KIB + 11 * KIB, key  # (the budget, give or take one message)
        assert ids and ids[-1] == (await client.xrevrange(key, count=1))[0][0]
        last = (await client.xrange(key, min=ids[-1], max=ids[-1]))[0][1]
        assert int(last[b"s"]) == 39  # the newest is never trimmed
    assert total <= 160 * KIB + 4 * 11 * KIB
    huge = StreamWriter(client, signer, 2**30, lambda: None, (2**30, 16 * KIB, 32 * KIB))
    huge.add("gridhall:room:H:out", message(0, 100 * KIB), None)  # larger than any budget
    await huge.flush()
    assert (await client.xlen("gridhall:room:H:out")) == 1  # kept: a reader still gets it


async def test_every_message_is_signed_and_every_stream_expires(client: Any) -> None:
    signer = Signer(SECRET)
    writer = StreamWriter(client, signer, 2**30, lambda: None)
    key = "gridhall:room:S:in"
    writer.add(key, {"k": "open", "p": "p1", "n": "node1", "i": "c", "s": 0, "t": 1}, None)
    writer.add(key, message(1, 10), None)
    await writer.flush()
    entries = await client.xrange(key)
    assert len(entries) == 2
    for _, fields in entries:
        assert signer.valid_fields(key, fields, SIGNATURE.encode())
        assert not signer.valid_fields("gridhall:room:OTHER:in", fields, SIGNATURE.encode())
        tampered = {**fields, b"p": b"p2"}
        assert not signer.valid_fields(key, tampered, SIGNATURE.encode())
    assert 0 < await client.pttl(key) <= STREAM_TTL_MS


async def test_a_connection_past_its_share_waits_until_redis_took_it(client: Any) -> None:
    writer = StreamWriter(client, Signer(SECRET), 64 * KIB, lambda: None)
    share, other = Share(), Share()
    for n in range(7):
        writer.add("gridhall:room:W:in", message(n, 10 * KIB), share)
    assert writer.full(share) and not writer.full(other)
    waiting = asyncio.ensure_future(writer.room(share))
    await asyncio.sleep(0)
    assert not waiting.done()  # back-pressure: its socket is not read meanwhile
    await writer.flush()
    await asyncio.wait_for(waiting, 5)
    assert share.waiting == 0 and writer.waiting == 0


async def test_redis_not_answering_drops_what_waits(client: Any, redis_server: RedisServer) -> None:
    lost = asyncio.Event()
    writer = StreamWriter(client, Signer(SECRET), 64 * KIB, lost.set)
    share = Share()
    writer.add("gridhall:room:P:in", message(0, 10), share)
    await writer.flush()  # connected
    assert redis_server.proc is not None
    redis_server.proc.send_signal(signal.SIGSTOP)
    try:
        for n in range(1, 8):
            writer.add("gridhall:room:P:in", message(n, 10 * KIB), share)
        waiting = asyncio.ensure_future(writer.room(share))
        await writer.flush()  # times out (socket_timeout): the messages are dropped
        await asyncio.wait_for(lost.wait(), 10)
        await asyncio.wait_for(waiting, 5)  # and whoever waited goes on
        assert share.waiting == 0 and writer.waiting == 0
    finally:
        redis_server.proc.send_signal(signal.SIGCONT)


async def test_a_guarded_message_never_makes_a_deleted_rooms_stream_again(client: Any) -> None:
    """A relayed client's ``close`` after its room closed (the owner deleted the room's
    keys) leaves nothing in Redis; while the room's lease exists it is written, in order."""
    signer = Signer(SECRET)
    writer = StreamWriter(client, signer, 2**30, lambda: None)
    key, lease = "gridhall:room:G1:in", "gridhall:room:G1:owner"
    writer.add(key, message(0, 10), None, guard=lease)
    await writer.flush()
    assert await client.exists(key) == 0  # no lease: the room is gone, nothing written

    await client.set(lease, "node0")
    writer.add(key, message(1, 10), None)
    writer.add(key, message(2, 10), None, guard=lease)
    await writer.flush()
    written = [int(fields[b"s"]) for _, fields in await client.xrange(key)]
    assert written == [1, 2]
    assert 0 < await client.pttl(key) <= STREAM_TTL_MS
    assert writer.kept > 0
