"""Gomoku in two real browsers: join by invite link, play to five, offers, play again."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from pathlib import Path

from tests.web.harness import (
    WAIT,
    Browser,
    ServerThread,
    create_room,
    invite_link,
    join_by_link,
    open_lobby,
)
from tests.wsclient import WsClient


def start_pair(ann: Browser, bob: Browser, server: ServerThread) -> str:
    """Ann creates a Gomoku room; Bob opens its invite link; both see the game start."""
    open_lobby(ann, server, "Ann")
    code = create_room(ann, "gomoku")
    join_by_link(bob, invite_link(ann), "Bob", "gomoku")
    for browser in (ann, bob):
        browser.wait(lambda b=browser: b.status_state() == "playing", "the game to start")
    return code


def place(mover: Browser, other: Browser, x: int, y: int, colour: str) -> None:
    """Click a point on the mover's board; both boards then show the stone."""
    mover.wait(
        lambda: mover.find("[data-status]").get_attribute("data-turn") == "me",
        f"the turn before {x},{y}",
    )
    mover.cell(x, y).click()
    for browser in (mover, other):
        browser.wait(
            lambda b=browser: b.cell(x, y).get_attribute("data-stone") == colour,
            f"the {colour} stone at {x},{y}",
        )


def test_invite_link_joins_and_five_in_a_row_wins(
    ann: Browser, bob: Browser, web_server: ServerThread, shots: Path | None
) -> None:
    code = start_pair(ann, bob, web_server)
    assert invite_link(ann).endswith(f"/#{code}")
    assert bob.find("[data-room-code]").text == code
    assert "Your move (black)" in ann.status()
    for i in range(4):
        place(ann, bob, 3 + i, 7, "black")
        place(bob, ann, 3 + i, 9, "white")
    place(ann, bob, 7, 7, "black")

    for browser in (ann, bob):
        browser.wait(lambda b=browser: b.status_state() == "over", "the game to end")
        browser.wait(lambda b=browser: b.find_all("[data-win-line]"), "the line through the five")
        won = {
            (int(c.get_attribute("data-x")), int(c.get_attribute("data-y")))
            for c in browser.find_all("[data-board] .cell.win")
        }
        assert won == {(x, 7) for x in range(3, 8)}
    assert "You win by five in a row!" in ann.wait_css("#banner").text
    assert "Ann wins by five in a row." in bob.wait_css("#banner").text
    # the bar is coloured by the result for each viewer: the loser's is not green
    assert ann.find("#banner").get_attribute("data-outcome") == "win"
    assert bob.find("#banner").get_attribute("data-outcome") == "loss"
    assert "place a stone" in ann.find("#gesture-hint").text  # told to players
    box = bob.find("#chat-form input[name=chat]")
    box.send_keys("gg, well played")
    bob.find("#chat-form button[type=submit]").click()
    ann.wait(lambda: "gg, well played" in ann.find("[data-chat-log]").text, "Bob's chat line")
    if shots:
        ann.js("document.getElementById('notice').hidden = true")
        ann.screenshot(shots / "web-gomoku.png")

    # play again: Bob asks, Ann agrees, a new round starts with the colours swapped
    bob.find("#banner [data-action=again]").click()
    ann.wait(lambda: ann.find("#banner [data-action=agree]").is_displayed(), "Ann's Agree")
    ann.find("#banner [data-action=agree]").click()
    for browser in (ann, bob):
        browser.wait(lambda b=browser: "round 2" in b.find("#room-title").text, "round 2")
        browser.wait(lambda b=browser: b.status_state() == "playing", "the new game")
        assert not browser.find_all("[data-board] [data-stone]")
    place(bob, ann, 7, 7, "black")


def test_take_back_and_draw_offers_are_answered_in_the_other_browser(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    start_pair(ann, bob, web_server)
    place(ann, bob, 7, 7, "black")
    place(bob, ann, 8, 8, "white")

    bob.find("#actions [data-action=takeback]").click()
    offer = ann.wait_css("#offer-bar")
    assert "Bob asks to take back the last move" in offer.text
    assert not bob.find("#offer-bar [data-action=accept]").is_displayed()  # not to oneself
    ann.find("#offer-bar [data-action=accept]").click()
    for browser in (ann, bob):
        browser.wait(
            lambda b=browser: b.cell(8, 8).get_attribute("data-stone") is None,
            "the white stone to be taken back",
        )
        assert browser.cell(7, 7).get_attribute("data-stone") == "black"

    place(bob, ann, 6, 6, "white")
    ann.find("#actions [data-action=draw]").click()
    bob.wait(lambda: "Ann asks for a draw." in bob.find("#offer-bar").text, "the draw offer")
    bob.find("#offer-bar [data-action=accept]").click()
    for browser in (ann, bob):
        banner = browser.wait_css("#banner")
        browser.wait(lambda b=banner: "Draw by agreement." in b.text, "the agreed draw")


def test_resigning_ends_the_game_for_both(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    start_pair(ann, bob, web_server)
    bob.find("#actions [data-action=resign]").click()
    bob.wait_css("#confirm-bar")  # asked first: nothing is sent yet
    bob.find("#confirm-bar [data-confirm=no]").click()
    assert not bob.find("#confirm-bar").is_displayed()
    assert bob.status_state() == "playing" and ann.status_state() == "playing"
    bob.find("#actions [data-action=resign]").click()
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: "You win by resignation!" in ann.wait_css("#banner").text, "Ann's win")
    bob.wait(lambda: "Ann wins by resignation." in bob.wait_css("#banner").text, "Bob's loss")


def test_computer_opponent_with_a_clock(ann: Browser, web_server: ServerThread) -> None:
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "gomoku", opt_ai="easy", opt_clock="5+3")  # the Python clients' clocks
    ann.wait(lambda: "Computer (easy)" in ann.find("#players").text, "the computer seated")
    assert "computer easy" in ann.find("#players").text
    ann.wait(lambda: ann.status_state() == "playing", "the game to start")
    assert "Ann 5:00" in ann.status() or "Ann 4:5" in ann.status()
    ann.wait(lambda: "Ann 4:5" in ann.status(), "Ann's clock to run down between events")
    ann.cell(7, 7).click()
    ann.wait(lambda: list(ann.cells("stone").values()).count("white") == 1, "the computer's answer")
    assert "Computer (easy)" in ann.status()  # its clock is shown too


def test_leaving_returns_to_the_lobby_and_forgets_the_link(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    start_pair(ann, bob, web_server)
    bob.find("#leave").click()
    bob.wait_css("#confirm-bar [data-confirm=yes]").click()  # leaving a live game asks first
    bob.wait_css("#lobby")
    assert bob.js("return location.hash") == ""
    ann.wait(
        lambda: "You win by resignation!" in ann.wait_css("#banner").text,
        "Ann's win: leaving forfeits",
    )


def test_a_loss_on_time_shows_the_losers_clock_at_zero(
    bob: Browser, web_server: ServerThread
) -> None:
    """Ann (a raw client, black) lets her 3-second clock run out; Bob's page shows it."""
    code: Future[str] = Future()

    async def ann_runs_out() -> None:
        ws_url = web_server.url.replace("http://", "ws://")
        async with WsClient.connect(ws_url, "Ann") as ann:
            await ann.send(
                "create-room", game="gomoku", options={"clock": {"minutes": 0.05, "increment": 0}}
            )
            code.set_result((await ann.expect("joined"))["room"])
            await ann.expect("game-over")

    ann_done = asyncio.run_coroutine_threadsafe(ann_runs_out(), web_server.loop)
    bob.driver.get(f"{web_server.url}?name=Bob#{code.result(WAIT)}")
    bob.wait_css("[data-board='gomoku']")
    bob.wait(lambda: bob.status_state() == "over", "the game to end on time")
    assert bob.status().endswith("Ann 0:00, Bob 0:03")
    ann_done.result(WAIT)


def test_clocks_stand_still_while_the_server_is_down(ann: Browser, tmp_path: Path) -> None:
    """With the server gone, the running clock stops where the connection dropped (as in
    the terminal and Tk clients). The page's time is moved on by a minute by the test,
    not waited for: a clock that ran on would show it at the next redraw."""
    server = ServerThread(tmp_path / "clock.db")
    try:
        open_lobby(ann, server, "Ann")
        create_room(ann, "gomoku", opt_clock="10+5", opt_ai="easy")
        ann.wait(lambda: ann.status_state() == "playing", "the game against the computer")
        ann.js("""const wall = Date.now.bind(Date), perf = performance.now.bind(performance);
                  window.__shift = 0;
                  Date.now = () => wall() + window.__shift;
                  performance.now = () => perf() + window.__shift;""")
        ann.js("window.__shift += 120000")  # online, the clock runs: 2 minutes on
        ann.wait(lambda: "Ann 7:" in ann.status(), "Ann's clock running while online")
    finally:
        server.close()
    ann.wait(lambda: "Reconnecting" in ann.status(), "the page to see the server go")
    frozen = ann.status()
    ann.js("""window.__shift += 60000;  // a minute later, offline
              window.__redraws = 0;
              new MutationObserver(() => { window.__redraws += 1; })
                .observe(document.querySelector('[data-status]'), {childList: true});""")
    ann.wait(lambda: ann.js("return window.__redraws") >= 2, "the status line redrawn")
    assert ann.status() == frozen and "Ann 7:" in frozen
