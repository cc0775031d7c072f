"""Leaderboards and profiles in a real browser after rated games on a real server:
`/#leaderboard/gomoku` lists every established player best first (`[data-leaderboard]`
`[data-player-name]` rows), "My rank" finds ours, the profile shows the rating and the
recent game, which opens its replay; all of it fits a phone."""

from __future__ import annotations

import asyncio

from tests.rated import establish, five
from tests.web.harness import WAIT, Browser, ServerThread, create_room, open_lobby
from tests.web.layout import DESKTOP, PHONE, check_layout, emulate
from tests.web.test_web_a11y import audit
from tests.wsclient import WsClient

EVE = [(0, 0), (14, 0), (0, 14), (14, 14), (7, 0)]
"""Eve's stones against the computer."""


def board_names(browser: Browser) -> list[str]:
    return [
        str(r.get_attribute("data-player-name"))
        for r in browser.find_all("[data-leaderboard] [data-player-name]")
    ]


def test_a_rated_game_puts_its_players_on_the_leaderboard_best_first(
    ann: Browser, web_server: ServerThread
) -> None:
    async def cy_beats_dee() -> None:
        url = web_server.url.replace("http://", "ws://")
        async with WsClient.connect(url, "Cy") as cy, WsClient.connect(url, "Dee") as dee:
            establish(web_server.server, [cy.player, dee.player])  # (on the server's loop)
            await cy.send("create-room", game="gomoku", options={"rated": True})
            room = (await cy.expect("joined"))["room"]
            await dee.send("join-room", room=room)
            await cy.expect("state", status="playing")
            await five(cy, dee)

    asyncio.run_coroutine_threadsafe(cy_beats_dee(), web_server.loop).result(WAIT)

    # Eve (established too) plays a rated game against the computer in the browser:
    # five stones each (a game of ten is rated), then she resigns
    open_lobby(ann, web_server, "Eve")
    ann.wait_css("#browse-links [data-needs=ratings]")
    web_server.sync(
        lambda: establish(
            web_server.server,
            [i.id for i in web_server.server.hub.identities.by_id.values() if i.name == "Eve"],
        )
    )
    ann.find("#create-form [name=opt-rated]").click()
    create_room(ann, "gomoku", opt_ai="easy")
    ann.wait(lambda: ann.status_state() == "playing", "the game to start")
    for n, (x, y) in enumerate(EVE):  # far apart: never five of hers
        ann.cell(x, y).click()
        ann.wait(
            lambda n=n: (
                list(ann.cells("stone").values()).count("white") > n or ann.status_state() == "over"
            ),
            "the computer's answer",
        )
    if ann.status_state() != "over":  # (the computer may have made five with its fifth)
        ann.find("#actions [data-action=resign]").click()
        ann.wait_css("#confirm-bar [data-confirm=yes]").click()
    ann.wait(lambda: ann.status_state() == "over", "the game's end")
    change = ann.wait_css("#banner [data-rating-change]")  # game-over's `ratings`
    assert change.text.startswith("Your rating: 1640 → ")

    ann.driver.get(f"{web_server.url}#leaderboard/gomoku")
    ann.wait(lambda: {"Cy", "Dee", "Eve"} <= set(board_names(ann)), "the rated players")
    names = board_names(ann)
    assert names.index("Cy") < names.index("Dee")  # the winner above the loser
    ratings = [
        int(str(r.text).rstrip("?"))
        for r in ann.find_all("[data-leaderboard] [data-player-name] td:nth-child(3)")
    ]
    assert ratings == sorted(ratings, reverse=True)
    ann.find("[data-my-rank]").click()  # the rows around Eve's, hers marked
    ann.wait(
        lambda: (
            ann.js(
                "const mine = document.querySelector("
                "'.leaderboard-body:not([aria-busy]) tr.me');"
                "return mine && mine.dataset.playerName"
            )
            == "Eve"
        ),
        "Eve's rank",
    )
    ann.find("[data-leaderboard] tr.me a").click()  # Eve's profile
    ann.wait_css("#profile [data-rating=gomoku]")
    emulate(ann, PHONE)
    try:
        check_layout(ann, PHONE, "profile")
        audit(ann, "the profile")
        ann.find("#profile [data-game-id] a").click()
        ann.wait_css("#replay [data-board='gomoku']")
        ann.driver.get(f"{web_server.url}#leaderboard/gomoku")
        ann.wait(lambda: "Eve" in board_names(ann), "the leaderboard on a phone")
        check_layout(ann, PHONE, "leaderboard")
        audit(ann, "the leaderboard")
    finally:
        emulate(ann, DESKTOP)
