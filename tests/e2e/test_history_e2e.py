"""``gridhall-server history`` on games really played and stored: each game's end in
its own words and its length in its own unit."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gridhall.server import cli
from gridhall.server.games.minesweeper import deduce
from gridhall.server.io.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient

RACE = {"width": 4, "height": 4, "kinds": 2, "countdown": 0, "hint_penalty": 0}
BOARD = {"width": 6, "height": 6, "mines": 4, "no_guess": True}


async def race_won_by_ann(a: WsClient, b: WsClient) -> None:
    """Ann clears a 4x4 Link-match board (8 links) following hints; Bob makes none."""
    await a.send("create-room", game="linkmatch", options=RACE)
    room = (await a.expect("joined"))["room"]
    await b.send("join-room", room=room)
    await b.expect("state", status="waiting")
    await a.send("start")
    await a.expect("state", status="playing")
    while True:
        await a.send("move", move={"action": "hint"})
        hint = (await a.expect("moved", by=a.player))["view"]["hint"]
        await a.send("move", move={"action": "link", "a": hint[0], "b": hint[1]})
        if (await a.expect("moved", by=a.player))["view"]["remaining"] == 0:
            break
    for client in (a, b):
        await client.expect("game-over")
        await client.send("leave-room")
        await client.expect("left", player=client.player)


async def board_cleared_together(a: WsClient, b: WsClient) -> tuple[int, list[str]]:
    """Ann and Bob take turns revealing proven safe cells until the board is clear;
    returns how many clicks that took and who made them (Ann alone if her first
    click opened the whole board)."""
    await a.send("create-room", game="minesweeper", options=BOARD)
    room = (await a.expect("joined"))["room"]
    await a.expect("state", status="playing")
    await b.send("join-room", room=room)
    await b.expect("state")
    await a.send("move", move={"action": "hint"})
    hint = (await a.expect("moved", by=a.player))["view"]["hint"]
    clicks, turn, cell = 0, 0, (hint["x"], hint["y"])
    while True:
        player = (a, b)[turn % 2]
        turn += 1
        await player.send("move", move={"action": "reveal", "x": cell[0], "y": cell[1]})
        view = (await player.expect("moved", by=player.player))["view"]
        clicks += 1
        names = ["Ann", "Bob"][: min(clicks, 2)]
        if view["revealed"] == 36 - 4:
            break
        safe, _ = deduce(view["rows"], 4)
        assert safe, "a no-guess board always has a proven safe cell"
        cell = sorted(safe)[0]
    for client in (a, b):
        await client.expect("game-over")
        await client.send("leave-room")
        await client.expect("left", player=client.player)
    return clicks, names


async def gomoku(a: WsClient, b: WsClient, options: dict[str, Any]) -> None:
    await a.send("create-room", game="gomoku", options=options)
    room = (await a.expect("joined"))["room"]
    await b.send("join-room", room=room)
    await a.expect("state", status="playing")
    await b.expect("state", status="playing")


async def test_history_tells_each_games_end_and_length_in_its_own_words(
    make_server: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    server: GameServer = await make_server()
    url = url_of(server)
    async with WsClient.connect(url, "Ann") as a, WsClient.connect(url, "Bob") as b:
        await race_won_by_ann(a, b)
        clicks, _clearers = await board_cleared_together(a, b)
        await gomoku(a, b, {"clock": {"minutes": 0.01, "increment": 0}})  # Ann lets it run out
        await a.expect("game-over", timeout=30)
        for client in (a, b):
            await client.send("leave-room")
            await client.expect("left", player=client.player)
        await gomoku(a, b, {})
        await a.send("move", move={"x": 7, "y": 7})
        await b.expect("moved")
        await a.send("resign")
        await b.expect("game-over")
    await server.close()  # everything stored
    capsys.readouterr()
    cli.print_history(str(tmp_path / "gridhall.db"), 10)
    lines = capsys.readouterr().out.splitlines()[1:]
    ends = [line.split("  ", 2)[2].split(None, 1)[1] for line in lines]  # after the game name
    assert len(ends) == 4, lines
    resigned, timed_out, cleared, race = ends  # newest first
    # how each ended, in the words every client shows (the description's results)
    assert " Bob wins by resignation. · 1 move in 0:" in resigned
    assert " Bob wins by time. · 0 moves in 0:" in timed_out
    assert f" Board cleared — everyone wins! · {clicks} click" in cleared
    assert " Ann cleared the board first and wins the race (0:" in race
    assert "· 8 links (Ann 8, Bob 0) in 0:" in race
