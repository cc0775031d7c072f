"""Every screen of the browser client in the pseudo-locale: no word outside the catalogs.

The server offers ``qps`` (``tests/pseudo.py``), where every translated text reads
``⟦Ŕéšíĝñ⟧``; headless Chromium chooses it and the test walks the screens (the name
form, the link-code dialogs, the lobby, the create form with each game's presets and
options, each game's room while playing and over, an offer, the host's tools, the
confirm bar, history, a replay with its analysis, leaderboards, a profile) reading what
each shows: the page's text as rendered (``innerText``: what a person sees, and what a
screen reader hears), every ``placeholder``, ``title``, ``aria-label`` and ``alt``, and
every choice of every list. Opponents are raw protocol clients; every name, chat line
and code they bring is data the test allows by name. A placeholder wider than its box
is a text cut short.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.support.select import Select

from gridhall.protocol import i18n, pseudo
from gridhall.server.io.net import web
from tests.pseudo import SERVER_NAME, Findings, host_removes, rated_game, rooms_to_list
from tests.web.harness import Browser, ServerThread, create_room
from tests.wsclient import WsClient

READ = """
// every text node a person sees (or a screen reader reads), each on its own
const texts = [document.title];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const node = walker.currentNode;
  const parent = node.parentElement;
  if (!node.data.trim() || !parent || parent.closest("script, style, template")) continue;
  if (parent.checkVisibility({ visibilityProperty: true })) texts.push(node.data);
}
for (const node of document.querySelectorAll("[placeholder], [title], [aria-label], [alt]")) {
  for (const name of ["placeholder", "title", "aria-label", "alt"]) {
    if (node.hasAttribute(name)) texts.push(node.getAttribute(name));
  }
}
for (const option of document.querySelectorAll("option, optgroup")) texts.push(option.label || option.textContent);
const cut = [];
const measure = document.createElement("canvas").getContext("2d");
for (const input of document.querySelectorAll("input[placeholder]")) {
  if (!input.offsetParent || input.value) continue;
  const style = getComputedStyle(input);
  measure.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  if (measure.measureText(input.placeholder).width > room + 1) cut.push(`placeholder: ${input.placeholder}`);
}
return [texts, cut];
"""

PLATFORM = (
    "return (navigator.userAgentData && navigator.userAgentData.platform) || navigator.platform"
)
"""The platform this browser says it runs on (what the page sends in ``hello.device``)."""


class Raw:
    """A raw protocol client on the server's loop, driven from the test's thread."""

    def __init__(self, server: ServerThread, name: str) -> None:
        self.server = server
        self._stack = contextlib.AsyncExitStack()
        url = server.url.replace("http://", "ws://")
        self.client: WsClient = server.call(
            self._stack.enter_async_context(WsClient.connect(url, name))
        )

    def send(self, type_: str, **fields: Any) -> None:
        self.server.call(self.client.send(type_, **fields))

    def expect(self, type_: str, **match: Any) -> dict[str, Any]:
        found: dict[str, Any] = self.server.call(self.client.expect(type_, **match), timeout=60)
        return found

    def close(self) -> None:
        """Read what is left (a full unread queue would hold up the closing handshake),
        then close."""
        with contextlib.suppress(Exception):
            self.server.call(self.client.quiet(0.05))
            self.server.call(self._stack.aclose(), timeout=5)


@pytest.fixture
def hall(tmp_path: Path, ann: Browser, bob: Browser) -> Iterator[ServerThread]:
    """A server that offers the pseudo-locale (made before it starts: it serves its
    catalogs as they are then)."""
    lang = pseudo.install()
    web.site.cache_clear()  # the site is read once a process: again, with qps in it
    server = ServerThread(tmp_path / "gridhall.db", name=SERVER_NAME, analysis_budget=0.02)
    try:
        yield server
    finally:
        for browser in (ann, bob):
            browser.driver.get("about:blank")
        server.close()
        i18n.uninstall(lang)
        web.site.cache_clear()  # and without it for the tests that follow


def look(found: Findings, screen: str, browser: Browser) -> None:
    texts, cut = browser.js(READ)
    found.check(screen, [str(t) for t in texts], [str(c) for c in cut])


def open_in_pseudo(
    browser: Browser, server: ServerThread, name: str | None, hash_: str = ""
) -> None:
    """The page in the pseudo-locale, as a player who chose it in the switcher."""
    browser.driver.get(server.url + "#nothing-yet")
    browser.js(f"localStorage.setItem('gridhall.lang', '{pseudo.PSEUDO}')")
    query = f"?name={name}" if name else ""
    browser.driver.get(f"{server.url}{query}{hash_}")
    browser.wait(
        lambda: browser.js("return document.documentElement.lang") == pseudo.PSEUDO,
        "the pseudo-locale",
    )
    if name:
        browser.wait(
            lambda: browser.find("#connection").get_attribute("data-connection") == "connected",
            f"{name}'s page to connect",
        )


def assert_no_holes(found: Findings) -> None:
    assert found.screens, "no screen was read"
    assert not found.holes, "texts outside the catalogs:\n" + found.report()


def test_name_form_lobby_create_forms_and_link_dialogs(ann: Browser, hall: ServerThread) -> None:
    found = Findings()
    found.allow("Ann", "Bob", "Cy", SERVER_NAME)
    bob, cy = Raw(hall, "Bob"), Raw(hall, "Cy")
    try:
        found.allow(*hall.call(rooms_to_list(bob.client, cy.client)))

        open_in_pseudo(ann, hall, None)
        ann.wait_css("#name-form")
        look(found, "name form", ann)
        ann.find("[data-link-start] summary").click()
        ann.find("[data-link-start] input").send_keys("nope")
        ann.find("[data-link-start] button[type=submit]").click()
        ann.wait(lambda: ann.find("[data-link-start] [data-link-error]").text, "the code refused")
        found.allow("nope")
        look(found, "name form, a bad code", ann)

        open_in_pseudo(ann, hall, "Ann")
        ann.wait(lambda: len(ann.find_all("#room-list tr")) >= 2, "the rooms listed")
        look(found, "lobby", ann)
        form = Select(ann.find("#create-form [name=game]"))
        for game in [o.get_attribute("value") for o in form.options]:
            form.select_by_value(str(game))
            presets = Select(ann.find("#create-preset"))
            for index in range(len(presets.options)):
                presets.select_by_index(index)
                look(found, f"create {game}, preset {index}", ann)
        ann.find("#join-form [name=code]").send_keys("NOSUCH")
        ann.find("#join-form button[value=player]").click()
        ann.wait_css("#notice")
        found.allow("NOSUCH")
        look(found, "lobby, a refusal", ann)

        dee = Raw(hall, "Dee")
        dee.send("create-room", game="gomoku", options={})
        room = dee.expect("joined")["room"]
        found.allow("Dee", room)
        ann.driver.get(f"{hall.url}?name=Ann#{room}")
        ann.wait_css("[data-board='gomoku']")
        player = str(ann.js("return document.querySelector('#players li.me').dataset.player"))
        hall.call(host_removes(dee.client, player, room))
        ann.wait_css("[data-bulletin=kicked]")
        look(found, "lobby, removed from a room", ann)
        dee.close()

        ann.wait_css("[data-link=open]").click()
        ann.wait_css("[data-devices] li[data-device]")  # this device
        found.allow(str(ann.js(PLATFORM)))  # its platform is data (its kind is translated)
        ann.wait_css("[data-link=show]").click()
        code = ann.wait(lambda: ann.find("[data-link-code]").text, "a link code")
        found.allow(code)
        look(found, "link dialog, a code shown", ann)
    finally:
        bob.close()
        cy.close()
    assert_no_holes(found)


def test_gomoku_room_offer_confirm_host_tools_and_result(ann: Browser, hall: ServerThread) -> None:
    found = Findings()
    found.allow("Ann", "Bob", "Cy", SERVER_NAME, "good luck")
    bob, cy = Raw(hall, "Bob"), Raw(hall, "Cy")
    try:
        open_in_pseudo(ann, hall, "Ann")
        code = create_room(ann, "gomoku", opt_clock="10+5")
        found.allow(code)
        look(found, "gomoku, waiting", ann)
        bob.send("join-room", room=code)
        cy.send("join-room", room=code, role="spectator")
        bob.send("chat", text="good luck")
        ann.wait(lambda: "good luck" in ann.find("[data-chat-log]").text, "Bob's chat line")
        ann.wait(lambda: ann.find("[data-status]").get_attribute("data-turn") == "me", "Ann's turn")
        look(found, "gomoku, playing", ann)
        ann.cell(7, 7).click()
        bob.expect("moved")
        bob.send("offer", kind="draw")
        ann.wait_css("#offer-bar")
        look(found, "gomoku, a draw offered", ann)
        ann.find("#offer-bar [data-action=refuse]").click()
        ann.find("#actions [data-action=resign]").click()
        ann.wait_css("#confirm-bar")
        look(found, "gomoku, resign asked", ann)
        ann.find("#confirm-bar [data-confirm=no]").click()
        for summary in ann.find_all("#players details.host-tools summary"):
            summary.click()  # the host's tools for each member, open
        look(found, "gomoku, host tools", ann)
        bob.send("resign")
        ann.wait_css("#banner")
        bob.send("play-again")
        ann.wait_css("#banner [data-action=agree]")
        look(found, "gomoku, over", ann)
        ann.find("#banner [data-action=decline]").click()
        bob.send("leave-room")
        ann.wait(lambda: len(ann.find_all("#players li")) == 1, "Bob gone")
        ann.wait_css("#computer-tools button[data-level=hard]").click()
        ann.wait(lambda: len(ann.find_all("#players li")) == 2, "the computer seated")
        look(found, "gomoku, the computer seated", ann)
    finally:
        bob.close()
        cy.close()
    assert_no_holes(found)


def test_minesweeper_and_linkmatch_rooms(ann: Browser, hall: ServerThread) -> None:
    found = Findings()
    found.allow("Ann", "Bob", SERVER_NAME)
    bob = Raw(hall, "Bob")
    try:
        open_in_pseudo(ann, hall, "Ann")
        for game in ("minesweeper", "linkmatch"):
            code = create_room(ann, game)
            found.allow(code)
            bob.send("join-room", room=code)
            ann.wait(lambda: len(ann.find_all("#players li")) == 2, "Bob seated")
            look(found, f"{game}, waiting", ann)
            if game == "linkmatch":
                ann.find("#actions [data-action=start]").click()
            ann.wait(lambda: ann.status_state() == "playing", f"{game} under way")
            look(found, f"{game}, playing", ann)
            ann.find("#actions [data-action=hint]").click()
            look(found, f"{game}, a hint", ann)
            bob.send("resign")
            ann.find("#actions [data-action=resign]").click()
            ann.wait_css("#confirm-bar [data-confirm=yes]").click()
            ann.wait_css("#banner")
            look(found, f"{game}, over", ann)
            ann.find("#leave").click()
            ann.wait_css("#lobby")
            bob.send("leave-room")
    finally:
        bob.close()
    assert_no_holes(found)


def test_history_replay_leaderboard_and_profile(ann: Browser, hall: ServerThread) -> None:
    found = Findings()
    found.allow("Ann", "Bob", SERVER_NAME)
    a, b = Raw(hall, "Ann"), Raw(hall, "Bob")
    try:
        found.allow(hall.call(rated_game(hall.server, a.client, b.client)))
        a.send("list-games")
        game_id = a.expect("games")["games"][0]["game_id"]
    finally:
        a.close()
        b.close()
    open_in_pseudo(ann, hall, "Cy", "#history")
    found.allow("Cy")
    ann.wait(
        lambda: ann.find_all("#history [data-history]:not([aria-busy]) [data-game-id]"),
        "the game listed",
    )
    look(found, "history", ann)
    ann.driver.get(f"{hall.url}#replay/{game_id}")
    ann.wait_css("#replay [data-board='gomoku']")
    look(found, "replay", ann)
    ann.wait_css("#replay [data-analyse]").click()
    ann.wait(
        lambda: ann.find("[data-analysis]").get_attribute("data-analysis") == "done",
        "the analysis",
        timeout=120,
    )
    look(found, "replay, analysed", ann)
    ann.driver.get(f"{hall.url}#leaderboard/gomoku")
    ann.wait(lambda: ann.find_all("#leaderboard [data-player]"), "the leaderboard")
    look(found, "leaderboard", ann)
    ann.find("#leaderboard a[href*='profile']").click()
    ann.wait(lambda: ann.find_all("#profile:not([hidden]) [data-profile] h3"), "a profile")
    look(found, "profile", ann)
    assert_no_holes(found)


PLANT = """const p = document.createElement('p');
p.textContent = 'Resign';
const input = document.createElement('input');
input.placeholder = document.querySelector('#join-form [name=password]').placeholder;
input.style.width = '40px';
const zoom = document.createElement('button');
zoom.setAttribute('aria-label', 'Zoom in');
document.querySelector('#lobby').prepend(p, input, zoom);"""


def test_the_walk_finds_a_word_outside_the_catalogs_and_a_cut_placeholder(
    ann: Browser, hall: ServerThread
) -> None:
    open_in_pseudo(ann, hall, "Ann")
    ann.wait_css("#lobby")
    ann.js(PLANT)
    found = Findings()
    found.allow("Ann", SERVER_NAME)
    look(found, "planted", ann)
    holes = found.holes["planted"]
    assert {"Resign"} in holes.values() and {"Zoom", "in"} in holes.values()
    assert any(line.startswith("placeholder: ") for line in holes)
