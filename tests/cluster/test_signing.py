"""The cluster secret's signatures (``server/cluster/signing.py``) and the registry that
uses them, on a real Redis: a node entry or a lobby listing is taken only if signed
with this cluster's secret and not out of date."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.cluster.nodes import SECRET

aioredis = pytest.importorskip("redis.asyncio", reason='pip install "gridhall[cluster]"')
from gridhall.server.cluster.node import ROOMS, Registry, node_key  # noqa: E402
from gridhall.server.cluster.signing import Signer  # noqa: E402

pytestmark = pytest.mark.timeout(60)
LEASE_MS = 3000


def test_a_signature_covers_every_part_and_the_secret() -> None:
    signer = Signer(SECRET)
    sig = signer.sign("node", "n1", "ws://10.0.0.1:8765/", 123)
    assert signer.valid(sig, "node", "n1", b"ws://10.0.0.1:8765/", b"123")  # as read back
    assert signer.valid(sig.hex(), "node", "n1", "ws://10.0.0.1:8765/", 123)
    assert not signer.valid(sig, "node", "n1", "ws://10.0.0.9:8765/", 123)
    assert not signer.valid(sig, "node", "n1", "ws://10.0.0.1:8765/", 124)
    assert not signer.valid(sig, "node", "n1ws://10.0.0.1:8765/", "", 123)  # (parts framed)
    assert not Signer(SECRET + "x").valid(sig, "node", "n1", "ws://10.0.0.1:8765/", 123)
    assert not signer.valid(None, "node") and not signer.valid("not hex", "node")
    with pytest.raises(ValueError):
        Signer("too short")


@pytest.fixture
async def client(redis_clean: str) -> AsyncIterator[Any]:
    redis = aioredis.from_url(redis_clean)
    yield redis
    await redis.aclose()


async def test_the_registry_takes_only_signed_up_to_date_entries(client: Any) -> None:
    ours = Registry(client, "n1", "ws://10.0.0.1:8765/", LEASE_MS, Signer(SECRET))
    await ours.beat({"ROOM1": {"room": "ROOM1", "game": "gomoku"}}, [])
    theirs = Registry(client, "n2", "ws://10.0.0.2:8765/", LEASE_MS, Signer(SECRET + "-other"))
    await theirs.beat({"ROOM2": {"room": "ROOM2", "game": "gomoku"}}, [])
    await client.hset(node_key("n3"), mapping={"address": "ws://10.0.0.3:8765/"})
    stale = int(time.time() * 1000) - 1
    old_sig = Signer(SECRET).sign("node", "n4", "ws://10.0.0.4:8765/", stale)
    await client.hset(
        node_key("n4"), mapping={"address": "ws://10.0.0.4:8765/", "until": stale, "sig": old_sig}
    )
    await client.hset(ROOMS, "ROOM3", '{"room": "ROOM3", "node": "n1", "until": 9999999999999}')
    assert await ours.alive() == {"n1": "ws://10.0.0.1:8765/"}
    assert await ours.is_alive("n1") and not await ours.is_alive("n2")
    assert not await ours.is_alive("n3") and not await ours.is_alive("n4")
    assert await ours.live(["n1", "n2", "n3", "n4", "n5"]) == {"n1"}
    assert list(await ours.listings()) == ["ROOM1"]
