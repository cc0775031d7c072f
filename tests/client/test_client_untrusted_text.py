"""The terminal client shows what a server sends as text: a name that is Rich markup
(``[/]x``) or carries escape sequences never crashes a screen nor reaches the
terminal as control."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.widgets import DataTable, Label, RichLog

from gridhall.client.messages import Connection
from gridhall.client.plain import plain
from gridhall.client.session import Session
from gridhall.client.tui.app import GridhallApp
from tests.client.test_client_tui import FAST, SIZE, apps, state, status_text
from tests.hostile import EVIL, has_control, hostile_server
from tests.waiting import ui_until
from tests.waiting import until as wait_for
from tests.wsclient import WsClient

MARKUP = "[/]x"


def screen_text(app: GridhallApp) -> str:
    """Every character the app would paint now (what reaches the terminal), its lines
    joined by spaces."""
    return " ".join(s.text for s in app.screen._compositor.render_strips())


def toasts(app: GridhallApp) -> list[str]:
    """Every toast shown, as its title and message."""
    return [f"{n.title} {n.message}" for n in app._notifications]


def test_plain_replaces_control_and_bidi_and_keeps_the_rest() -> None:
    assert plain("a\x1b]0;t\x07b\x9b\u202ec") == "a\ufffd]0;t\ufffdb\ufffd\ufffdc"
    assert plain("line\nbreak\ttab") == "line break tab"
    assert plain("Zoë 🎲 [/]x 漢字") == "Zoë 🎲 [/]x 漢字"


async def test_a_markup_name_shows_literally_in_lobby_banner_and_toasts(server_url: str) -> None:
    async with (
        WsClient.connect(server_url, MARKUP) as evil,
        apps(server_url, "ann") as [(app, pilot)],
    ):
        await evil.send("create-room", game="gomoku", options={})
        code = (await evil.expect("joined"))["room"]
        await evil.send("chat", text="[bold]hi[/] [/]")
        table = app.lobby.query_one("#rooms", DataTable)
        app.lobby.action_refresh()
        await ui_until(pilot, lambda: table.row_count >= 1)
        assert MARKUP in str(table.get_row(code)[3])
        app.session.submit("join-room", room=code)
        await ui_until(
            pilot, lambda: app.room_screen is not None and state(app).get("status") == "playing"
        )
        await evil.send("resign")
        await ui_until(pilot, lambda: state(app).get("status") == "over")
        await evil.send("play-again")
        banner = app.screen.query_one("#banner-text", Label)
        await ui_until(pilot, lambda: f"{MARKUP} wants another game" in str(banner.render()))
        await ui_until(pilot, lambda: any(f"{MARKUP} wants another game" in t for t in toasts(app)))
        log = app.screen.query_one("#chat", RichLog)
        assert any("[bold]hi[/] [/]" in line.text for line in log.lines)
        assert MARKUP in screen_text(app)
        assert app.is_running


async def test_a_hostile_servers_texts_reach_no_screen_as_control() -> None:
    async with hostile_server() as hostile:
        app = GridhallApp(hostile.url, "me", backoff=FAST)
        async with app.run_test(size=SIZE) as pilot:
            await ui_until(pilot, lambda: app.session.connected)
            table = app.lobby.query_one("#rooms", DataTable)
            app.lobby.action_refresh()
            await ui_until(pilot, lambda: table.row_count >= 1)
            cells = [str(c) for c in table.get_row("EV1L00")]
            assert "[/]x" in cells[3] and not any(has_control(c) for c in cells)
            assert not has_control(str(app.sub_title)) and "[/]x" in str(app.sub_title)
            assert not has_control(screen_text(app))
            app.session.submit("join-room", room="EV1L00")
            await ui_until(
                pilot, lambda: app.room_screen is not None and app.screen is app.room_screen
            )
            await ui_until(pilot, lambda: "[/]x" in status_text(app))
            await pilot.pause()
            shown = screen_text(app)
            assert "[/]x" in shown and not has_control(shown)
            await hostile.push(
                {"type": "chat", "from": "p-them", "name": EVIL, "text": EVIL, "ts": 2.0}
            )
            await hostile.push({"type": "play-again", "from": "p-them"})
            await hostile.push({"type": "error", "code": "bad-message", "message": EVIL})
            await ui_until(pilot, lambda: len(toasts(app)) >= 2)
            log = app.screen.query_one("#chat", RichLog)
            await ui_until(pilot, lambda: len(log.lines) >= 2)
            await pilot.pause()
            for text in (*toasts(app), *(line.text for line in log.lines), screen_text(app)):
                assert not has_control(text), repr(text)
            assert app.is_running


async def test_a_close_reason_reaches_listeners_without_control_characters() -> None:
    async with hostile_server() as hostile:
        session = Session(hostile.url, "me", backoff=FAST)
        seen: list[Any] = []
        session.add_listener(seen.append)
        runner = asyncio.get_running_loop().create_task(session.run())
        try:
            await wait_for(lambda: session.connected, "the welcome")
            await hostile.close_all(4000, "bye \x1b]0;pwned\x07\x9b2J")
            await wait_for(
                lambda: any(isinstance(m, Connection) and m.status == "lost" for m in seen),
                "the lost connection",
            )
        finally:
            await session.close()
            await runner
    lost = next(m for m in seen if isinstance(m, Connection) and m.status == "lost")
    assert lost.code == 4000 and lost.reason.startswith("bye ") and not has_control(lost.reason)
