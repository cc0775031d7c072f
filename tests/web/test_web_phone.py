"""The browser client on a 360 px touch phone: a room opens at its board, and Link-match's
default 16x9 board has tiles a finger can hit (it lies on its side: the columns run down
the screen) without the page scrolling sideways; the link's path still joins the tiles."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.harness import Browser, ServerThread, browser_missing, create_room, open_lobby
from tests.web.layout import PHONE, emulate

TOUCH = 32.0
"""The smallest comfortable touch target, in CSS pixels (WCAG 2.5.8 asks 24, platforms 44)."""


@pytest.fixture
def phone() -> Iterator[Browser]:
    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"browser tests need Chromium: {missing}")
    browser = Browser()
    emulate(browser, PHONE)
    yield browser
    browser.quit()


@pytest.fixture
def phone_server(tmp_path: object, phone: Browser) -> Iterator[ServerThread]:
    server = ServerThread(tmp_path / "gridhall.db")  # type: ignore[operator]
    yield server
    phone.driver.get("about:blank")
    server.close()


def board_top(browser: Browser) -> float:
    return float(
        browser.js("return document.querySelector('[data-board]').getBoundingClientRect().top")
    )


@pytest.mark.parametrize("game", ["gomoku", "linkmatch"])
def test_a_room_made_at_the_bottom_of_the_lobby_opens_at_its_board(
    phone: Browser, phone_server: ServerThread, game: str
) -> None:
    open_lobby(phone, phone_server, "Ann")
    phone.js("document.querySelector('#create-form button[type=submit]').scrollIntoView()")
    assert phone.js("return window.scrollY") > 100  # Create room is at the bottom
    create_room(phone, game)
    phone.wait(lambda: phone.js("return window.scrollY") == 0, "the room at its top")
    assert 0 <= board_top(phone) < PHONE.height / 2  # the board in sight, not above it


CELL = """const c = (x, y) => document.querySelector(`[data-board] [data-x="${x}"][data-y="${y}"]`)
  .getBoundingClientRect();
const a = c(0, 0), right = c(1, 0), below = c(0, 1);
const frame = document.getElementById('board-wrap');
return {w: a.width, h: a.height, rightOfX: right.left - a.left, downOfX: right.top - a.top,
        downOfY: below.top - a.top, page: document.documentElement.scrollWidth,
        pageX: window.scrollX, frame: frame.clientWidth};"""

PATH_ENDS = """const line = document.querySelector('[data-board] polyline[data-path]');
const ctm = line.getScreenCTM();
const ends = [line.points[0], line.points[line.points.length - 1]];
return ends.map((p) => { const q = p.matrixTransform(ctm); return [q.x, q.y]; });"""


def centre(browser: Browser, x: int, y: int) -> tuple[float, float]:
    r = browser.js("return arguments[0].getBoundingClientRect().toJSON()", browser.cell(x, y))
    return r["left"] + r["width"] / 2, r["top"] + r["height"] / 2


def test_linkmatch_tiles_on_a_phone_are_big_enough_to_tap_and_links_join_them(
    phone: Browser, phone_server: ServerThread
) -> None:
    open_lobby(phone, phone_server, "Ann")
    create_room(phone, "linkmatch")  # the default: 16 x 9
    phone.find("#actions [data-action=start]").click()
    phone.wait(lambda: phone.status_state() == "playing", "the race")
    phone.wait(lambda: not phone.find(".board-message").is_displayed(), "the countdown to end")
    got = phone.js(CELL)
    assert got["w"] >= TOUCH and got["h"] >= TOUCH, got
    assert (got["page"], got["pageX"]) == (PHONE.width, 0), "the page never scrolls sideways"
    assert got["downOfX"] > 0 and got["rightOfX"] == 0, "the columns run down the screen"
    assert got["downOfY"] == 0 and got["frame"] >= 11 * TOUCH  # rows across, ring included

    phone.find("#actions [data-action=hint]").click()
    cells = phone.wait(lambda: phone.find_all("[data-board] .cell.hint"), "the hint pair")
    a, b = sorted((int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))) for c in cells)
    phone.cell(*a).click()  # a tap
    assert "selected" in str(phone.cell(*a).get_attribute("class"))
    phone.cell(*b).click()
    phone.wait(lambda: phone.find_all("[data-board] polyline[data-path]"), "the link's path")
    phone.js("document.getAnimations().forEach((a) => a.pause())")  # hold the fading path
    ends = phone.js(PATH_ENDS)
    for (px, py), cell in zip(ends, (a, b), strict=True):  # drawn from tile to tile, on screen
        cx, cy = centre(phone, *cell)
        assert abs(px - cx) < 1 and abs(py - cy) < 1, (ends, cell, (cx, cy))
