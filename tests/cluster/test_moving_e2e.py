"""A player who comes back while its room is being taken over (its owner was just
killed, no node owns it yet) lands back in its seat without doing anything more: the
node it reached waits for the takeover, then seats it here or relays it to the new
owner (``server/cluster/moving.py``)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from tests.cluster.nodes import cluster, next_owner, sees_move
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(120)

TAKEOVER = 60.0
"""A guard only: the test waits on the frames, which come once the room landed."""


async def hello_again(stack: AsyncExitStack, url: str, old: WsClient) -> WsClient:
    """``old``'s player says hello on another node with its token, and nothing else."""
    client = await stack.enter_async_context(WsClient.connect(url))
    await client.send("hello", protocol=1, name="again", token=old.token)
    assert (await client.expect("welcome"))["player"] == old.player
    client.player, client.token = old.player, old.token
    return client


async def test_players_back_during_a_takeover_land_in_their_seats(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        a = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(nodes[0].url, "Bob"))
        await a.send("create-room", game="gomoku")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await b.expect("state", status="playing")
        for i in range(2):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a.player)
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved", by=b.player)
        await nodes[0].kill()
        heir = next_owner(nodes[1:], room)
        # back at once, before any node took the room: one reaches the heir, the other
        # a node that relays to it
        a2 = await hello_again(stack, nodes[1].url, a)
        b2 = await hello_again(stack, nodes[2].url, b)
        for again in (a2, b2):
            state = await again.expect("state", timeout=TAKEOVER, room=room)
            assert state["view"]["moves"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
        assert (await heir) in nodes[1:]
        for i in (2, 3, 4):
            await a2.send("move", move={"x": i, "y": 0})
            if i < 4:
                await sees_move(b2, a.player, [i, 0])
                await b2.send("move", move={"x": i, "y": 1})
                await sees_move(a2, b.player, [i, 1])
        over = await b2.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "five"
