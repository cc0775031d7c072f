"""Accessibility in a real browser: every game played from the keyboard alone (a visible
cursor, Enter / Space, the terminal client's action keys), labelled cells, moves and
offers spoken through a live region, and an axe-core audit (vendored, injected by the
test: the page never loads it) with no serious or critical violation on the lobby and
on each game."""

from __future__ import annotations

import json
from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from tests.web.harness import (
    Browser,
    ServerThread,
    choose,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
"""axe-core, vendored for the tests only (``client/web/vendor/vendor.json`` pins it)."""

AUDIT = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations
  .filter((v) => v.impact === 'serious' || v.impact === 'critical')
  .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))),
  (err) => done([{id: 'axe-error', help: String(err)}]));
"""


def audit(browser: Browser, where: str) -> None:
    """Run axe-core on the page as it is now; fail on a serious or critical violation."""
    if not browser.js("return typeof window.axe === 'object'"):
        # WebDriver evaluates the script itself, so the page's CSP does not stop it
        browser.js(AXE.read_text("utf-8") + "\n;window.axe = axe;")
    found = browser.driver.execute_async_script(AUDIT)
    assert not found, f"{where}: {json.dumps(found, indent=1)}"


def keys(browser: Browser, *typed: str) -> None:
    """Type into whatever has the focus (as a keyboard would)."""
    ActionChains(browser.driver).send_keys(*typed).perform()


def focus_board(browser: Browser) -> tuple[int, int]:
    """Tab onto the board's cursor cell; returns where the cursor is."""
    browser.js("document.querySelector('[data-board] .cell[tabindex=\"0\"]').focus()")
    x, y = browser.js("const c = document.activeElement; return [+c.dataset.x, +c.dataset.y];")
    return int(x), int(y)


def focused(browser: Browser) -> tuple[int, int, str]:
    x, y, label = browser.js(
        "const c = document.activeElement;"
        "return [+c.dataset.x, +c.dataset.y, c.getAttribute('aria-label')];"
    )
    return int(x), int(y), str(label)


def spoken(browser: Browser) -> str:
    return str(browser.js("return document.getElementById('announce').textContent"))


def test_the_lobby_passes_the_audit(ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    audit(ann, "lobby")
    for game in ("minesweeper", "linkmatch"):
        choose(ann, "game", game)
        audit(ann, f"create form ({game})")


def test_gomoku_from_the_keyboard_with_labels_and_announcements(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
    assert focus_board(ann) == (7, 7)  # the cursor starts in the middle
    keys(ann, Keys.ARROW_LEFT, Keys.ARROW_UP)
    assert focused(ann) == (6, 6, "G7, empty")
    assert "cursor" in ann.cell(6, 6).get_attribute("class")
    keys(ann, Keys.ENTER)
    bob.wait(lambda: bob.cell(6, 6).get_attribute("data-stone") == "black", "Ann's stone")
    ann.wait(
        lambda: ann.cell(6, 6).get_attribute("aria-label").startswith("G7, black stone"),
        "the cell's label",
    )
    bob.wait(lambda: "Ann: G7, black stone" in spoken(bob), "the move spoken at Bob's")
    audit(ann, "gomoku playing")

    focus_board(bob)
    keys(bob, Keys.ARROW_RIGHT, " ")  # Space plays too
    ann.wait(lambda: ann.cell(8, 7).get_attribute("data-stone") == "white", "Bob's stone")
    keys(bob, "d")  # the terminal client's key: offer a draw
    ann.wait(lambda: "Bob asks for a draw" in spoken(ann), "the offer spoken at Ann's")
    ann.wait_css("#offer-bar")
    ann.js("document.activeElement.blur()")
    keys(ann, "n")  # no
    ann.wait(lambda: not ann.find("#offer-bar").is_displayed(), "the offer declined")
    keys(bob, "R")  # resign: asks first
    confirm = bob.wait_css("#confirm-bar")
    assert bob.status_state() == "playing"
    assert "Resign" in confirm.text
    keys(bob, Keys.ESCAPE)
    assert not bob.find("#confirm-bar").is_displayed()
    keys(bob, "R")
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: ann.find("#banner").is_displayed(), "the result")
    ann.wait(lambda: "resign" in spoken(ann), "the result spoken")
    audit(ann, "gomoku over")


def test_minesweeper_from_the_keyboard(ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "minesweeper", opt_preset="beginner")
    assert focus_board(ann) == (4, 4)
    keys(ann, Keys.HOME, Keys.PAGE_UP)
    assert focused(ann) == (0, 0, "A1, hidden")
    keys(ann, "f")
    ann.wait(lambda: ann.cell(0, 0).get_attribute("aria-label") == "A1, flagged", "the flag")
    keys(ann, "f")  # flag -> ? -> none, as a right click cycles (each from what is shown)
    ann.wait(lambda: ann.cell(0, 0).get_attribute("aria-label") == "A1, question mark", "?")
    keys(ann, "f")
    ann.wait(lambda: ann.cell(0, 0).get_attribute("aria-label") == "A1, hidden", "no mark")
    keys(ann, Keys.END, " ")  # reveal J1 (columns skip I; the first click opens an area)
    ann.wait(lambda: ann.cell(8, 0).get_attribute("aria-label") != "J1, hidden", "J1 opened")
    label = ann.cell(8, 0).get_attribute("aria-label")
    assert label == "J1, no mines around" or label.endswith(" around"), label
    audit(ann, "minesweeper")


def test_linkmatch_from_the_keyboard(ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "linkmatch", preset="2")  # the 8×6 preset
    keys(ann, "g")  # the creator starts the race
    ann.wait(lambda: ann.status_state() == "playing", "the race")
    ann.wait(
        lambda: ann.js(
            "return !!document.querySelector('[data-board] [data-kind]:not([data-kind=\"0\"])')"
        ),
        "the tiles",
    )
    focus_board(ann)
    keys(ann, Keys.HOME, Keys.PAGE_UP, Keys.PAGE_UP, Keys.ENTER)
    ann.wait(lambda: "selected" in ann.cell(0, 0).get_attribute("class"), "the picked tile")
    label = ann.cell(0, 0).get_attribute("aria-label")
    assert label.startswith("A1, tile ") and label.endswith(", picked"), label
    keys(ann, Keys.ESCAPE)
    ann.wait(lambda: "selected" not in ann.cell(0, 0).get_attribute("class"), "dropped")
    assert not ann.cell(0, 0).get_attribute("aria-label").endswith("picked")
    audit(ann, "linkmatch")
