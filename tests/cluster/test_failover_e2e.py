"""Three real nodes on loopback sharing a real Redis and PostgreSQL: a node is killed
(``kill -9``) in the middle of a game, another node takes the room over once its lease
ran out, and the players finish it there with every move kept."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import pytest

from gridhall.server.games.linkmatch import available_pairs
from tests.cluster.nodes import cluster, finish_resumed_gomoku, last_view, next_owner, rejoin
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(120)


async def test_gomoku_on_a_killed_node_is_finished_on_another(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        owner = nodes[0]
        a = await stack.enter_async_context(WsClient.connect(owner.url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(owner.url, "Bob"))
        await a.send("create-room", game="gomoku")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await b.expect("state", status="playing")
        for i in range(3):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a.player)
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved", by=b.player)
        seq = a.received[-1]["seq"]
        await owner.kill()
        heir = await next_owner(nodes[1:], room)
        a2 = await rejoin(stack, heir.url, a, "Ann")
        b2 = await rejoin(stack, heir.url, b, "Bob")
        info = await a2.expect("player-info", player=b.player, connected=True)
        assert info["seq"] > seq  # seq goes on from where it was
        await finish_resumed_gomoku(a2, b2, room)


async def test_coop_minesweeper_on_a_killed_node_is_finished_on_another(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        owner = nodes[1]
        a = await stack.enter_async_context(WsClient.connect(owner.url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(owner.url, "Bob"))
        await a.send("create-room", game="minesweeper", options={"preset": "beginner"})
        room = (await a.expect("joined"))["room"]
        await a.expect("state", status="playing")
        await b.send("join-room", room=room)
        await b.expect("state")
        await a.send("move", move={"action": "reveal", "x": 4, "y": 4})
        view = (await b.expect("moved", by=a.player))["view"]
        x, y = next(
            (x, y) for y, row in enumerate(view["rows"]) for x, c in enumerate(row) if c == "#"
        )
        await b.send("move", move={"action": "mark", "x": x, "y": y, "mark": "flag"})
        rows = (await a.expect("moved", by=b.player))["view"]["rows"]
        await owner.kill()
        heir = await next_owner([nodes[0], nodes[2]], room)
        a2 = await rejoin(stack, heir.url, a, "Ann")
        b2 = await rejoin(stack, heir.url, b, "Bob")
        await b2.send("sync")
        state = await b2.expect("state")
        assert state["view"]["rows"] == rows and state["status"] == "playing"
        await a2.send("sync")
        await a2.expect("state")
        for _ in range(81):  # reveal hidden cells until the game ends, won or lost
            view = last_view(a2)
            if any(m["type"] == "game-over" for m in a2.received):
                break
            x, y = next(
                (x, y) for y, row in enumerate(view["rows"]) for x, c in enumerate(row) if c == "#"
            )
            await a2.send("move", move={"action": "reveal", "x": x, "y": y})
            msg = await a2.expect("moved")
            if msg["view"].get("lives_left") == 0 or "#" not in "".join(msg["view"]["rows"]):
                await a2.expect("game-over")
        assert any(m["type"] == "game-over" for m in a2.received)
        await b2.expect("game-over")


async def test_linkmatch_race_on_a_killed_node_is_finished_on_another(
    tmp_path: Path, redis_clean: str, fresh_db: str
) -> None:
    async with AsyncExitStack() as stack:
        nodes = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db))
        owner = nodes[2]
        a = await stack.enter_async_context(WsClient.connect(owner.url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(owner.url, "Bob"))
        await a.send(
            "create-room",
            game="linkmatch",
            options={"width": 4, "height": 4, "kinds": 2, "countdown": 0},
        )
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await b.expect("state")
        await a.send("start")
        rows = (await a.expect("state", status="playing"))["view"]["rows"]
        await b.expect("state", status="playing")
        for racer in (a, b):
            (p1, p2) = available_pairs(last_view(racer)["rows"])[0]
            await racer.send("move", move={"action": "link", "a": list(p1), "b": list(p2)})
            await racer.expect("moved", by=racer.player)
        rows_a, rows_b = last_view(a)["rows"], last_view(b)["rows"]
        assert rows_a != rows
        await owner.kill()
        heir = await next_owner(nodes[:2], room)
        a2 = await rejoin(stack, heir.url, a, "Ann")
        b2 = await rejoin(stack, heir.url, b, "Bob")
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["view"]["rows"] == rows_a and state["view"]["remaining"] == 14
        await b2.send("sync")
        assert (await b2.expect("state"))["view"]["rows"] == rows_b
        while last_view(a2)["remaining"] > 0:
            (p1, p2) = available_pairs(last_view(a2)["rows"])[0]
            await a2.send("move", move={"action": "link", "a": list(p1), "b": list(p2)})
            await a2.expect("moved", by=a.player)
        over = await a2.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "cleared"
        assert over["result"]["remaining"] == {a.player: 0, b.player: 14}
