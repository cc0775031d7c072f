"""The computer opponent, renju fouls and an external pbrain engine in real rooms."""

from __future__ import annotations

import sys
from typing import Any

from gridhall.server.games.gomoku.piskvork.bridge import run_bridge
from gridhall.server.io.app import GameServer
from tests.wsclient import WsClient, gomoku_pair


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def test_the_computer_takes_seat_one_and_answers_every_move(server_url: str) -> None:
    async with WsClient.connect(server_url, "Ann") as a:
        await a.send("create-room", game="gomoku", options={"ai": "easy"})
        state = await a.expect("state", status="playing")
        bot = state["players"][1]
        assert bot["bot"] == "easy" and bot["connected"] is True
        for x, y in [(7, 7), (3, 3), (11, 2)]:
            await a.send("move", move={"x": x, "y": y})
            await a.expect("moved", by=a.player)
            # No tighter guard than the suite's own: a worker's first move imports the
            # engine and fills its tables at a low CPU priority, which on a loaded machine
            # took more than 10 s (issue 40); the answer is the event waited on.
            reply = await a.expect("moved", by=bot["player"])
            assert reply["view"]["next"] == "black"
        assert len(reply["view"]["moves"]) == 6
        await a.send("offer", kind="draw")  # the computer declines draws ...
        assert (await a.expect("answer"))["accept"] is False
        await a.send("offer", kind="takeback")  # ... and grants take-backs
        assert (await a.expect("answer"))["accept"] is True
        assert len((await a.expect("state"))["view"]["moves"]) == 4
        await a.send("resign")
        over = await a.expect("game-over")
        assert over["result"]["winner"] == bot["player"]
        await a.send("play-again")
        assert (await a.expect("agree-again"))["from"] == bot["player"]
        state = await a.expect("state", status="playing")
        assert state["view"]["colors"][bot["player"]] == "black"
        opening = await a.expect("moved", by=bot["player"])  # black opens
        assert len(opening["view"]["moves"]) == 1


async def test_a_renju_foul_is_refused_with_its_name_and_the_game_goes_on(server_url: str) -> None:
    async with gomoku_pair(server_url, {"rule": "renju"}) as (a, b, _room):
        black = [(7, 7), (8, 7), (6, 8), (6, 9)]
        white = [(0, 0), (14, 0), (0, 14), (14, 14)]
        for (bx, by), (wx, wy) in zip(black, white):
            await a.send("move", move={"x": bx, "y": by})
            await b.expect("moved")
            await b.send("move", move={"x": wx, "y": wy})
            await a.expect("moved")
        # (6, 7) would make two open threes at once: 6..8 on row 7 and 7..9 on column 6
        await a.send("move", move={"x": 6, "y": 7})
        err = await a.expect("error")
        assert err["code"] == "illegal-move" and "double-three" in err["message"]
        await a.send("sync")
        state = await a.expect("state")
        assert state["turn"] == a.player and len(state["view"]["moves"]) == 8
        await a.send("move", move={"x": 10, "y": 10})
        assert (await b.expect("moved"))["by"] == a.player


async def test_an_external_pbrain_engine_plays_a_whole_game_through_the_bridge(
    make_server: Any,
) -> None:
    server = await make_server()
    engine = [sys.executable, "-m", "gridhall.server.games.gomoku.piskvork.brain"]
    results = await run_bridge(
        url(server),
        engine,
        "Engine",
        None,
        {"size": 15, "rule": "standard", "ai": "easy"},
        games=1,
        timeout_turn_ms=200,
    )
    assert len(results) == 1
    assert results[0]["reason"] in ("five", "draw")
    games = server.store.recent_games()
    assert games[0].players[0]["name"] == "Engine" and games[0].players[1]["bot"] == "easy"
    assert len(games[0].record["moves"]) >= 9
