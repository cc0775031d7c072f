"""The server's admin page (GET /admin) in headless Chromium against a real server: without
the admin link's token it shows nothing of the server; with it, the live figures, rooms
and players of real WebSocket clients, and what the operator does from it reaches them.
One browser (the session's ``ann``) for the whole module; every wait is for an event."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, TypeVar

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.select import Select
from websockets.exceptions import ConnectionClosed

from tests.web.harness import WAIT, Browser, ServerThread
from tests.web.test_web_a11y import audit, keys
from tests.wsclient import WsClient

TOKEN = "the-admin-page-test-token-0123456789"
T = TypeVar("T")


class Players:
    """Real game-socket clients, kept open on the server's loop until the test ends."""

    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.stack = AsyncExitStack()
        self.url = server.url.replace("http://", "ws://", 1)

    async def _connect(self, name: str) -> WsClient:
        return await self.stack.enter_async_context(WsClient.connect(self.url, name))

    def connect(self, name: str) -> WsClient:
        client: WsClient = self.server.call(self._connect(name))
        return client

    def create_room(self, client: WsClient, game: str = "gomoku") -> str:
        return str(self.server.call(client.request("create-room", "joined", game=game))["room"])

    def soon(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        """Start ``coro`` on the server's loop now (e.g. waiting for a message)."""
        return asyncio.run_coroutine_threadsafe(coro, self.server.loop)

    def close(self) -> None:
        self.server.call(self.stack.aclose())


@pytest.fixture
def server(tmp_path: Path, ann: Browser) -> Iterator[ServerThread]:
    server = ServerThread(tmp_path / "gridhall.db", admin_token=TOKEN, name="Basement LAN")
    ann.console()  # start with an empty log
    yield server
    errors = ann.console(level="SEVERE")
    ann.driver.get("about:blank")  # close the page's socket before the server goes
    ann.wait(
        lambda: server.sync(lambda: not server.server.admin_channel.open),
        "the page's admin socket closed",
    )
    server.close()
    assert not errors, f"the page logged errors: {errors}"


@pytest.fixture
def players(server: ServerThread) -> Iterator[Players]:
    held = Players(server)
    yield held
    held.close()


def open_admin(browser: Browser, server: ServerThread, token: str = TOKEN) -> None:
    browser.driver.get(f"{server.url}admin#{token}")


def text_of(browser: Browser, css: str) -> str:
    return str(browser.find(css).text)


def notice(browser: Browser, words: str) -> None:
    """The notice line says ``words`` (read as textContent: it hides itself after a while)."""
    browser.wait(
        lambda: words in browser.js("return document.getElementById('notice').textContent"),
        f"the notice {words!r}",
    )


def test_without_the_token_the_page_shows_nothing_of_the_server(
    ann: Browser, server: ServerThread, players: Players
) -> None:
    players.create_room(players.connect("Zoe"))
    ann.driver.get(f"{server.url}admin")
    ann.wait(lambda: "admin link" in text_of(ann, "#gate"), "the page to ask for the link")
    page = ann.find("body").text
    assert "Zoe" not in page and "Basement LAN" not in page
    assert not ann.find_all("#admin-panels")
    audit(ann, "admin page without a token")

    open_admin(ann, server, "not-the-token")
    ann.wait(lambda: "refused" in text_of(ann, "#gate"), "the refusal")
    assert ann.js("return location.href") == f"{server.url}admin"  # the token left the bar
    page = ann.find("body").text
    assert "Zoe" not in page and "Basement LAN" not in page
    assert not ann.find_all("#admin-panels")


def test_figures_and_a_room_show_and_the_room_is_closed_from_the_page(
    ann: Browser, server: ServerThread, players: Players
) -> None:
    zoe = players.connect("Zoe")
    room = players.create_room(zoe)
    open_admin(ann, server)
    ann.wait(lambda: room in text_of(ann, "#admin-rooms"), "Zoe's room on the admin page")
    assert ann.js("return location.hash") == ""  # the token is not left on screen
    assert text_of(ann, "#server-name") == "Basement LAN"
    rooms = text_of(ann, "#admin-rooms")
    assert "gomoku" in rooms and "Zoe" in rooms and "127.0.0.1" in rooms
    ann.wait(lambda: text_of(ann, "[data-figure=players]") == "1", "one player connected")
    assert text_of(ann, "[data-figure=rooms_by_game]") == "gomoku: 1"
    assert "Zoe" in text_of(ann, "#admin-players")
    assert "port" in text_of(ann, "#admin-settings-card")
    audit(ann, "admin page")
    phone_width_fits(ann)

    closed = players.soon(zoe.expect("room-closed"))
    ann.js("document.querySelector('#admin-rooms [data-action=close-room]').focus()")
    keys(ann, Keys.ENTER)  # from the keyboard: the question takes the focus
    ann.wait(lambda: ann.js("return document.activeElement.name") == "reason", "the question")
    audit(ann, "close-room dialog")
    keys(ann, Keys.ESCAPE)  # no: nothing is sent, the focus goes back to the button
    ann.wait(lambda: not ann.find_all("dialog.ask"), "the question gone")
    assert ann.js("return document.activeElement.dataset.action") == "close-room"
    keys(ann, Keys.ENTER)
    ann.wait(lambda: ann.js("return document.activeElement.name") == "reason", "the question")
    keys(ann, "closing <b>time</b>", Keys.ENTER)
    assert closed.result(WAIT)["reason"] == "closing <b>time</b>"
    notice(ann, f"Room {room} closed.")
    ann.wait(lambda: room not in text_of(ann, "#admin-rooms"), "the room gone from the list")
    ann.wait(lambda: "close-room" in text_of(ann, "#admin-audit"), "the audit log's row")


def phone_width_fits(browser: Browser) -> None:
    """At a phone's 360 CSS pixels nothing scrolls sideways."""
    browser.driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 740, "deviceScaleFactor": 1, "mobile": False},
    )
    try:
        browser.wait(lambda: browser.js("return innerWidth") == 360, "the narrow viewport")
        wide = browser.js(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert wide[0] <= wide[1], wide
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_an_announcement_and_the_retention_settings(
    ann: Browser, server: ServerThread, players: Players
) -> None:
    zoe = players.connect("Zoe")
    open_admin(ann, server)
    said = players.soon(zoe.expect("announce"))
    ann.wait_css("#announce-form input[name=text]").send_keys("Pizza in <i>5</i> minutes")
    ann.find("#announce-form button[type=submit]").click()
    assert said.result(WAIT)["text"] == "Pizza in <i>5</i> minutes"
    notice(ann, "Announcement sent.")

    days = ann.find("#retention-form input[name=chat_days]")
    ann.wait(lambda: days.get_attribute("value") == "30", "the retention values")
    days.click()  # as a person edits it: focused, all selected, typed over
    days.send_keys(Keys.CONTROL, "a")
    days.send_keys("7")
    ann.find("#retention-form button[type=submit]").click()
    notice(ann, "History limits saved.")
    assert server.sync(lambda: server.server.config.chat_days) == 7
    ann.wait(
        lambda: "admin page" in text_of(ann, "#admin-settings-card"),
        "the setting's source: the admin page",
    )


async def until_closed(client: WsClient) -> None:
    """Read until the server closes the connection (ConnectionClosed)."""
    while True:
        await client.recv()


def test_a_ban_shows_in_the_list_and_is_lifted(
    ann: Browser, server: ServerThread, players: Players
) -> None:
    zoe = players.connect("Zoe")
    open_admin(ann, server)
    ann.wait(lambda: "Zoe" in text_of(ann, "#admin-players"), "Zoe among the players")
    gone = players.soon(until_closed(zoe))
    ann.find("#admin-players [data-action=ban-player]").click()
    Select(ann.wait_css("dialog.ask select[name=minutes]")).select_by_value("1440")
    ann.find("dialog.ask input[name=reason]").send_keys("spam")
    ann.find("dialog.ask button[type=submit]").click()
    with pytest.raises(ConnectionClosed) as closed:
        gone.result(WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    ann.wait(lambda: "Zoe" in text_of(ann, "#admin-bans"), "the ban in the list")
    assert "spam" in text_of(ann, "#admin-bans")

    form = ann.find("#ban-form")
    form.find_element("css selector", "input[name=address]").send_keys("192.0.2.7")
    form.find_element("css selector", "button[type=submit]").click()
    ann.wait(lambda: "192.0.2.7" in text_of(ann, "#admin-bans"), "the address ban")
    for lift in ann.find_all("#admin-bans [data-action=unban]"):
        lift.click()
    ann.wait(lambda: not ann.find_all("#admin-bans li"), "every ban lifted")
    assert ann.find("#admin-bans-card").text.count("No bans.") == 1
