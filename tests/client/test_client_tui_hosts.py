"""The room's host in the terminal client, against a real server: slash commands in
the chat line, the Host tools dialog, and what the removed player is told."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input, Label, OptionList, RichLog, Static

from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.help import HelpScreen, keys
from gridhall.client.tui.hosttools import HostToolsScreen
from tests.client.test_client_tui import apps, press, start_gomoku, state, type_code, until


def notes(app: GridhallApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def log_lines(app: GridhallApp) -> list[str]:
    return [line.text for line in app.screen.query_one("#chat", RichLog).lines]


def players_pane(app: GridhallApp) -> str:
    return str(app.screen.query_one("#players", Static).render())


async def chat_line(pilot: Pilot[Any], line: str) -> None:
    """Type a line into the chat input (escape first: from the board, ``/`` focuses it)."""
    await pilot.press("escape", "slash")
    await pilot.press(*line, "enter")


async def test_host_kicks_and_the_kicked_is_told_in_the_lobby_until_when(
        server_url: str) -> None:  # fmt: skip
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await start_gomoku(a, b)
        code = app_a.session.room.room  # type: ignore[union-attr]
        await until(pa, lambda: "★ host" in players_pane(app_a))
        await until(pb, lambda: "★ host" in players_pane(app_b))
        await chat_line(pb, "/kick ann")  # bob is not the host: told here, nothing sent
        await until(pb, lambda: "Only the room's host can do that." in notes(app_b))
        await chat_line(pa, "/kick BOB 5")
        await until(pb, lambda: app_b.room_screen is None)
        note = app_b.lobby.query_one("#lobby-note", Label)
        assert note.display and "until" in str(note.render()) and code in str(note.render())
        await until(pa, lambda: any("You removed bob" in line for line in log_lines(app_a)))
        assert app_a.screen.query_one("#chat-input", Input).value == ""
        assert state(app_a)["chat"] == [] or all(c.get("event") for c in state(app_a)["chat"])
        await type_code(pb, app_b, code)  # back too soon: refused, with the reason
        await until(pb, lambda: any("removed you" in n for n in notes(app_b)))
        assert app_b.room_screen is None


async def test_host_locks_mutes_and_hands_over_through_the_dialog(server_url: str) -> None:
    async with apps(server_url, "ann", "bob", "cy") as (a, b, c):
        (app_a, pa), (app_b, pb), (app_c, pc) = a, b, c
        await start_gomoku(a, b)
        code = app_a.session.room.room  # type: ignore[union-attr]
        await chat_line(pa, "/lock")
        await until(pa, lambda: state(app_a).get("locked") is True)
        await type_code(pc, app_c, code)
        await until(pc, lambda: any("locked" in n for n in notes(app_c)))
        assert app_c.room_screen is None
        await chat_line(pa, "/mute bob")
        await until(pb, lambda: "muted" in players_pane(app_b))
        app_b.session.submit("chat", text="let me speak")
        await until(pb, lambda: any("muted your chat" in n for n in notes(app_b)))

        await pa.press("escape")  # back to the board, where keys are commands
        await pa.press("H")
        await until(pa, lambda: isinstance(app_a.screen, HostToolsScreen))
        members = app_a.screen.query_one("#host-members", OptionList)
        members.highlighted = 0  # bob, the only other member
        await press(pa, "#hand-over")
        await until(pb, lambda: state(app_b).get("host") == app_b.session.player)
        await until(pa, lambda: not app_a.screen.query_one("#btn-host-tools").display)
        await until(pb, lambda: app_b.screen.query_one("#btn-host-tools").display)
        await until(pa, lambda: any("made bob the room's host" in line
                                    for line in log_lines(app_a)))  # fmt: skip


def test_help_lists_the_host_tools_and_commands() -> None:
    rows = keys()
    assert any(key == "H" and "host tools" in does for _, key, does in rows)
    assert any(key.startswith("/kick") for _, key, _ in rows)
    assert HelpScreen  # the screen shows these rows (test_client_tui opens it)
