"""Identities valid on every node: a link code made on one node is redeemed on
another, once; the linked device's token then says hello on any node."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from tests.cluster.nodes import cluster
from tests.wsclient import WsClient

pytest.importorskip("redis", reason="pip install \"gridhall[cluster]\"")
pytestmark = pytest.mark.timeout(120)


async def test_a_link_code_made_on_one_node_works_once_on_another(
        tmp_path: Path, redis_clean: str, fresh_db: str) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db,
                                                        count=2))
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
