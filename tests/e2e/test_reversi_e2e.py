"""Reversi on a real server with real websocket clients: moves and flips, the pass the
server plays, the end by discs, refused moves that change nothing, a computer seat,
play-again with colours swapped, and a restart in the middle of a game."""

from __future__ import annotations

import random
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from gridhall.server.games.reversi import Position
from tests.e2e.test_restart_e2e import STOPS, rejoin, server_process, stop_and_restart
from tests.wsclient import WsClient, seated_pair


def reversi_pair(
    url: str, options: dict[str, Any] | None = None
) -> AbstractAsyncContextManager[tuple[WsClient, WsClient, str]]:
    """Two welcomed clients seated in a new Reversi room, game started: (black, white, room)."""
    return seated_pair(url, "reversi", options)


def game_with_a_pass(size: int = 6) -> list[tuple[int, int]]:
    """A whole legal game (seeded random moves) in which some side has to pass."""
    rng = random.Random(11)
    for _ in range(2000):
        pos, moves, passed = Position.start(size), [], False
        while not pos.over():
            x, y = rng.choice(pos.legal_cells())
            after = pos.play(x, y)
            passed |= after.to_move == pos.to_move and not after.over()
            moves.append((x, y))
            pos = after
        if passed:
            return moves
    raise AssertionError("no game with a pass found")


async def test_a_whole_game_with_a_pass_ends_by_discs(server_url: str) -> None:
    moves = game_with_a_pass()
    async with reversi_pair(server_url, {"size": 6}) as (a, b, _room):
        by_colour = {"black": a, "white": b}
        mover = a
        passes = 0
        for n, (x, y) in enumerate(moves):
            other = b if mover is a else a
            await mover.send("move", move={"x": x, "y": y})
            moved = await other.expect("moved", by=mover.player)
            assert moved["move"]["x"] == x and moved["move"]["y"] == y
            assert moved["move"]["flipped"], "a move turns over at least one disc"
            if n == len(moves) - 1:
                break
            if "pass" in moved["move"]:
                passes += 1
                assert moved["move"]["pass"] == other.player
                assert moved["turn"] == mover.player  # the server played the pass
                notice = await other.expect("notice", event="pass")
                assert notice["data"] == {"player": other.player}
                assert moved["view"]["passed"] == moved["view"]["colors"][other.player]
            else:
                assert moved["turn"] == other.player
                mover = other
        assert passes >= 1
        over = await a.expect("game-over")
        await b.expect("game-over")
        pos = Position.start(6)
        for x, y in moves:
            pos = pos.play(x, y)
        black, white = pos.counts()
        assert over["result"]["reason"] == "discs"
        assert over["result"]["discs"] == {"black": black, "white": white}
        winner = None if black == white else by_colour["black" if black > white else "white"].player
        assert over["result"]["winner"] == winner


async def test_illegal_moves_are_refused_and_change_nothing(server_url: str) -> None:
    async with reversi_pair(server_url) as (a, b, room):
        async with WsClient.connect(server_url, "Cy") as spectator:
            await spectator.send("join-room", room=room, role="spectator")
            await spectator.expect("state")
            await a.send("move", move={"x": 5, "y": 4})  # F5
            moved = await b.expect("moved")
            assert moved["move"]["flipped"] == [[4, 4]] and moved["turn"] == b.player
            assert moved["view"]["counts"] == {"black": 4, "white": 1}
            await a.send("move", move={"x": 5, "y": 5})
            assert (await a.expect("error"))["code"] == "not-your-turn"
            for bad in ({"x": 0, "y": 0}, {"x": 4, "y": 4}, {"x": 8, "y": 0}, {"x": -1, "y": 3}):
                await b.send("move", move=bad)
                error = await b.expect("error")
                assert error["code"] == "illegal-move", bad
            await b.send("move", move={"x": "5", "y": 5})
            assert (await b.expect("error"))["code"] == "bad-message"
            await spectator.send("move", move={"x": 5, "y": 5})
            assert (await spectator.expect("error"))["code"] == "not-a-player"
            await spectator.send("sync", id=5)
            after = await spectator.expect("state", re=5)
            assert after["view"]["moves"] == [[5, 4]] and after["turn"] == b.player
            assert after["view"]["board"] == moved["view"]["board"]


async def test_play_again_swaps_colours(server_url: str) -> None:
    async with reversi_pair(server_url) as (a, b, _room):
        await a.send("resign")
        over = await b.expect("game-over")
        assert over["result"]["winner"] == b.player and over["result"]["reason"] == "resign"
        assert over["result"]["discs"] == {"black": 2, "white": 2}
        await a.send("play-again")
        assert (await b.expect("play-again"))["from"] == a.player
        await b.send("agree-again")
        state = await a.expect("state", status="playing")
        assert state["view"]["colors"] == {b.player: "black", a.player: "white"}
        assert state["turn"] == b.player and state["round"] == 1


async def test_the_computer_answers_and_the_game_ends(server_url: str) -> None:
    async with WsClient.connect(server_url, "Ann") as a:
        await a.send("create-room", game="reversi", options={"size": 6, "ai": "easy"})
        state = await a.expect("state", status="playing")
        view = state["view"]
        for _ in range(40):
            x, y = view["legal"][0]
            await a.send("move", move={"x": x, "y": y})
            while True:
                msg = await a.recv()
                if msg["type"] == "game-over":
                    assert msg["result"]["reason"] == "discs"
                    return
                if msg["type"] == "moved" and msg.get("turn") == a.player:
                    view = msg["view"]
                    break
        raise AssertionError("the game did not end")


def test_bad_options_are_refused_by_the_lobby() -> None:
    from gridhall.server.games import registry
    from gridhall.server.games.base import OptionError

    with pytest.raises(OptionError, match="size"):
        registry()["reversi"].parse_options({"size": 12})


@pytest.mark.parametrize("how", STOPS)
async def test_a_reversi_game_survives_a_restart_and_is_finished(tmp_path: Path, how: str) -> None:
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db))
        url = await first.ready()
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(url, "Bob"))
        await a.send("create-room", game="reversi", options={"size": 8, "clock": "5+3"})
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await a.expect("state", status="playing")
        await a.send("move", move={"x": 5, "y": 4})
        await b.expect("moved")
        await b.send("move", move={"x": 5, "y": 5})
        before = (await a.expect("moved", by=b.player))["view"]
        url = await stop_and_restart(stack, first, db, how, [a, b])
        a2 = await rejoin(stack, url, a, "Ann")
        b2 = await rejoin(stack, url, b, "Bob")
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["view"]["board"] == before["board"] and state["turn"] == a.player
        assert state["view"]["legal"] == before["legal"]
        x, y = state["view"]["legal"][0]
        await a2.send("move", move={"x": x, "y": y})
        moved = await b2.expect("moved", by=a.player)
        assert len(moved["view"]["moves"]) == 3
        await b2.send("resign")
        over = await a2.expect("game-over")
        assert over["result"]["winner"] == a.player
