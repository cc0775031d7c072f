"""Minesweeper and Link-match played through the terminal client's mouse handling."""

from __future__ import annotations

from typing import Any

from test_client_tui import (
    GridhallApp,
    apps,
    press,
    shown,
    snapshot,
    state,
)  # shared helpers
from textual.pilot import Pilot
from textual.widgets import Select

from gridhall.client.tui.boards.minesweeper import MinesWidget
from tests.waiting import ui_until


def url_of(server: Any) -> str:
    return f"ws://127.0.0.1:{server.port}/"


def mines_offset(pilot: Pilot[Any], x: int, y: int) -> tuple[int, int]:
    """Where cell (x, y) is in the board widget: border, row numbers, two columns a cell,
    and the row of column letters above."""
    board = pilot.app.screen.query_one("#board", MinesWidget)
    return 1 + board.label_width() + 2 * x, 1 + 1 + y


async def mines_click(pilot: Pilot[Any], x: int, y: int, button: int = 1) -> None:
    """Minesweeper cells are two columns wide inside a one-cell border."""
    await shown(pilot)
    assert await pilot.click("#board", offset=mines_offset(pilot, x, y), button=button)


def rows(app: GridhallApp) -> list[str]:
    return list(state(app)["view"]["rows"])


def neighbours(x: int, y: int, w: int, h: int) -> list[tuple[int, int]]:
    return [
        (x + dx, y + dy)
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
        if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h
    ]


async def test_minesweeper_reveal_flag_and_chord_by_mouse(server: Any) -> None:
    async with apps(url_of(server), "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await pa.press("n")
        await ui_until(pa, lambda: app_a.screen.query("#create-dialog"))
        app_a.screen.query_one("#game", Select).value = "minesweeper"  # preset: beginner
        await pa.pause()
        await press(pa, "#ok")
        await ui_until(pa, lambda: state(app_a).get("game") == "minesweeper")
        code = app_a.session.room.room  # type: ignore[union-attr]
        app_b.session.submit("join-room", room=code)
        await ui_until(pb, lambda: state(app_b).get("status") == "playing")
        await ui_until(pa, lambda: state(app_a).get("status") == "playing")

        await mines_click(pa, 4, 4)  # left = reveal; the first click is safe
        await ui_until(pb, lambda: state(app_b)["view"].get("revealed", 0) > 0)
        w, h = state(app_a)["view"]["width"], state(app_a)["view"]["height"]

        # right = cycle mark, seen by the other player: flag, question, none
        hx, hy = next((x, y) for y in range(h) for x in range(w) if rows(app_a)[y][x] == "#")
        for expected in ("F", "?", "#"):
            await mines_click(pa, hx, hy, button=3)
            await ui_until(pb, lambda e=expected: rows(app_b)[hy][hx] == e)

        # chord: flag every mine around a revealed number, then middle-click it
        game = server.hub.lobby.rooms[code].game
        mine = {(c % w, c // w) for c in range(w * h) if game.board.is_mine(c)}
        current = rows(app_a)
        target = next(
            (x, y)
            for y in range(h)
            for x in range(w)
            if current[y][x] in "12345678"
            and any(
                current[ny][nx] == "#" and (nx, ny) not in mine for nx, ny in neighbours(x, y, w, h)
            )
        )
        around = neighbours(*target, w, h)
        for nx, ny in around:
            if (nx, ny) in mine and current[ny][nx] != "F":
                await mines_click(pb, nx, ny, button=3)  # bob flags, co-op
                await ui_until(pa, lambda nx=nx, ny=ny: rows(app_a)[ny][nx] == "F")
        # both buttons together (left held, right pressed) chord, as in the classic game
        tx, ty = target
        await shown(pa)
        assert await pa.mouse_down("#board", offset=mines_offset(pa, tx, ty), button=1)
        assert await pa.mouse_down("#board", offset=mines_offset(pa, tx, ty), button=3)
        await pa.mouse_up("#board", offset=mines_offset(pa, tx, ty))
        safe_hidden = [(nx, ny) for nx, ny in around if (nx, ny) not in mine]
        await ui_until(pb, lambda: all(rows(app_b)[y][x] in "012345678" for x, y in safe_hidden))
        snapshot(app_b, "minesweeper")


async def tile(app: GridhallApp) -> list[list[int]]:
    return list(state(app)["view"]["rows"])


async def link_click(pilot: Pilot[Any], x: int, y: int) -> None:
    """Link-match cells are three columns wide, after a one-cell ring and the border."""
    await shown(pilot)
    assert await pilot.click("#board", offset=(1 + 3 * (x + 1) + 1, 1 + 1 + y))


async def test_linkmatch_link_by_two_clicks_drops_the_tile_count(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        app_a.session.submit(
            "create-room",
            game="linkmatch",
            options={"width": 8, "height": 6, "kinds": 12, "countdown": 0},
        )
        await ui_until(pa, lambda: app_a.room_screen is not None and state(app_a))
        app_b.session.submit("join-room", room=app_a.session.room.room)  # type: ignore[union-attr]
        await ui_until(pa, lambda: len(state(app_a).get("players", [])) == 2)
        await ui_until(pa, lambda: app_a.screen.query_one("#btn-start").display)
        await press(pa, "#btn-start")
        await ui_until(pa, lambda: state(app_a).get("status") == "playing")
        await ui_until(pb, lambda: state(app_b).get("status") == "playing")

        before = state(app_a)["view"]["remaining"]
        await ui_until(pa, lambda: not app_a.screen.query_one("#btn-hint").disabled)
        await press(pa, "#btn-hint")
        await ui_until(pa, lambda: state(app_a)["view"].get("hint"))
        (x1, y1), (x2, y2) = state(app_a)["view"]["hint"]
        await link_click(pa, x1, y1)
        await link_click(pa, x2, y2)
        await ui_until(pa, lambda: state(app_a)["view"]["remaining"] == before - 2)
        me = app_a.session.player
        await ui_until(pb, lambda: state(app_b)["view"]["progress"][me] == before - 2)
        assert state(app_a)["view"]["rows"][y1][x1] == 0
        snapshot(app_a, "linkmatch")
