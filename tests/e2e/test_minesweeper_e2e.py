"""Three real clients play co-op Minesweeper on a real server; no frame leaks a mine."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from gridhall.server.games.minesweeper import deduce
from tests.wsclient import WsClient

Cell = tuple[int, int]


@asynccontextmanager
async def coop_trio(url: str, options: dict[str, Any]) -> AsyncIterator[list[WsClient]]:
    """Three welcomed clients seated in one new Minesweeper room."""
    async with (
        WsClient.connect(url, "Ann") as a,
        WsClient.connect(url, "Bob") as b,
        WsClient.connect(url, "Cat") as c,
    ):
        await a.send("create-room", game="minesweeper", options=options)
        room = (await a.expect("joined"))["room"]
        await a.expect("state", status="playing")
        for other in (b, c):
            await other.send("join-room", room=room)
            await other.expect("state")
        yield [a, b, c]


async def act(clients: list[WsClient], by: WsClient, **move: Any) -> dict[str, Any]:
    """Send a move and wait until every client has the resulting view."""
    await by.send("move", move=move)
    got = await by.expect("moved", by=by.player)
    for other in clients:
        if other is not by:
            await other.expect("moved", by=by.player, seq=got["seq"])
    return dict(got["view"])


async def refused(by: WsClient, code: str, **move: Any) -> None:
    await by.send("move", move=move)
    err = await by.expect("error")
    assert err["code"] == code


def last_view(client: WsClient) -> dict[str, Any]:
    """The newest view the client received (after game-over: the final board)."""
    return dict(next(m["view"] for m in reversed(client.received) if "view" in m))


def mines_in(view: dict[str, Any]) -> set[Cell]:
    """Mines as the game-over view shows them (every one is *, X or F then)."""
    return {(x, y) for y, row in enumerate(view["rows"]) for x, ch in enumerate(row) if ch in "*XF"}


def assert_no_leak(clients: list[WsClient], mines: set[Cell]) -> None:
    """Every frame each client got while the game was on hides every unrevealed
    mine (the move that ended it, one seq before game-over, may show them)."""
    for client in clients:
        assert client.frames
        over = next(m["seq"] for m in client.received if m["type"] == "game-over")
        for msg in client.received:
            if msg.get("seq", 0) >= over - 1:
                continue
            view = msg.get("view") or {}
            for y, row in enumerate(view.get("rows", [])):
                for x, ch in enumerate(row):
                    assert ch not in "*W"
                    if (x, y) in mines:
                        assert ch in "#F?X"
            hint = view.get("hint")
            if hint and hint["safe"]:
                assert (hint["x"], hint["y"]) not in mines
            if msg["type"] == "error":
                assert not any(re.search(rf"\b{x}, {y}\b", msg["message"]) for x, y in mines)


async def test_three_players_clear_an_intermediate_board_with_the_solver(server_url: str) -> None:
    options = {"preset": "intermediate", "no_guess": True}
    async with coop_trio(server_url, options) as clients:
        a = clients[0]
        await a.send("move", move={"action": "hint"})
        hint = (await a.expect("moved"))["view"]["hint"]
        view = await act(clients, a, action="reveal", x=hint["x"], y=hint["y"])
        await refused(a, "illegal-move", action="reveal", x=16, y=0)
        await refused(a, "bad-message", action="reveal", x="1", y=0)
        turn = 0
        while view["revealed"] < 16 * 16 - 40:
            safe, mines = deduce(view["rows"], 40)
            assert safe, "a no-guess board always has a proven safe cell"
            player = clients[turn % 3]
            turn += 1
            if turn % 7 == 0:  # a hint now and then; it must agree with the solver
                hinted = (await act(clients, player, action="hint"))["hint"]
                assert hinted["safe"] and (hinted["x"], hinted["y"]) in safe
            if mines and turn % 5 == 0:
                mx, my = sorted(mines)[0]
                if view["rows"][my][mx] != "F":
                    await act(clients, player, action="mark", x=mx, y=my, mark="flag")
                    await refused(player, "illegal-move", action="reveal", x=mx, y=my)
            x, y = sorted(safe)[0]
            view = await act(clients, player, action="reveal", x=x, y=y)
        overs = [await c.expect("game-over") for c in clients]
        result = overs[0]["result"]
        assert result["reason"] == "cleared" and result["winner"] is None
        assert set(result["stats"]) == {c.player for c in clients}
        assert sum(s["revealed"] for s in result["stats"].values()) == 16 * 16 - 40
        assert all(s["revealed"] > 0 for s in result["stats"].values())
        final = last_view(clients[1])
        assert len(mines_in(final)) == 40 and final["elapsed"] >= 20  # one hint at least
        assert_no_leak(clients, mines_in(final))


async def test_loss_is_credited_to_the_player_who_hit_the_mine(server_url: str) -> None:
    options = {"width": 10, "height": 10, "mines": 90}  # the opening and one more are safe
    async with coop_trio(server_url, options) as clients:
        a, b, c = clients
        view = await act(clients, a, action="reveal", x=5, y=5)
        assert view["revealed"] == 9
        await refused(c, "illegal-move", action="chord", x=0, y=0)
        _, proven = deduce(view["rows"], 90)
        mx, my = sorted(proven)[0]
        await b.send("move", move={"action": "reveal", "x": mx, "y": my})
        overs = [await cl.expect("game-over") for cl in clients]
        result = overs[0]["result"]
        assert result["reason"] == "mine" and result["by"] == b.player
        assert result["stats"][b.player]["mines_hit"] == 1
        assert result["stats"][a.player] == {"revealed": 9, "flags": 0, "mines_hit": 0}
        final = last_view(a)
        assert final["rows"][my][mx] == "X" and len(mines_in(final)) == 90
        assert_no_leak(clients, mines_in(final))


def _wrong_flag_chord(rows: list[str], mines: int) -> tuple[Cell, list[Cell]] | None:
    """A revealed number and flags for it, one of them on a proven-safe cell."""
    safe, _ = deduce(rows, mines)
    height, width = len(rows), len(rows[0])
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if not ch.isdigit() or ch == "0":
                continue
            around = [
                (i, j)
                for j in range(y - 1, y + 2)
                for i in range(x - 1, x + 2)
                if 0 <= i < width and 0 <= j < height and rows[j][i] == "#"
            ]
            wrong = [cell for cell in around if cell in safe]
            if wrong and len(around) > int(ch):
                rest = [cell for cell in around if cell != wrong[0]]
                return (x, y), [wrong[0], *rest[: int(ch) - 1]]
    return None


async def test_chord_with_a_wrong_flag_explodes(server_url: str) -> None:
    options = {"preset": "intermediate", "no_guess": True}
    async with coop_trio(server_url, options) as clients:
        a, b, c = clients
        view = await act(clients, a, action="reveal", x=8, y=8)
        plan = _wrong_flag_chord(view["rows"], 40)
        while plan is None:
            safe, _ = deduce(view["rows"], 40)
            x, y = sorted(safe)[0]
            view = await act(clients, a, action="reveal", x=x, y=y)
            plan = _wrong_flag_chord(view["rows"], 40)
        (nx, ny), flags = plan
        for fx, fy in flags:
            await act(clients, b, action="mark", x=fx, y=fy, mark="flag")
        await c.send("move", move={"action": "chord", "x": nx, "y": ny})
        overs = [await cl.expect("game-over") for cl in clients]
        result = overs[0]["result"]
        assert result["reason"] == "mine" and result["by"] == c.player
        final = last_view(c)
        assert final["rows"][flags[0][1]][flags[0][0]] == "W"
        assert "X" in "".join(final["rows"])
        assert_no_leak(clients, mines_in(final))


async def test_a_hint_in_a_true_fifty_fifty_says_coin_flip_and_still_costs_time(
    server_url: str,
) -> None:
    """5×2 with one mine, opened at the top middle: the opening clears columns 1 to 3
    and the side with no mine, so the mine is in one column of two cells that every
    number sees alike, whatever the seed: a coin flip no reveal can settle."""
    options = {"preset": None, "width": 5, "height": 2, "mines": 1, "hint_penalty": 20}
    async with WsClient.connect(server_url, "Ann") as a:
        await a.send("create-room", game="minesweeper", options=options)
        await a.expect("state", status="playing")
        await a.send("move", move={"action": "reveal", "x": 2, "y": 0})
        opened = (await a.expect("moved"))["view"]
        assert sum(row.count("#") for row in opened["rows"]) == 2
        await a.send("move", move={"action": "hint"})
        view = (await a.expect("moved"))["view"]
        hint = view["hint"]
        assert hint["coin_flip"] is True and hint["safe"] is False and hint["risk"] == 0.5
        pair = {(hint["x"], hint["y"]), tuple(hint["other"])}
        hidden = {
            (x, y) for y, row in enumerate(view["rows"]) for x, c in enumerate(row) if c == "#"
        }
        assert pair == hidden and len({x for x, _ in pair}) == 1  # one column's two cells
        assert view["elapsed"] >= 20  # the penalty is charged: the hint told that much
