"""Whoever can write to Redis does not join the cluster (issue 41): a node entry written
by hand is not in ``welcome.nodes`` and a page of its origin is refused, while one
signed with the cluster secret is both; a message written by hand on a room's input
stream speaks for nobody, nor does an old one written again. A node does not start
without the secret. (The attack: ``bench/attack.py --only registry``.)"""

from __future__ import annotations

import asyncio
import json
import os
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from gridhall import protocol
from tests.cluster.nodes import SECRET, cluster, refused_start
from tests.wsclient import WsClient

redis = pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
from gridhall.server.cluster.node import node_key  # noqa: E402
from gridhall.server.cluster.signing import Signer  # noqa: E402

pytestmark = pytest.mark.timeout(120)

FORGED = "ws://127.0.0.66:8765/"
WRONG = "ws://127.0.0.67:8765/"
SIGNED = "ws://127.0.0.68:8765/"


def entry(signer: Signer, node: str, address: str) -> dict[str, Any]:
    """A registry entry for ``node`` signed with ``signer``, good for a minute (the
    fields a node writes: server/cluster/node.py)."""
    until = int(time.time() * 1000) + 60_000
    return {"address": address, "until": until, "sig": signer.sign("node", node, address, until)}


def write_entry(client: Any, node: str, fields: dict[str, Any]) -> None:
    client.hset(node_key(node), mapping=fields)
    client.pexpire(node_key(node), 60_000)


async def nodes_listed(url: str, wanted: str) -> list[str]:
    """``welcome.nodes`` once it lists ``wanted`` (a node's beat adds it; the test's
    timeout guards)."""
    while True:
        async with WsClient.connect(url) as client:
            await client.send("hello", protocol=1, name="Visitor")
            nodes: list[str] = (await client.expect("welcome")).get("nodes") or []
        if wanted in nodes:
            return nodes
        await asyncio.sleep(0.1)


async def handshake(url: str, origin: str) -> int:
    """The status of a WebSocket handshake from a page of ``origin``."""
    try:
        async with connect(url, origin=origin, close_timeout=1):  # type: ignore[arg-type]
            return 101
    except InvalidStatus as exc:
        return exc.response.status_code


async def test_only_a_signed_node_entry_is_listed_and_its_pages_let_in(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    r = redis.Redis.from_url(redis_clean)
    async with cluster(tmp_path, redis_clean, fresh_db, count=2) as nodes:
        write_entry(r, "evil", {"address": FORGED})  # as the attack wrote it
        write_entry(r, "evil2", entry(Signer("not-this-cluster-secret-0123"), "evil2", WRONG))
        write_entry(r, "friend", entry(Signer(SECRET), "friend", SIGNED))
        listed = await nodes_listed(nodes[0].url, SIGNED)
        assert FORGED not in listed and WRONG not in listed
        assert nodes[1].url in listed
        assert await handshake(nodes[0].url, "http://127.0.0.66:8765") == 403
        assert await handshake(nodes[0].url, "http://127.0.0.67:8765") == 403
        assert await handshake(nodes[0].url, "http://127.0.0.68:8765") == 101
        assert any("'evil'" in line and "not signed" in line for line in nodes[0].log)
    r.close()


async def test_only_signed_listings_reach_the_lobby(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    r = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        ann = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        fake = {"room": "FAKE01", "game": "gomoku", "node": "node0", "until": 2**50}
        r.hset("gridhall:rooms", "FAKE01", json.dumps(fake))  # as anyone could write it
        bob = await stack.enter_async_context(WsClient.connect(nodes[1].url, "Bob"))
        while True:  # until node1's beat has read node0's listing (the timeout guards)
            await bob.send("list-rooms")
            listed = {r["room"]: r for r in (await bob.expect("rooms"))["rooms"]}
            if room in listed:
                break
            await asyncio.sleep(0.1)
        assert "FAKE01" not in listed
        assert not {"node", "address", "until"} & set(listed[room])  # the cluster's own
    r.close()


def forged(room: str, pid: str, text: str, signer: Signer | None, age_ms: int = 0) -> list[Any]:
    """An ``open`` for ``pid`` and a chat line, as messages for ``room`` on its owner's
    (node0's) input stream (signed with ``signer`` if given; the open ``age_ms`` old)."""
    key = "gridhall:relay:node0:in"
    conn = f"evil:{text}"
    now = int(time.time() * 1000) - age_ms
    messages: list[dict[str, Any]] = [
        {"k": "open", "a": "127.0.0.66", "since": -1, "deltas": 0, "t": now},
        {"k": "frame", "d": protocol.encode_map({"type": "chat", "text": text})},
    ]
    out = []
    for seq, fields in enumerate(messages):
        fields.update(p=pid, n="node1", i=conn, s=seq, r=room)
        if signer is not None:
            fields["h"] = signer.sign_fields(key, fields)
        out.append((key, fields))
    return out


async def test_a_message_written_by_hand_on_a_rooms_stream_speaks_for_nobody(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    r = redis.Redis.from_url(redis_clean)
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        ann = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        bob = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Bob"))
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        await bob.send("join-room", room=room)
        await bob.expect("state", status="playing")
        signer = Signer(SECRET)
        for key, fields in [
            *forged(room, ann.player, "unsigned", None),
            *forged(room, ann.player, "another secret", Signer("not-this-cluster-secret-0123")),
            *forged(room, ann.player, "written again", signer, age_ms=10 * 60_000),
            *forged(room, ann.player, "signed", signer),  # what a node of the cluster sends
        ]:
            r.xadd(key, fields)
        said = await bob.expect("chat")  # (read in order: the last one)
        assert said["text"] == "signed" and said["from"] == ann.player
        chats = [m["text"] for m in bob.received if m["type"] == "chat"]
        assert chats == ["signed"]
        with pytest.raises(ConnectionClosed) as replaced:  # a node's open does replace Ann
            while True:
                await ann.recv()
        assert replaced.value.rcvd is not None and replaced.value.rcvd.code == 4000
    r.close()


def test_a_node_does_not_start_without_the_secret(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GRIDHALL_CLUSTER_SECRET"}
    urls = ("--cluster", "redis://127.0.0.1:1/0", "--store", "postgresql://x@127.0.0.1:1/x")
    db = ("--db", str(tmp_path / "n.db"))
    none = refused_start(*urls, *db, env=env)
    assert none.returncode == 2 and "GRIDHALL_CLUSTER_SECRET" in none.stderr
    short = refused_start(*urls, *db, env={**env, "GRIDHALL_CLUSTER_SECRET": "short"})
    assert short.returncode == 2 and "at least 16" in short.stderr
    flag = refused_start(*urls, *db, "--cluster-secret", "short", env=env)
    assert flag.returncode == 2 and "at least 16" in flag.stderr and "short" not in flag.stderr
    bad = refused_start("--cluster", "http://u:hunter2secret@x/", *db, env=env)
    assert (
        bad.returncode == 2
        and "not a Redis URL" in bad.stderr
        and "hunter2secret" not in bad.stderr
    )
