"""The room's host in the terminal client, against a real server: slash commands in
the chat line, the Host tools dialog, and what the removed player is told."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Label, OptionList, RichLog, Static

from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.help import HelpScreen, keys
from gridhall.client.tui.hosttools import HostToolsScreen
from gridhall.server.io.admin_actions import AdminActions
from tests.client.test_client_tui import apps, press, start_gomoku, state, type_code
from tests.conftest import url_of
from tests.waiting import ui_until


def notes(app: GridhallApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def log_text(app: GridhallApp) -> str:
    """The room log as one text (lines wrap at spaces in the narrow pane)."""
    return " ".join(line.text.strip() for line in app.screen.query_one("#chat", RichLog).lines)


def players_pane(app: GridhallApp) -> str:
    return str(app.screen.query_one("#players", Static).render())


async def chat_line(pilot: Pilot[Any], line: str) -> None:
    """Type a line into the chat input (escape first: from the board, ``/`` focuses it)."""
    await pilot.press("escape", "slash")
    await pilot.press(*line, "enter")


async def test_host_kicks_and_the_kicked_is_told_in_the_lobby_until_when(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        code = app_a.session.room.room  # type: ignore[union-attr]
        await ui_until(pa, lambda: "★ host" in players_pane(app_a))
        await ui_until(pb, lambda: "★ host" in players_pane(app_b))
        await chat_line(pb, "/kick ann")  # bob is not the host: told here, nothing sent
        await ui_until(pb, lambda: "Only the room's host can do that." in notes(app_b))
        await chat_line(pa, "/kick BOB 5")
        await ui_until(pb, lambda: app_b.room_screen is None)
        note = app_b.lobby.query_one("#lobby-note", Label)
        await ui_until(pb, lambda: note.display)  # (the lobby may come back a frame before it)
        assert "until" in str(note.render()) and code in str(note.render())
        await ui_until(pa, lambda: "You removed bob" in log_text(app_a))
        assert app_a.screen.query_one("#chat-input", Input).value == ""
        assert state(app_a)["chat"] == [] or all(c.get("event") for c in state(app_a)["chat"])
        await type_code(pb, app_b, code)  # back too soon: refused, with the reason
        await ui_until(pb, lambda: any("removed you" in n for n in notes(app_b)))
        assert app_b.room_screen is None


async def test_host_locks_mutes_and_hands_over_through_the_dialog(server_url: str) -> None:
    async with apps(server_url, "ann", "bob", "cy") as (a, b, c):
        (app_a, pa), (app_b, pb), (app_c, pc) = a, b, c
        await start_gomoku(a, b)
        code = app_a.session.room.room  # type: ignore[union-attr]
        await chat_line(pa, "/lock")
        await ui_until(pa, lambda: state(app_a).get("locked") is True)
        await type_code(pc, app_c, code)
        await ui_until(pc, lambda: any("locked" in n for n in notes(app_c)))
        assert app_c.room_screen is None
        await chat_line(pa, "/mute bob")
        await ui_until(pb, lambda: "muted" in players_pane(app_b))
        app_b.session.submit("chat", text="let me speak")
        await ui_until(pb, lambda: any("muted your chat" in n for n in notes(app_b)))
        await chat_line(pa, "/unmute bob")
        await ui_until(pb, lambda: "muted" not in players_pane(app_b))
        await chat_line(pa, "/computer off")  # gomoku with two people: no computer seat
        await ui_until(pa, lambda: any("no computer player" in n for n in notes(app_a)))

        await pa.press("escape")  # back to the board, where keys are commands
        await pa.press("H")
        await ui_until(pa, lambda: isinstance(app_a.screen, HostToolsScreen))
        members = app_a.screen.query_one("#host-members", OptionList)
        members.highlighted = 0  # bob, the only other member
        await press(pa, "#hand-over")
        await ui_until(pb, lambda: state(app_b).get("host") == app_b.session.player)
        await ui_until(pa, lambda: not app_a.screen.query_one("#btn-host-tools").display)
        await ui_until(pb, lambda: app_b.screen.query_one("#btn-host-tools").display)
        await ui_until(pa, lambda: "made bob the room's host" in log_text(app_a))


def test_help_lists_the_host_tools_and_commands() -> None:
    rows = keys()
    assert any(key == "H" and "host tools" in does for _, key, does in rows)
    assert any(key.startswith("/kick") for _, key, _ in rows)
    assert HelpScreen  # the screen shows these rows (test_client_tui opens it)


async def test_the_operators_announcement_room_closing_and_ban_reach_the_player(
    make_server: Any,
) -> None:
    server = await make_server()
    admin = AdminActions(server)
    async with apps(url_of(server), "ann") as [(app, pilot)]:
        await pilot.press("n")
        await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
        await press(pilot, "#ok")
        await ui_until(pilot, lambda: app.room_screen is not None and state(app))
        code = app.session.room.room  # type: ignore[union-attr]

        admin.run({"action": "announce", "text": "[b]lunch[/b] at noon"}, time.time())
        said = "Announcement from the server: [b]lunch[/b] at noon"
        await ui_until(pilot, lambda: said in notes(app))  # as written: never markup
        await ui_until(pilot, lambda: said in log_text(app))

        admin.run({"action": "close-room", "room": code, "reason": "closing time"}, time.time())
        await ui_until(pilot, lambda: app.room_screen is None)
        note = str(app.lobby.query_one("#lobby-note", Label).render())
        assert note == f"The server's operator closed room {code}: closing time"

        player = app.session.player
        admin.run({"action": "ban", "player": player, "minutes": 30, "reason": "spam"}, time.time())
        await ui_until(
            pilot, lambda: any("closed the connection" in n and "spam" in n for n in notes(app))
        )
        await ui_until(
            pilot,
            lambda: any(
                "banned" in n.lower() for n in notes(app) if "closed the connection" not in n
            ),
        )
        assert app.session._banned_until is not None or not app.session.connected


async def test_the_lobby_note_after_a_removal_follows_the_clock(server_url: str) -> None:
    """ "(5 minutes from now)" is said again as time passes, then that the player may
    come back."""
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, _), (app_b, pb) = a, b
        await start_gomoku(a, b)
        app_a.session.submit("host", action="kick", player=app_b.session.player, minutes=5)
        await ui_until(pb, lambda: app_b.room_screen is None)
        note = app_b.lobby.query_one("#lobby-note", Label)
        await ui_until(pb, lambda: "5 minutes from now" in str(note.render()))
        now = time.time()
        app_b.session.clock = lambda: now + 4 * 60
        await ui_until(pb, lambda: "1 minute from now" in str(note.render()))
        app_b.session.clock = lambda: now + 6 * 60
        await ui_until(pb, lambda: "you may join it again now" in str(note.render()))


async def test_a_room_lost_at_a_restart_is_said_in_the_lobby(tmp_path: Path) -> None:
    """The server comes back without Ann's room (it could not be restored): her
    terminal leaves the room screen and the lobby says which room and why, once."""
    from tests.client.test_client_resume import start_server
    from tests.e2e.test_room_lost_e2e import unreadable

    db = tmp_path / "g.db"
    server = await start_server(db)
    port = server.port
    try:
        async with apps(f"ws://127.0.0.1:{port}/", "ann") as [(app, pilot)]:
            await pilot.press("n")
            await ui_until(pilot, lambda: app.screen.query("#create-dialog"))
            await press(pilot, "#ok")
            await ui_until(pilot, lambda: app.room_screen is not None and state(app))
            code = app.session.room.room  # type: ignore[union-attr]
            await server.close()
            unreadable(str(db), code)
            server = await start_server(db, port)
            await ui_until(pilot, lambda: app.room_screen is None)
            label = app.lobby.query_one("#lobby-note", Label)
            await ui_until(pilot, lambda: code in str(label.render()))
            note = str(label.render())
            assert f"Your room {code} could not be restored" in note and "teleport" in note
            told = [n for n in notes(app) if code in n]
            assert len(told) == 1 and "teleport" in told[0]  # one message, not two
    finally:
        await server.close()
