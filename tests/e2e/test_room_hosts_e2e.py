"""Room hosts over real websockets: a server on port 0 (and a real server process killed
with -9 and started again), real clients."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from gridhall.server.io.net.app import GameServer
from tests.e2e.test_admin_e2e import player_from
from tests.e2e.test_restart_e2e import rejoin, server_process, stop_and_restart
from tests.wsclient import WsClient, gomoku_pair


async def test_a_player_who_is_not_the_host_cannot_kick(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await b.send("host", action="kick", player=a.player, minutes=5, id=7)
        refused = await b.expect("error", re=7)
        assert refused["code"] == "not-the-host"
        await a.send("sync", id=8)
        state = await a.expect("state", re=8)
        assert state["host"] == a.player and [p["player"] for p in state["players"]] == [
            a.player,
            b.player,
        ]


async def test_a_kicked_player_goes_to_the_lobby_and_cannot_rejoin(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, room):
        await a.send("host", action="kick", player=b.player, minutes=3, id=2)
        event = await b.expect("host", action="kick")
        assert event["by"] == a.player and event["player"] == b.player and event["minutes"] == 3
        left = await b.expect("left", player=b.player)
        assert left["reason"] == "kicked" and left["until"] == event["until"]
        over = await a.expect("game-over")  # Bob's game was under way: nobody wins it
        assert over["result"]["winner"] is None and over["result"]["reason"] == "removed"
        await b.send("join-room", room=room, id=3)
        refused = await b.expect("error", re=3)
        assert refused["code"] == "kicked" and 0 < refused["retry_after"] <= 180
        await b.send("list-rooms", id=4)
        [entry] = (await b.expect("rooms", re=4))["rooms"]
        assert entry["host"] == "Ann" and entry["locked"] is False


@asynccontextmanager
async def eve_kicked(server: GameServer, minutes: int) -> AsyncIterator[tuple[str, WsClient]]:
    """Ann's room, from which the host Ann just kicked Eve (127.0.0.2, a spectator) for
    ``minutes``: the room's code and Eve, still connected."""
    async with (
        player_from(server, "127.0.0.1", "Ann") as ann,
        player_from(server, "127.0.0.2", "Eve") as eve,
    ):
        await ann.send("create-room", game="gomoku", options={"size": 15})
        room = (await ann.expect("joined"))["room"]
        await eve.send("join-room", room=room, role="spectator")
        await eve.expect("state")
        await ann.send("host", action="kick", player=eve.player, minutes=minutes)
        await eve.expect("left", reason="kicked")
        yield room, eve


async def test_a_kick_also_keeps_out_a_new_identity_from_the_kicked_address(
    server: GameServer,
) -> None:
    """Eve (127.0.0.2) is removed; coming back without her token is a new identity, but
    from the same address, which nobody else in the room shared: refused too."""
    async with eve_kicked(server, 5) as (room, eve):
        pass
    async with (
        player_from(server, "127.0.0.2", "Eve again") as eve2,
        player_from(server, "127.0.0.3", "Cy") as cy,
    ):
        assert eve2.player != eve.player
        await eve2.send("join-room", room=room, role="spectator", id=1)
        refused = await eve2.expect("error", re=1)
        assert refused["code"] == "kicked" and 0 < refused["retry_after"] <= 300
        await cy.send("join-room", room=room, role="spectator", id=2)
        assert (await cy.expect("joined", re=2))["room"] == room


async def test_a_long_kick_keeps_the_address_out_for_the_cool_down_only(
    server: GameServer,
) -> None:
    """Eve is removed for 24 hours: her own identity is kept out that long, but a
    newcomer from her address (a housemate behind the same NAT) only for the few
    minutes of the address cool-down."""
    async with eve_kicked(server, 1440) as (room, eve):
        await eve.send("join-room", room=room, role="spectator", id=1)
        own = await eve.expect("error", re=1)
        assert own["code"] == "kicked" and own["retry_after"] > 1439 * 60
        async with player_from(server, "127.0.0.2", "Housemate") as mate:
            await mate.send("join-room", room=room, role="spectator", id=2)
            refused = await mate.expect("error", re=2)
            assert refused["code"] == "kicked" and 0 < refused["retry_after"] <= 300


async def test_host_lock_mute_and_kick_survive_kill_9(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db))
        url = await first.ready()
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(url, "Bob"))
        c = await stack.enter_async_context(WsClient.connect(url, "Cy"))
        d = await stack.enter_async_context(WsClient.connect(url, "Dan"))
        await a.send("create-room", game="gomoku")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await b.expect("state", status="playing")
        for who in (c, d):
            await who.send("join-room", room=room, role="spectator")
            await who.expect("state")
        await a.send("host", action="mute", player=c.player)
        await c.expect("host", action="mute")
        await a.send("host", action="kick", player=d.player, minutes=30)
        await d.expect("left", reason="kicked")
        await a.send("host", action="lock")
        await a.send("host", action="hand-over", player=b.player)
        await b.expect("host", action="hand-over", by=a.player)
        await d.send("create-room", game="gomoku")  # Dan elsewhere: his identity is kept
        await d.expect("joined")  # (and every write before this frame is on disk)

        url = await stop_and_restart(stack, first, db, "kill-9", [a, b, c, d])
        a2 = await rejoin(stack, url, a, "Ann")
        c2 = await rejoin(stack, url, c, "Cy")
        d2 = await rejoin(stack, url, d, "Dan")
        await a2.send("sync", id=1)
        state = await a2.expect("state", re=1)
        assert (state["host"], state["locked"], state["muted"]) == (b.player, True, [c.player])
        await a2.send("host", action="unlock", id=2)
        assert (await a2.expect("error", re=2))["code"] == "not-the-host"
        await c2.send("chat", text="let me talk", id=3)
        assert (await c2.expect("error", re=3))["code"] == "muted"
        await d2.send("leave-room", id=4)
        await d2.expect("left", re=4)
        await d2.send("join-room", room=room, role="spectator", id=5)
        refused = await d2.expect("error", re=5)
        assert refused["code"] == "kicked" and 0 < refused["retry_after"] <= 1800
        eve = await stack.enter_async_context(WsClient.connect(url, "Eve"))
        await eve.send("join-room", room=room, role="spectator", id=6)
        assert (await eve.expect("error", re=6))["code"] == "room-locked"
