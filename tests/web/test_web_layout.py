"""Phone-first layout, at 360x740 (a touch phone) and 1280x800: on every screen the page
never scrolls sideways, no two controls overlap, none is cut off and no notice covers
one; a 15x15 board fits the width and bigger boards pan and zoom inside their frame.
Screenshots of every screen go to $GRIDHALL_SCREENSHOTS (docs/screenshots) or tmp."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.web.harness import (
    WAIT,
    Browser,
    ServerThread,
    browser_missing,
    choose,
    create_room,
    invite_link,
    open_lobby,
)
from tests.web.layout import (
    VIEWPORTS,
    Viewport,
    check_layout,
    emulate,
    full_screenshot,
    screenshot_dir,
)
from tests.wsclient import WsClient

LONG = "Maximilian-Alexander Oberhaus"  # a long name (the limit is 32)


@pytest.fixture(scope="module", params=VIEWPORTS, ids=[v.name for v in VIEWPORTS])
def pair(request: pytest.FixtureRequest) -> Iterator[tuple[Viewport, Browser, Browser]]:
    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"browser tests need Chromium: {missing}")
    viewport: Viewport = request.param
    one, two = Browser(), Browser()
    try:
        for browser in (one, two):
            emulate(browser, viewport)
        yield viewport, one, two
    finally:
        one.quit()
        two.quit()


@pytest.fixture
def server(tmp_path: Path, pair: tuple[Viewport, Browser, Browser]) -> Iterator[ServerThread]:
    # the held rooms and the browsers all come from 127.0.0.1
    srv = ServerThread(tmp_path / "gridhall.db", max_rooms_per_address=40, room_creation_burst=40)
    yield srv
    for browser in pair[1:]:
        browser.driver.get("about:blank")
    srv.close()


class HeldRooms:
    """Rooms created by websocket clients that stay connected until the test ends."""

    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.stack = AsyncExitStack()
        self.codes: list[str] = []
        self.url = server.url.replace("http://", "ws://", 1)

    async def _create(
        self, name: str, game: str, options: dict[str, Any], fill: bool = False
    ) -> str:
        client = await self.stack.enter_async_context(WsClient.connect(self.url, name))
        await client.send("create-room", game=game, options=options)
        while True:
            msg = await client.recv(timeout=WAIT)
            assert msg["type"] != "error", msg
            if msg["type"] == "joined":
                break
        room = str(msg["room"])
        if fill:
            other = await self.stack.enter_async_context(WsClient.connect(self.url, f"{name} 2"))
            await other.send("join-room", room=room)
            await other.expect("joined", timeout=WAIT)
        self.codes.append(room)
        return room

    def create(self, name: str, game: str, options: dict[str, Any], fill: bool = False) -> str:
        return str(self.server.call(self._create(name, game, options, fill)))

    def close(self) -> None:
        self.server.call(self.stack.aclose())


@pytest.fixture
def held(server: ServerThread) -> Iterator[HeldRooms]:
    rooms = HeldRooms(server)
    yield rooms
    rooms.close()


def shoot(browser: Browser, viewport: Viewport, screen: str, tmp_path: Path) -> None:
    full_screenshot(browser, screenshot_dir(tmp_path) / f"web-{viewport.name}-{screen}.png")


def settle(browser: Browser) -> None:
    """Wait for two animation frames, so the layout has caught up with the last change."""
    browser.driver.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(done));"
    )


def leave(browser: Browser) -> None:
    browser.find("#leave").click()
    confirm = browser.find("#confirm-bar [data-confirm=yes]")
    if confirm.is_displayed():
        confirm.click()
    browser.wait_css("#lobby")


def test_lobby_with_ten_rooms_and_every_create_form(
    pair: tuple[Viewport, Browser, Browser], held: HeldRooms, server: ServerThread, tmp_path: Path
) -> None:
    viewport, ann, _ = pair
    games = [
        ("gomoku", {"size": 19, "rule": "standard", "clock": "10+5"}),
        ("minesweeper", {"preset": "expert", "lives": 3}),
        ("linkmatch", {"width": 16, "height": 9, "kinds": 36, "time_limit": 600}),
    ]
    for i in range(10):
        game, options = games[i % 3]
        held.create(f"{LONG[: 20 + i]}", game, options)
    open_lobby(ann, server, "Ann")
    ann.wait(lambda: len(ann.find_all("#room-list tr")) == 10, "ten rooms listed")
    settle(ann)
    check_layout(ann, viewport, "lobby")
    shoot(ann, viewport, "lobby", tmp_path)
    for game in ("gomoku", "minesweeper", "linkmatch"):
        choose(ann, "game", game)
        if game == "minesweeper":
            choose(ann, "opt-preset", "")  # custom size: width, height and mines shown
        settle(ann)
        check_layout(ann, viewport, f"create {game}")
        ann.js("document.getElementById('create-form').scrollIntoView()")
        shoot(ann, viewport, f"create-{game}", tmp_path)


@pytest.mark.parametrize("game", ["gomoku", "minesweeper", "linkmatch"])
def test_each_game_at_its_default_size_fits(
    pair: tuple[Viewport, Browser, Browser], server: ServerThread, game: str, tmp_path: Path
) -> None:
    viewport, ann, _ = pair
    open_lobby(ann, server, "Ann")
    create_room(ann, game)
    settle(ann)
    check_layout(ann, viewport, game)
    board = ann.js("""const b = document.querySelector('[data-board]').getBoundingClientRect();
      const f = document.getElementById('board-wrap');
      return {board: b.width, frame: f.clientWidth, scroll: f.scrollWidth};""")
    # the default boards (15x15, 16x16, 16x9) fit: nothing to pan
    assert board["board"] <= board["frame"] and board["scroll"] <= board["frame"], board
    shoot(ann, viewport, game, tmp_path)
    leave(ann)


BIG = [
    ("gomoku", {"size": 19}),
    ("minesweeper", {"preset": "expert"}),
    ("minesweeper", {"width": 200, "height": 200, "mines": 4000}),
    ("linkmatch", {"width": 30, "height": 16, "kinds": 36, "time_limit": 600}),
]

FRAME = """const f = document.getElementById('board-wrap');
  const cell = document.querySelector('[data-board] [data-x]').getBoundingClientRect().width;
  return {cell, frameW: f.clientWidth, frameH: f.clientHeight, scrollW: f.scrollWidth,
          scrollH: f.scrollHeight, left: f.scrollLeft, pageW: document.documentElement.scrollWidth,
          pageX: window.scrollX, zoom: !document.getElementById('zoom-bar').hidden};"""


@pytest.mark.parametrize("game,options", BIG, ids=["gomoku19", "expert", "200x200", "link30x16"])
def test_big_boards_pan_and_zoom_inside_their_frame(
    pair: tuple[Viewport, Browser, Browser],
    held: HeldRooms,
    server: ServerThread,
    game: str,
    options: dict[str, Any],
    tmp_path: Path,
) -> None:
    viewport, ann, _ = pair
    code = held.create("Host", game, options)
    ann.driver.get(f"{server.url}?name=Ann#{code}")
    ann.wait_css(f"[data-board='{game}']")
    settle(ann)
    check_layout(ann, viewport, f"{game} {options}")
    before = ann.js(FRAME)
    assert before["zoom"], "the zoom buttons show for a big board"
    if viewport.mobile:  # too small to tap when fitted: it starts zoomed, and pans
        assert before["cell"] >= 17.5, before
        assert before["scrollW"] > before["frameW"], before
    ann.js("const f = document.getElementById('board-wrap'); f.scrollLeft = f.scrollWidth;")
    panned = ann.js(FRAME)
    assert panned["left"] > 0 or panned["scrollW"] <= panned["frameW"]
    assert (panned["pageW"], panned["pageX"]) == (viewport.width, 0), "the page stays still"
    ann.find("#zoom-bar [data-zoom='1.25']").click()
    bigger = ann.wait(
        lambda: (lambda f: f if f["cell"] > panned["cell"] + 1 else None)(ann.js(FRAME)),
        "bigger cells",
    )
    assert (bigger["pageW"], bigger["pageX"]) == (viewport.width, 0)
    ann.js(
        "document.getElementById('board-wrap').dispatchEvent(new WheelEvent('wheel', "
        "{deltaY: 200, ctrlKey: true, bubbles: true, cancelable: true}))"
    )  # a trackpad pinch
    ann.wait(lambda: ann.js(FRAME)["cell"] < bigger["cell"] - 1, "Ctrl + wheel to zoom out")
    ann.find("#zoom-bar [data-zoom='0']").click()  # the whole board
    whole = ann.wait(
        lambda: (lambda f: f if f["scrollW"] <= f["frameW"] + 1 else None)(ann.js(FRAME)),
        "the whole board in the frame",
    )
    assert whole["scrollH"] <= whole["frameH"] + 1
    check_layout(ann, viewport, f"{game} {options} zoomed out")
    shoot(
        ann,
        viewport,
        f"{game}-{options.get('size') or options.get('preset') or options['width']}",
        tmp_path,
    )


def test_invite_offer_confirm_and_result_screens(
    pair: tuple[Viewport, Browser, Browser], server: ServerThread, tmp_path: Path
) -> None:
    viewport, ann, bob = pair
    open_lobby(ann, server, "Ann")
    create_room(ann, "gomoku")
    link = invite_link(ann)
    base, _, code = link.partition("#")
    bob.driver.get(f"{base}?name={LONG}#{code}")
    bob.wait_css("[data-board='gomoku']")
    ann.wait(lambda: ann.status_state() == "playing", "the game to start")
    ann.js("document.getElementById('invite-link').scrollIntoView()")
    check_layout(ann, viewport, "invite")
    shoot(ann, viewport, "invite", tmp_path)
    summary = ann.find("#players details.host-tools summary")  # the host's tools on Bob
    summary.click()
    ann.wait_css("#players [data-host=hand-over]")
    settle(ann)
    check_layout(ann, viewport, "host tools")
    summary.click()

    ann.cell(7, 7).click()
    bob.wait(lambda: bob.cell(7, 7).get_attribute("data-stone") == "black", "Ann's stone")
    bob.find("#actions [data-action=draw]").click()
    ann.wait_css("#offer-bar [data-action=accept]")
    settle(ann)
    check_layout(ann, viewport, "offer")
    assert "draw" not in ann.find("[data-notice]").text, "the offer bar says it: no toast too"
    shoot(ann, viewport, "offer", tmp_path)
    ann.find("#offer-bar [data-action=refuse]").click()
    bob.wait(lambda: "declined" in bob.find("[data-notice]").text, "the refusal at Bob's")
    settle(bob)
    check_layout(bob, viewport, "notice")

    ann.find("#actions [data-action=resign]").click()
    ann.wait_css("#confirm-bar")
    settle(ann)
    check_layout(ann, viewport, "confirm resign")
    shoot(ann, viewport, "confirm", tmp_path)
    ann.find("#confirm-bar [data-confirm=yes]").click()
    for browser in (ann, bob):
        browser.wait_css("#banner [data-action=again]")
        settle(browser)
        check_layout(browser, viewport, "result")
        assert "resign" not in browser.find("[data-notice]").text, "the result bar says it"
    assert ann.find("#banner").get_attribute("data-outcome") == "loss"
    assert bob.find("#banner").get_attribute("data-outcome") == "win"
    shoot(bob, viewport, "result", tmp_path)


def test_a_full_rooms_invite_offers_watch(
    pair: tuple[Viewport, Browser, Browser], held: HeldRooms, server: ServerThread, tmp_path: Path
) -> None:
    viewport, ann, _ = pair
    code = held.create("Cleo", "gomoku", {}, fill=True)
    ann.driver.get(f"{server.url}?name=Ann#{code}")
    watch = ann.wait_css("[data-notice] [data-notice-action]")
    assert "taken" in ann.find("[data-notice]").text
    settle(ann)
    check_layout(ann, viewport, "full room")
    shoot(ann, viewport, "full-room", tmp_path)
    watch.click()
    ann.wait_css("[data-board='gomoku']")
    ann.wait(lambda: "Watching" in ann.status(), "watching the full room")
    assert not ann.find_all("#actions [data-action=resign]:not([hidden])")
    assert ann.find("#gesture-hint").text == "", "no 'tap to place a stone' for a spectator"
