"""Identities valid on every node: a link code made on one node is redeemed on
another, once; the linked device's token then says hello on any node; a ban made on
one node holds on every node."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.cluster.nodes import cluster
from tests.e2e.test_admin_e2e import Admin, bound
from tests.e2e.test_handshake_e2e import closed_with
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(120)


async def test_a_link_code_made_on_one_node_works_once_on_another(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        ann = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        code = (await ann.request("link-code", "link-code"))["code"]
        phone = await stack.enter_async_context(WsClient.connect(nodes[1].url))
        await phone.send("hello", protocol=1, name="Phone", link=code)
        welcome = await phone.expect("welcome")
        assert welcome["player"] == ann.player and welcome["token"] != ann.token
        again = await stack.enter_async_context(WsClient.connect(nodes[0].url))
        await again.send("hello", protocol=1, name="Thief", link=code)  # used up
        assert (await again.expect("error"))["code"] == "bad-link"
        tablet = await stack.enter_async_context(WsClient.connect(nodes[0].url))
        await tablet.send("hello", protocol=1, name="Ann", token=welcome["token"])
        assert (await tablet.expect("welcome"))["player"] == ann.player


ADMIN_TOKEN = "a-cluster-admin-token-for-the-tests"


async def test_a_ban_made_on_one_node_holds_on_another(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(
            cluster(tmp_path, redis_clean, fresh_db, count=2, extra=("--admin-token", ADMIN_TOKEN))
        )
        ann = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        sock = bound("127.0.0.2")
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", nodes[1].port))
        ws = await stack.enter_async_context(
            connect(nodes[1].url, sock=sock, compression=None, max_size=None)
        )
        eve = WsClient(ws)
        await eve.hello("Eve")
        admin_ws = await stack.enter_async_context(
            connect(f"ws://127.0.0.1:{nodes[0].port}/admin", compression=None, max_size=None)
        )
        page = Admin(admin_ws)
        assert (await page.hello(ADMIN_TOKEN))["type"] == "admin-welcome"
        await page.done("ban", player=ann.player, minutes=60, reason="cheating")
        status = await page.done("ban", address="127.0.0.2", minutes=60, reason="spam")
        for ban in status["bans"]:  # node1 reads them on its next beat
            await nodes[1].logged(f"ban {ban['ban']} made on another node")
        assert (await closed_with(eve.ws))[0] == 1008  # connected there: removed
        phone = await stack.enter_async_context(WsClient.connect(nodes[1].url))
        await phone.send("hello", protocol=1, name="Ann", token=ann.token)
        refused = await phone.expect("error")
        assert refused["code"] == "banned" and "cheating" in refused["message"]


async def test_a_device_signed_out_on_one_node_stops_on_every_node(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    """Ann on node 0 links her phone, which plays on node 1; from node 0 she signs the
    phone out: node 1 refuses its token at once, and closes its connection (4001)."""
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, count=2))
        ann = await stack.enter_async_context(WsClient.connect(nodes[0].url))
        await ann.send("hello", protocol=1, name="Ann", device="Tk · Linux")  # an older client
        await ann.expect("welcome")
        code = (await ann.request("link-code", "link-code"))["code"]
        phone = await stack.enter_async_context(WsClient.connect(nodes[1].url))
        about = {"kind": "browser", "platform": "Android"}
        await phone.send("hello", protocol=1, name="Phone", link=code, device=about)
        token = (await phone.expect("welcome"))["token"]
        listed = (await ann.request("list-devices", "devices"))["devices"]  # both nodes'
        assert sorted((d["name"], d["kind"], d["platform"]) for d in listed) == [
            ("Browser · Android", "browser", "Android"),  # kept in PostgreSQL by node 1
            ("Tk · Linux", None, None),
        ]
        other = next(d for d in listed if d["kind"] == "browser")
        await ann.send("sign-out-device", device=other["device"], id=5)
        assert [d["name"] for d in (await ann.expect("devices", re=5))["devices"]] == ["Tk · Linux"]
        thief = await stack.enter_async_context(WsClient.connect(nodes[1].url))
        await thief.send("hello", protocol=1, name="Thief", token=token)
        assert (await thief.expect("welcome"))["player"] != ann.player  # refused at once
        await nodes[1].logged("a device signed out on another node")
        assert (await closed_with(phone.ws))[0] == 4001
