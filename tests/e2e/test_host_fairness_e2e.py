"""A host's powers never decide a game, over real websockets (server on port 0): removing
a seated player mid-game ends a competitive game with no winner and no rating change,
lets a co-op game go on, and a muted member made host may chat."""

from __future__ import annotations

from gridhall.server.io.net.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient, gomoku_pair

RACE = {"width": 4, "height": 4, "kinds": 2, "countdown": 0, "hint_penalty": 0, "rated": True}


async def test_removing_the_opponent_mid_game_ends_a_rated_gomoku_game_with_no_winner(
    server_url: str,
) -> None:
    async with gomoku_pair(server_url, {"rated": True}) as (ann, bob, _room):
        for who, x in ((ann, 0), (bob, 1), (ann, 2), (bob, 3)):  # enough stones to be rated
            await who.send("move", move={"x": x, "y": 7})
            await ann.expect("moved", by=who.player)
        await ann.send("host", action="kick", player=bob.player, minutes=5)
        over = await ann.expect("game-over")
        assert over["result"]["winner"] is None
        assert over["result"]["reason"] == "removed"
        assert over["result"]["removed"] == bob.player
        assert over.get("ratings") is None  # nobody's rating moved
        told = await bob.expect("game-over")
        assert told["result"] == over["result"]
        await bob.expect("left", player=bob.player, reason="kicked")
        await ann.send("sync", id=5)
        state = await ann.expect("state", re=5)
        assert state["status"] == "over" and state["result"]["reason"] == "removed"


async def test_removing_a_racer_ends_a_rated_race_for_everyone_unrated(server: GameServer) -> None:
    url = url_of(server)
    async with WsClient.connect(url, "Ann") as ann, WsClient.connect(url, "Bob") as bob:
        await ann.send("create-room", game="linkmatch", options=RACE)
        room = (await ann.expect("joined"))["room"]
        await bob.send("join-room", room=room)
        await bob.expect("state", status="waiting")
        await ann.send("start")
        await ann.expect("state", status="playing")
        await bob.expect("state", status="playing")
        await ann.send("host", action="kick", player=bob.player, minutes=5)
        over = await ann.expect("game-over")
        result = over["result"]
        assert (result["winner"], result["reason"], result["removed"]) == (
            None,
            "removed",
            bob.player,
        )
        assert "ranking" not in result and over.get("ratings") is None
        await ann.send("sync", id=2)
        state = await ann.expect("state", re=2)
        assert state["view"]["standing"] == {ann.player: "racing", bob.player: "removed"}


async def test_removing_a_co_op_player_leaves_the_team_playing(server: GameServer) -> None:
    url = url_of(server)
    async with WsClient.connect(url, "Ann") as ann, WsClient.connect(url, "Bob") as bob:
        await ann.send("create-room", game="minesweeper", options={"preset": "beginner"})
        room = (await ann.expect("joined"))["room"]
        await ann.expect("state", status="playing")
        await bob.send("join-room", room=room)
        await bob.expect("state", status="playing")
        await ann.send("host", action="kick", player=bob.player, minutes=5)
        await bob.expect("left", player=bob.player, reason="kicked")
        await ann.send("move", move={"action": "reveal", "x": 4, "y": 4}, id=3)
        moved = await ann.expect("moved", by=ann.player)
        assert moved["move"]["action"] == "reveal"
        assert not [m for m in ann.received if m["type"] == "game-over"]
        await ann.send("sync", id=4)
        state = await ann.expect("state", re=4)
        assert state.get("result") is None and bob.player in state["view"]["left"]


async def test_a_muted_member_made_host_may_chat_again(server_url: str) -> None:
    async with gomoku_pair(server_url) as (ann, bob, _room):
        await ann.send("host", action="mute", player=bob.player)
        await bob.expect("host", action="mute")
        await ann.send("host", action="hand-over", player=bob.player)
        await bob.expect("host", action="hand-over", player=bob.player)
        lifted = await ann.expect("host", action="unmute", player=bob.player)
        assert lifted["by"] == bob.player
        await bob.send("chat", text="thanks for the role", id=9)
        said = await ann.expect("chat", **{"from": bob.player})
        assert said["text"] == "thanks for the role"
        await bob.send("sync", id=10)
        assert (await bob.expect("state", re=10))["muted"] == []


async def test_the_role_passing_on_lifts_the_new_hosts_mute(server_url: str) -> None:
    async with gomoku_pair(server_url) as (ann, bob, _room):
        await ann.send("host", action="mute", player=bob.player)
        await bob.expect("host", action="mute")
        await ann.send("leave-room")
        await bob.expect("host", action="hand-over", player=bob.player, by=None)
        await bob.expect("host", action="unmute", player=bob.player)
        await bob.send("chat", text="still here", id=4)
        assert (await bob.expect("chat", **{"from": bob.player}))["text"] == "still here"
