"""The terminal client's history and replay screens against a real server: a game
finished by two real clients is listed, opens as a replay, and steps."""

from __future__ import annotations

from typing import Any

from test_client_tui import apps, until  # shared helpers
from textual.widgets import DataTable, Static

from gridhall.client.replays import gomoku_frame
from gridhall.client.tui.history import HistoryScreen
from gridhall.client.tui.replay import ReplayScreen
from tests.e2e.test_gomoku_e2e import play_to_five
from tests.wsclient import gomoku_pair


def shown_text(screen: Any, selector: str) -> str:
    """What a Static shows, as plain text."""
    return str(screen.query_one(selector, Static).render())


async def test_a_finished_game_is_listed_and_its_replay_steps(server_url: str) -> None:
    async with gomoku_pair(server_url) as (black, white, _room):
        await play_to_five(black, white, row=3)
        await white.expect("game-over")
    async with apps(server_url, "cat") as [(app, pilot)]:
        await until(pilot, lambda: "history" in app.session.features)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        table = app.screen.query_one("#games", DataTable)
        await until(pilot, lambda: table.row_count == 1)
        row = [str(cell) for cell in table.get_row_at(0)]
        assert "Ann" in row[2] and "Bob" in row[2]
        table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ReplayScreen)
                    and app.screen.player is not None)
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert shown_text(replay, "#replay-step").startswith("9 / 9")  # opens on the end
        assert f"#replay/{replay.game_id}" in shown_text(replay, "#replay-link")
        lines = shown_text(replay, "#replay-board").splitlines()
        assert lines[4].split()[1:6] == ["1", "3", "5", "7", "9"]  # row 4: black's five
        await pilot.press("home")
        assert shown_text(replay, "#replay-step").startswith("0 / 9")
        await pilot.press("right", "right")
        assert shown_text(replay, "#replay-step").startswith("2 / 9")
        lines = shown_text(replay, "#replay-board").splitlines()
        assert lines[4].split()[:2] == ["4", "1"]
        assert lines[5].split()[:2] == ["5", "2"]
        assert replay.player is not None
        assert gomoku_frame(replay.player).numbers == {(0, 3): 1, (0, 4): 2}
        await pilot.press("g", *"7", "enter")
        assert shown_text(replay, "#replay-step").startswith("7 / 9")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
