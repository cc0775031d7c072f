"""Two real clients race at Link-match on a real server; a third only watches.

The winner clears a small board by following hints; the loser's board never
changes; no client ever receives another racer's tiles or link coordinates.
"""

from __future__ import annotations

from typing import Any

from gridhall.server.io.net.app import GameServer
from tests.conftest import url_of
from tests.wsclient import WsClient

OPTIONS = {"width": 4, "height": 4, "kinds": 2, "countdown": 0, "hint_penalty": 0}


def keys_anywhere(value: Any) -> set[str]:
    """Every map key at any depth of a decoded message."""
    if isinstance(value, dict):
        found = set(value)
        for v in value.values():
            found |= keys_anywhere(v)
        return found
    if isinstance(value, list):
        return set().union(*(keys_anywhere(v) for v in value)) if value else set()
    return set()


async def test_race_won_by_following_hints_and_boards_stay_private(server: GameServer) -> None:
    url = url_of(server)
    async with (
        WsClient.connect(url, "Ann") as a,
        WsClient.connect(url, "Bob") as b,
        WsClient.connect(url, "Cat") as c,
    ):
        await a.send("create-room", game="linkmatch", options=OPTIONS)
        room = (await a.expect("joined"))["room"]
        await a.expect("state", status="waiting")
        await b.send("join-room", room=room)
        await b.expect("state", status="waiting")
        await c.send("join-room", room=room, role="spectator")
        await c.expect("state")

        await b.send("start")  # only the creator may start
        assert (await b.expect("error"))["code"] == "not-a-player"
        await a.send("start")
        state_a = await a.expect("state", status="playing")
        state_b = await b.expect("state", status="playing")
        state_c = await c.expect("state", status="playing")
        board = state_b["view"]["rows"]
        assert state_a["view"]["rows"] == board  # the same board for every racer
        assert state_a["view"]["progress"] == {a.player: 16, b.player: 16}
        assert "rows" not in state_c["view"]

        await b.send("move", move={"action": "link", "a": [0, 0], "b": [0, 0]})
        assert (await b.expect("error"))["code"] == "illegal-move"

        links = 0
        while True:
            await a.send("move", move={"action": "hint"})
            hint = (await a.expect("moved", by=a.player))["view"]["hint"]
            await a.send("move", move={"action": "link", "a": hint[0], "b": hint[1]})
            view = (await a.expect("moved", by=a.player))["view"]
            links += 1
            assert len(view["path"]) >= 2 and view["remaining"] == 16 - 2 * links
            if view["remaining"] == 0:
                break
        over = await a.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "cleared"
        assert over["result"]["ranking"] == [a.player, b.player]
        assert over["result"]["remaining"] == {a.player: 0, b.player: 16}
        assert set(over["result"]["times"]) == {a.player, b.player}
        await b.expect("game-over")
        await c.expect("game-over")

        moved_b = [m for m in b.received if m["type"] == "moved"]
        assert len(moved_b) == 2 * links
        for m in moved_b:  # the winner's moves reach b without coordinates
            assert set(m["move"]) == {"action"}
            assert m["view"]["rows"] == board and m["view"]["remaining"] == 16
        assert moved_b[-1]["view"]["progress"] == {a.player: 0, b.player: 16}
        for m in b.received:
            assert not {"path", "hint", "a", "b"} & keys_anywhere(m), m
        for m in c.received:
            assert not {"rows", "path", "hint", "a", "b"} & keys_anywhere(m), m

    stored = server.store.recent_games(1)[0]
    assert stored.game == "linkmatch"
    assert stored.result["winner"] == stored.record["result"]["winner"]
    assert stored.record["board"] == board
    assert len(stored.record["actions"]) == 2


async def test_countdown_then_start_and_late_joiner_watches(server: GameServer) -> None:
    url = url_of(server)
    async with WsClient.connect(url, "Ann") as a, WsClient.connect(url, "Dan") as d:
        await a.send("create-room", game="linkmatch", options={**OPTIONS, "countdown": 0.5})
        room = (await a.expect("joined"))["room"]
        await a.send("start")
        state = await a.expect("state", status="playing")
        assert 0 < state["view"]["starts_in"] <= 0.5
        await a.send("move", move={"action": "hint"})  # refused until the race starts
        while (reply := await a.recv())["type"] not in ("error", "moved"):
            pass
        started = any(m["type"] == "notice" and m["event"] == "race-start" for m in a.received[:-1])
        if reply["type"] == "error":  # (a busy machine may let the countdown end first)
            assert reply["code"] == "not-playing" and not started
            notice = await a.expect("notice")
            assert notice["event"] == "race-start"
        else:
            assert started and "hint" in reply["view"]
        fresh = next(
            (m for m in a.received if m["type"] == "state" and m["seq"] > state["seq"]), None
        ) or await a.expect("state")
        assert "starts_in" not in fresh["view"]

        await d.send("join-room", room=room)
        joined = await d.expect("state")
        assert "rows" not in joined["view"]
        await d.send("move", move={"action": "hint"})
        assert (await d.expect("error"))["code"] == "not-a-player"
        await a.send("move", move={"action": "hint"})
        assert "hint" in (await a.expect("moved"))["view"]
