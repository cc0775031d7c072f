"""History and replays in real browsers against a real server: a game played to the end
is listed at /#history, opens at /#replay/ID, and steps with the documented hooks
(`[data-replay=...]`, `[data-replay-step]`, the board's cells); a co-op Minesweeper
replay colours each player's cells and shows the mines at the end; a phone shows it
without sideways scrolling."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from pathlib import Path

from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select

from tests.web.harness import WAIT, Browser, ServerThread, open_lobby
from tests.web.layout import DESKTOP, PHONE, check_layout, emulate
from tests.web.test_web_a11y import audit
from tests.web.test_web_gomoku import place, start_pair
from tests.wsclient import WsClient, gomoku_pair


def stones(browser: Browser) -> dict[tuple[int, int], str]:
    return {xy: v for xy, v in browser.cells("stone").items() if v}


def step_shown(browser: Browser) -> str:
    return str(browser.find("[data-replay-step]").text)


def press(browser: Browser, what: str, want: str) -> None:
    """Click a replay button and wait for the step counter to say ``want``."""
    browser.find(f"[data-replay={what}]").click()
    browser.wait(lambda: step_shown(browser) == want, f"step {want} after {what}")


def test_a_finished_gomoku_game_is_listed_and_replayed_move_by_move(
    ann: Browser, bob: Browser, web_server: ServerThread
) -> None:
    start_pair(ann, bob, web_server)
    for i in range(4):
        place(ann, bob, 3 + i, 7, "black")
        place(bob, ann, 3 + i, 9, "white")
    place(ann, bob, 7, 7, "black")
    ann.wait(lambda: ann.status_state() == "over", "the game to end")
    link = ann.wait_css("#banner [data-replay-link]")  # "Replay this game" (or the history)

    link.click()
    ann.wait_css("#history [data-history], #replay [data-board]")
    ann.wait_css("#history [data-browse-back], #replay [data-browse-back]").click()
    ann.wait_css("#room [data-board='gomoku']")  # back in the room, the game still shown
    ann.driver.get(f"{web_server.url}#history")  # the same page: a new fragment
    games = ann.wait(
        lambda: ann.find_all(
            "#history:not([hidden]) [data-history]:not([aria-busy]) [data-game-id]"
        ),
        "the finished game",
    )
    assert len(games) == 1
    game_id = games[0].get_attribute("data-game-id")
    assert "Ann" in games[0].text and "Bob" in games[0].text
    games[0].click()

    ann.wait(lambda: ann.js("return location.hash") == f"#replay/{game_id}", "the replay's address")
    ann.wait_css("#replay [data-board='gomoku']")
    ann.wait(lambda: step_shown(ann) == "0", "the start")
    assert stones(ann) == {}
    press(ann, "next", "1")
    assert stones(ann) == {(3, 7): "black"}
    press(ann, "next", "2")
    assert stones(ann) == {(3, 7): "black", (3, 9): "white"}
    press(ann, "end", "9")
    assert len(stones(ann)) == 9
    ann.wait(lambda: ann.find_all("#replay [data-win-line]"), "the winning five")
    assert "You win by five in a row!" in ann.find("#replay .replay-result").text
    numbers = ann.js(
        "return [...document.querySelectorAll('#replay .move-number')].map((n) => n.textContent)"
    )
    assert numbers == [str(n) for n in range(1, 10)]  # the stones are numbered
    press(ann, "prev", "8")
    assert (7, 7) not in stones(ann) and ann.find_all("#replay [data-win-line]") == []
    press(ann, "start", "0")
    assert stones(ann) == {}
    # the keyboard: arrows step, End / Home jump
    body = ann.find("body")
    body.send_keys(Keys.ARROW_RIGHT)
    ann.wait(lambda: step_shown(ann) == "1", "step 1 from the right arrow")
    body.send_keys(Keys.END)
    ann.wait(lambda: step_shown(ann) == "9", "the end from End")
    assert str(ann.find("#replay .replay-link").get_attribute("value")).endswith(
        f"/#replay/{game_id}"
    )
    audit(ann, "the replay")
    # autoplay from the start runs to the end and stops there
    press(ann, "start", "0")
    Select(ann.find("#replay .replay-controls select")).select_by_value("8")
    ann.find("[data-replay=play]").click()
    ann.wait(
        lambda: (
            step_shown(ann) == "9"
            and ann.find("[data-replay=play]").get_attribute("aria-pressed") == "false"
        ),
        "autoplay to reach the end and stop",
    )

    # the shared link opens the same replay in another browser, at the start
    bob.driver.get(f"{web_server.url}#replay/{game_id}")
    bob.wait_css("#replay [data-board='gomoku']")
    bob.wait(lambda: step_shown(bob) == "0", "Bob's replay at the start")
    press(bob, "end", "9")
    assert stones(bob) == stones(ann)

    # a game that is not there is said so, in place
    bob.driver.get(f"{web_server.url}#replay/999")
    bob.wait(
        lambda: "no finished game" in bob.wait_css("#replay .view-error").text,
        "the refusal of game 999",
    )


def test_a_minesweeper_replay_colours_each_players_cells_and_shows_the_mines(
    ann: Browser, web_server: ServerThread
) -> None:
    """Cy (a raw client) reveals a cell and leaves, which ends the co-op game; Ann's
    phone replays it: Cy's cells carry Cy's colour, the end shows the mines."""
    done: Future[str] = Future()

    async def cy_plays() -> None:
        ws_url = web_server.url.replace("http://", "ws://")
        async with WsClient.connect(ws_url, "Cy") as cy:
            await cy.send(
                "create-room", game="minesweeper", options={"width": 9, "height": 9, "mines": 10}
            )
            await cy.expect("joined")
            await cy.send("move", move={"action": "reveal", "x": 4, "y": 4})
            await cy.expect("moved")
            await cy.send("leave-room")
            await cy.expect("left")
            done.set_result(cy.player)

    asyncio.run_coroutine_threadsafe(cy_plays(), web_server.loop).result(WAIT)
    cy = done.result(WAIT)
    emulate(ann, PHONE)
    try:
        open_lobby(ann, web_server, "Ann")
        ann.driver.get(f"{web_server.url}#history")
        game = ann.wait(lambda: ann.find_all("[data-history] [data-game-id]"), "Cy's game")[0]
        check_layout(ann, PHONE, "history")
        audit(ann, "the history")
        # the filters: another game lists nothing; the game and Cy's name (any case) list it
        form = ann.find("#history form")
        Select(form.find_element("css selector", "[name=game]")).select_by_value("gomoku")
        form.find_element("css selector", "button[type=submit]").click()
        ann.wait(lambda: not ann.find_all("[data-history] [data-game-id]"), "no Gomoku games")
        Select(form.find_element("css selector", "[name=game]")).select_by_value("minesweeper")
        form.find_element("css selector", "[name=name]").send_keys("CY")
        form.find_element("css selector", "button[type=submit]").click()
        game = ann.wait(
            lambda: ann.find_all("[data-history]:not([aria-busy]) [data-game-id]"),
            "Cy's game, filtered",
        )[0]
        game.click()
        ann.wait_css("#replay [data-board='minesweeper']")
        press(ann, "next", "1")
        opened = {xy for xy, v in ann.cells("cell").items() if v not in ("#", "F", "?")}
        owners = {xy: v for xy, v in ann.cells("by").items() if v}
        assert (4, 4) in opened and set(owners) == opened and set(owners.values()) == {cy}
        total = str(ann.find("#replay input[type=range]").get_attribute("max"))
        if step_shown(ann) != total:
            press(ann, "end", total)
        assert "*" in ann.cells("cell").values()  # every mine, once the game is over
        check_layout(ann, PHONE, "replay")
    finally:
        emulate(ann, DESKTOP)


def test_an_analysed_gomoku_game_marks_the_missed_win_with_the_computers_move(
    ann: Browser, tmp_path: Path
) -> None:
    """Black (a raw client) has a four after move 7 that White leaves open, and plays
    elsewhere at move 9 (White then resigns): the analysis marks move 9 and draws the
    computer's winning move."""
    server = ServerThread(tmp_path / "analysis.db", analysis_budget=0.05)
    try:
        black_moves = [(3, 7), (4, 7), (5, 7), (6, 7), (0, 0)]
        white_moves = [(2, 7), (3, 12), (12, 12), (12, 0)]

        async def play() -> None:
            url = server.url.replace("http://", "ws://")
            async with gomoku_pair(url) as (black, white, _room):
                for n, (x, y) in enumerate(black_moves):
                    await black.send("move", move={"x": x, "y": y})
                    await white.expect("moved")
                    if n == len(white_moves):
                        await white.send("resign")
                        await black.expect("game-over")
                        return
                    await white.send("move", move={"x": white_moves[n][0], "y": white_moves[n][1]})
                    await black.expect("moved", by=white.player)

        asyncio.run_coroutine_threadsafe(play(), server.loop).result(WAIT)
        open_lobby(ann, server, "Ann")
        ann.driver.get(f"{server.url}#replay/1")
        ann.wait_css("#replay [data-board='gomoku']")
        ann.wait_css("#replay [data-analyse]").click()
        jump = ann.wait_css("#replay [data-jump='9']", timeout=WAIT * 2)  # the job's push
        assert ann.find("[data-analysis]").get_attribute("data-analysis") == "done"
        jump.click()
        ann.wait(lambda: step_shown(ann) == "9", "move 9 shown")
        mark = ann.wait_css("#replay circle[data-mark]")
        assert mark.get_attribute("data-mark") in ("lost-win", "missed-vcf")
        best = ann.find("#replay circle[data-best]").get_attribute("data-best")
        assert best == "7,7"
        assert "computer" in ann.find("#replay .replay-note").text
        # White's move 8 left the four open: a blunder, with the block that stops it
        listed = ann.find("#replay [data-jump='8']")
        assert listed.text == "Move 8: This move let the opponent force a win."
        listed.click()
        ann.wait(lambda: step_shown(ann) == "8", "move 8 shown")
        ann.wait(
            lambda: ann.find("#replay circle[data-mark]").get_attribute("data-mark") == "blunder",
            "the blunder's mark",
        )
        assert ann.find("#replay circle[data-best]").get_attribute("data-best") == "7,7"
        assert "H8 would have stopped it." in ann.find("#replay .replay-note").text
    finally:
        ann.driver.get("about:blank")
        server.close()


def test_a_linkmatch_replay_shows_every_racers_board_with_each_links_path(
    ann: Browser, web_server: ServerThread
) -> None:
    """Cy and Dee (raw clients) each link the pair their hint shows, then resign; the
    replay shows both boards side by side, each link's path on its racer's board."""

    async def race() -> None:
        url = web_server.url.replace("http://", "ws://")
        async with WsClient.connect(url, "Cy") as cy, WsClient.connect(url, "Dee") as dee:
            await cy.send(
                "create-room", game="linkmatch", options={"width": 8, "height": 6, "countdown": 0}
            )
            room = (await cy.expect("joined"))["room"]
            await dee.send("join-room", room=room)
            await cy.expect("joined", player=dee.player)
            await cy.send("start")
            for racer in (cy, dee):
                await racer.expect("state", status="playing")
            for racer in (cy, dee):
                await racer.send("move", move={"action": "hint"})
                moved = await racer.expect("moved", by=racer.player)
                while "hint" not in (moved.get("view") or {}):
                    moved = await racer.expect("moved", by=racer.player)
                a, b = moved["view"]["hint"]
                await racer.send("move", move={"action": "link", "a": a, "b": b})
                await racer.expect("moved", by=racer.player)
            await cy.send("resign")
            await dee.send("resign")
            await cy.expect("game-over")

    asyncio.run_coroutine_threadsafe(race(), web_server.loop).result(WAIT)
    open_lobby(ann, web_server, "Ann")
    ann.driver.get(f"{web_server.url}#replay/1")
    ann.wait(lambda: len(ann.find_all("#replay [data-board='linkmatch']")) == 2, "two boards")
    captions = [str(c.text) for c in ann.find_all("#replay figcaption")]
    assert captions[0].startswith("Cy") and captions[1].startswith("Dee")

    def paths() -> list[bool]:
        return [
            bool(f.find_elements("css selector", "polyline[data-path]"))
            for f in ann.find_all("#replay figure")
        ]

    def tiles() -> list[int]:
        return [
            len(f.find_elements("css selector", "[data-kind]:not([data-kind='0'])"))
            for f in ann.find_all("#replay figure")
        ]

    full = tiles()
    assert paths() == [False, False] and full[0] == full[1] == 48
    press(ann, "next", "1")  # Cy's link: two tiles gone from Cy's board, its path drawn
    # Wait for the drawing rather than read it once. (Step 2 once showed Cy's
    # resignation: it fell in the same millisecond as Dee's link, and the replay put
    # the first seat first; actions now carry their order, tests/server/test_history.py.)
    ann.wait(lambda: paths() == [True, False] and tiles() == [46, 48], "Cy's link drawn")
    press(ann, "next", "2")  # then Dee's
    seen: list[object] = []

    def dee_drawn() -> bool:
        seen[:] = [paths(), tiles()]
        return seen == [[False, True], [46, 46]]

    try:
        ann.wait(dee_drawn, "Dee's link drawn")
    except AssertionError as exc:  # say what was drawn instead
        raise AssertionError(f"{exc}; last seen (paths, tiles): {seen}") from None
