"""Co-op Minesweeper in two real browsers: reveal, flag, hint, and the loss display
(the exploded mine, the other mines, wrong flags crossed); touch on a phone."""

from __future__ import annotations

import re
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains

from tests.web.harness import (
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)

Cell = tuple[int, int]


def mines_of(server: ServerThread) -> set[Cell]:
    """Where the mines are, read from the server (the browsers never learn it)."""

    def read() -> set[Cell]:
        (room,) = server.server.hub.lobby.rooms.values()
        board = room.game.board  # type: ignore[union-attr]
        return {(m % board.width, m // board.width) for m in board.mines}

    return server.sync(read)


def char(browser: Browser, cell: Cell) -> str:
    return str(browser.cell(*cell).get_attribute("data-cell"))


def hidden(browser: Browser) -> set[Cell]:
    return {cell for cell, ch in browser.cells("cell").items() if ch == "#"}


def start_coop(ann: Browser, bob: Browser, server: ServerThread) -> None:
    open_lobby(ann, server, "Ann")
    create_room(ann, "minesweeper", opt_preset="beginner")
    join_by_link(bob, invite_link(ann), "Bob", "minesweeper")
    ann.wait(lambda: "Bob" in ann.find("#players").text, "Bob seated")
    ann.cell(4, 4).click()
    for browser in (ann, bob):
        browser.wait(lambda b=browser: char(b, (4, 4)) not in "#", "the opening")


def test_reveal_and_flag_are_shared_and_a_mine_shows_the_loss(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    start_coop(ann, bob, web_server)
    mines = mines_of(web_server)
    covered = hidden(bob)
    mine = min(covered & mines)
    flagged_mine, safe = max(covered & mines), min(covered - mines)
    assert len(hidden(ann)) == len(covered)  # one shared board

    ActionChains(bob.driver).context_click(bob.cell(*flagged_mine)).perform()
    ann.wait(lambda: char(ann, flagged_mine) == "F", "Bob's flag on Ann's board")
    ActionChains(bob.driver).context_click(bob.cell(*safe)).perform()
    ann.wait(lambda: char(ann, safe) == "F", "Bob's second flag")
    ann.find("#actions [data-action=hint]").click()
    bob.wait(
        lambda: bob.find_all("[data-board] .hint-safe, [data-board] .hint-risky"),
        "the hint cell at Bob's",
    )
    assert re.search(r"hint: [A-HJ-Z]+[1-9]\d* is (safe|the best guess)", bob.status())
    labels = [t.text for t in bob.find_all("[data-board=minesweeper] svg text.label")]
    assert {"A", "B", "1", "2"} <= set(labels)  # the frame names columns and rows

    ann.cell(*mine).click()
    for browser in (ann, bob):
        browser.wait(lambda b=browser: b.status_state() == "over", "the loss")
        assert char(browser, mine) == "X"
        assert "exploded" in str(browser.cell(*mine).get_attribute("class"))
        assert char(browser, safe) == "W"  # the wrong flag, crossed
        assert char(browser, flagged_mine) == "F"
        assert all(char(browser, m) in "*XF" for m in mines)
    assert "Boom! Ann hit a mine." in bob.wait_css("#banner").text
    if shots:
        ann.js("document.getElementById('notice').hidden = true")
        ann.screenshot(shots / "web-minesweeper.png")


def touch(browser: Browser, cell: Cell, phase: str) -> None:
    """A finger on a cell's centre (Chrome DevTools touch input, as a phone sends)."""
    x, y = browser.js(
        "const r = arguments[0].getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];",
        browser.cell(*cell),
    )
    points = [] if phase == "touchEnd" else [{"x": x, "y": y}]
    browser.driver.execute_cdp_cmd(
        "Input.dispatchTouchEvent", {"type": phase, "touchPoints": points}
    )


def test_phone_long_press_flags_and_tap_reveals(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    bob.emulate_phone(360, 740)
    try:
        start_coop(ann, bob, web_server)
        assert bob.js("return document.documentElement.scrollWidth") <= 360  # no sideways page
        assert bob.js("return matchMedia('(pointer: coarse)').matches")
        mines = mines_of(web_server)
        covered = sorted(hidden(bob))
        mine = next(c for c in covered if c in mines)
        safe = next(c for c in covered if c not in mines)

        bob.js("arguments[0].scrollIntoView({block: 'center'})", bob.cell(*mine))
        touch(bob, mine, "touchStart")
        ann.wait(lambda: char(ann, mine) == "F", "the long press to flag")  # still pressed
        touch(bob, mine, "touchEnd")
        bob.js("arguments[0].scrollIntoView({block: 'center'})", bob.cell(*safe))
        touch(bob, safe, "touchStart")
        touch(bob, safe, "touchEnd")
        ann.wait(lambda: char(ann, safe) not in "#F?", "the tap to reveal")
        assert char(bob, mine) == "F"  # the long press did not also reveal
        if shots:
            bob.js("window.scrollTo(0, 0); document.getElementById('notice').hidden = true")
            bob.screenshot(shots / "web-phone.png")
    finally:
        bob.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        bob.driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        bob.driver.execute_cdp_cmd("Emulation.setEmitTouchEventsForMouse", {"enabled": False})
