"""Race-mode Link-match in two real browsers: start, hint, a link with its green path,
the red selection frame, shuffle, and the other racer's progress."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from tests.web.harness import (
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)

Cell = tuple[int, int]


def xy(element: object) -> Cell:
    return int(element.get_attribute("data-x")), int(element.get_attribute("data-y"))  # type: ignore[attr-defined]


def kinds(browser: Browser) -> dict[Cell, int]:
    return {cell: int(kind or 0) for cell, kind in browser.cells("kind").items()}


def hint_pair(browser: Browser) -> list[Cell]:
    browser.find("#actions [data-action=hint]").click()
    cells = browser.wait(lambda: browser.find_all("[data-board] .cell.hint"), "the hint pair")
    return sorted(xy(c) for c in cells)


def test_a_link_shows_its_path_and_the_others_see_progress(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "linkmatch", preset="2")  # the 8×6 preset
    join_by_link(bob, invite_link(ann), "Bob", "linkmatch")
    assert not bob.find("#actions [data-action=start]").is_displayed()  # the creator starts
    ann.wait(lambda: "Bob" in ann.find("#players").text, "Bob seated")
    ann.wait(
        lambda: ann.find(".board-message").text == "Press Start (g) when everyone is in",
        "the creator told to press Start",
    )
    bob.wait(
        lambda: bob.find(".board-message").text == "Waiting for Ann to start the race",
        "the others told whom they wait for",
    )
    ann.find("#actions [data-action=start]").click()
    for browser in (ann, bob):
        browser.wait(lambda b=browser: b.status_state() == "playing", "the race")
        browser.wait(
            lambda b=browser: not b.find(".board-message").is_displayed(), "the countdown to end"
        )
    board = kinds(ann)
    assert len(board) == 48 and all(board.values())
    assert kinds(bob) == board  # the same board for every racer

    a, b = hint_pair(ann)
    assert board[a] == board[b]
    ann.cell(*a).click()
    assert "selected" in str(ann.cell(*a).get_attribute("class"))  # the red frame
    ann.cell(*b).click()
    path = ann.wait(lambda: ann.find_all("[data-board] polyline[data-path]"), "the link path")[0]
    if shots:  # hold the path (it fades) for the picture below
        ann.js("document.getAnimations().forEach(a => a.pause())")
    points = [tuple(float(v) for v in p.split(",")) for p in path.get_attribute("points").split()]
    assert points[0] == (a[0] + 0.5, a[1] + 0.5) and points[-1] == (b[0] + 0.5, b[1] + 0.5)
    ann.wait(lambda: kinds(ann)[a] == 0 and kinds(ann)[b] == 0, "the pair to vanish")
    assert kinds(bob)[a] != 0  # Bob's board is his own
    bob.wait(lambda: "others: Ann 46" in bob.status(), "Ann's progress in Bob's status line")
    assert not bob.find_all("[data-board] polyline[data-path]")

    if shots:  # a moment of play: the path held, a hint pair, a picked tile
        c, d = hint_pair(ann)
        pick = next(cell for cell, kind in kinds(ann).items() if kind and cell not in (c, d))
        ann.cell(*pick).click()
        ann.js("document.getElementById('notice').hidden = true")
        ann.screenshot(shots / "web-linkmatch.png")
        ann.cell(*pick).click()  # unpick

    before = Counter(k for k in kinds(ann).values() if k)
    layout = kinds(ann)
    ann.find("#actions [data-action=shuffle]").click()
    ann.wait(lambda: kinds(ann) != layout, "the shuffled board")
    assert Counter(k for k in kinds(ann).values() if k) == before

    bob.find("#actions [data-action=resign]").click()
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: "Bob" in ann.status() and "resigned" in ann.status(), "Bob out of the race")
