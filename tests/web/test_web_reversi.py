"""Reversi in two real browsers: keyboard play with screen-reader labels ("D3, black
disc", "C4, legal move"), hints for the side to move only, a click on a cell that is no
move refused in the page, the counts, and the phone layout without sideways scrolling."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.keys import Keys

from tests.web.harness import (
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)
from tests.web.layout import PHONE, check_layout, emulate
from tests.web.test_web_a11y import audit, focus_board, focused, keys, spoken


def start_pair(ann: Browser, bob: Browser, server: ServerThread, **selects: str) -> str:
    open_lobby(ann, server, "Ann")
    code = create_room(ann, "reversi", **selects)
    join_by_link(bob, invite_link(ann), "Bob", "reversi")
    for browser in (ann, bob):
        browser.wait(lambda b=browser: b.status_state() == "playing", "the game to start")
    return code


def hinted(browser: Browser) -> set[tuple[int, int]]:
    """The cells the board marks as legal moves."""
    rows = browser.js(
        "return [...document.querySelectorAll('[data-board] .cell.legal')]"
        ".map(c => [+c.dataset.x, +c.dataset.y]);"
    )
    return {(int(x), int(y)) for x, y in rows}


def label(browser: Browser, x: int, y: int) -> str:
    return str(browser.cell(x, y).get_attribute("aria-label"))


def test_reversi_from_the_keyboard_with_labels(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    start_pair(ann, bob, web_server)
    ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
    assert label(ann, 3, 3) == "D4, white disc" and label(ann, 4, 3) == "E4, black disc"
    assert label(ann, 3, 2) == "D3, legal move" and label(ann, 2, 3) == "C4, legal move"
    assert label(ann, 0, 0) == "A1, empty"
    assert "black 2 · white 2" in ann.status()
    assert focus_board(ann) == (4, 4)  # the cursor starts in the middle
    keys(ann, Keys.ARROW_LEFT, Keys.ARROW_UP, Keys.ARROW_UP)
    assert focused(ann) == (3, 2, "D3, legal move")
    keys(ann, Keys.ENTER)
    bob.wait(lambda: bob.cell(3, 2).get_attribute("data-disc") == "black", "Ann's disc at Bob's")
    bob.wait(lambda: bob.cell(3, 3).get_attribute("data-disc") == "black", "D4 turned over")
    assert label(bob, 3, 3) == "D4, black disc, turned over"
    bob.wait(lambda: "Ann: D3, black disc" in spoken(bob), "the move spoken at Bob's")
    ann.wait(lambda: "black 4 · white 1" in ann.status(), "the counts")
    # white's moves now, for everyone: C3, E3, C5
    assert hinted(bob) == {(2, 2), (4, 2), (2, 4)}
    audit(bob, "reversi playing")

    # Ann cannot move now; on Bob's side a cell that is no move is refused in the page
    bob.cell(0, 0).click()
    bob.wait(lambda: "A1 is not a legal move" in bob.find("#notice").text, "the refusal")
    bob.cell(2, 2).click()  # C3
    ann.wait(lambda: ann.cell(2, 2).get_attribute("data-disc") == "white", "Bob's disc")
    if shots:
        ann.screenshot(shots / "web-reversi.png")
    keys(bob, "R")
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: ann.find("#banner").is_displayed(), "the result")
    assert hinted(ann) == set()
    audit(ann, "reversi over")


def test_reversi_on_a_phone_does_not_scroll_sideways(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    emulate(ann, PHONE)
    start_pair(ann, bob, web_server, opt_size="10")
    ann.wait(lambda: len(ann.find_all("[data-board] .cell")) == 100, "the 10x10 board")
    check_layout(ann, PHONE, "reversi 10x10")
    width = ann.js("return document.querySelector('[data-board]').getBoundingClientRect().width")
    assert width <= PHONE.width
    if shots:
        ann.screenshot(shots / "web-phone-reversi.png")


def test_a_reversi_game_replays_with_its_counts(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    start_pair(ann, bob, web_server)
    ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
    ann.cell(5, 4).click()  # F5
    bob.wait(lambda: bob.cell(5, 4).get_attribute("data-disc") == "black", "Ann's disc")
    keys(bob, "R")
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: ann.status_state() == "over", "the game to end")
    ann.driver.get(f"{web_server.url}#history")
    games = ann.wait(
        lambda: ann.find_all(
            "#history:not([hidden]) [data-history]:not([aria-busy]) [data-game-id]"
        ),
        "the finished game",
    )
    games[0].click()
    ann.wait_css("#replay [data-board='reversi']")
    ann.wait(lambda: ann.find("[data-replay-step]").text == "0", "the start")
    assert ann.find("#replay [data-counts]").text == "black 2 · white 2"
    ann.find("[data-replay=next]").click()
    ann.wait(lambda: ann.find("[data-replay-step]").text == "1", "the first move")
    assert ann.find("#replay [data-counts]").text == "black 4 · white 1"
    assert (
        ann.find("#replay [data-board] [data-x='5'][data-y='4']").get_attribute("data-disc")
        == "black"
    )
