"""Reversi played through the terminal client: a disc by mouse, one by keyboard, the
hints on the legal cells, and a click on a cell that is no move sends nothing."""

from __future__ import annotations

from typing import Any

from test_client_tui import SIZE, GridhallApp, apps, press, shown, snapshot, state  # shared helpers
from textual.pilot import Pilot
from textual.widgets import Select, Static

from gridhall.client.session import Backoff
from gridhall.client.tui.boards.reversi import ReversiWidget
from gridhall.client.tui.replay import ReplayScreen
from tests.client.test_client_reversi_replay import answer as replay_answer
from tests.waiting import ui_until


async def click_cell(pilot: Pilot[Any], x: int, y: int) -> None:
    """Click cell (x, y): border, row labels, two columns a cell."""
    await shown(pilot)
    assert await pilot.click("#board", offset=(1 + 3 + 2 * x, 1 + 1 + y))


def board_text(app: GridhallApp) -> str:
    return app.screen.query_one("#board", ReversiWidget).render().plain


async def test_two_terminal_clients_play_reversi(server_url: str) -> None:
    async with apps(server_url, "ann", "bob") as (a, b):
        (app_a, pa), (app_b, pb) = a, b
        await pa.press("n")
        await ui_until(pa, lambda: app_a.screen.query("#create-dialog"))
        app_a.screen.query_one("#game", Select).value = "reversi"  # preset: 8x8
        await pa.pause()
        await press(pa, "#ok")
        await ui_until(pa, lambda: state(app_a).get("game") == "reversi")
        code = app_a.session.room.room  # type: ignore[union-attr]
        app_b.session.submit("join-room", room=code)
        await ui_until(pb, lambda: state(app_b).get("status") == "playing")
        await ui_until(pa, lambda: state(app_a).get("status") == "playing")
        await ui_until(pa, lambda: board_text(app_a).count("·") == 4)  # black's opening moves
        assert board_text(app_a).count("●") == 2 and board_text(app_a).count("○") == 2

        await click_cell(pa, 0, 0)  # A1 is no move: nothing is sent
        await click_cell(pa, 5, 4)  # F5
        await ui_until(pb, lambda: state(app_b)["view"]["moves"] == [[5, 4]])
        assert state(app_b)["view"]["counts"] == {"black": 4, "white": 1}

        # bob by keyboard: the cursor starts in the middle (E5 on 8x8); F6 is right, down
        await ui_until(pb, lambda: state(app_b).get("turn") == app_b.session.player)
        await shown(pb)
        app_b.screen.query_one("#board", ReversiWidget).focus()
        await pb.press("right", "down", "enter")
        await ui_until(pa, lambda: state(app_a)["view"]["moves"] == [[5, 4], [5, 5]])
        await ui_until(pa, lambda: board_text(app_a).count("◎") == 1)  # the last disc, ringed
        snapshot(app_a, "reversi")


async def test_the_terminal_replay_steps_through_a_reversi_game() -> None:
    """Each step's board, its counts as the board's title, the move's name in the step line."""
    app = GridhallApp("ws://127.0.0.1:9/", "cat", backoff=Backoff(first=60, cap=60))
    async with app.run_test(size=SIZE) as pilot:  # offline: the answer is handed in
        replay = ReplayScreen(1)
        await app.push_screen(replay)
        await pilot.pause()
        data = replay_answer()
        replay.answer("replay", {k: v for k, v in data.items() if k != "type"})
        await ui_until(pilot, lambda: replay.query(ReversiWidget))
        board = replay.query_one(ReversiWidget)
        # it opens at the end: C3 played, black 5, white 2
        await ui_until(pilot, lambda: "black 5 · white 2" in str(board.border_title))
        assert "C3" in str(replay.query_one("#replay-step", Static).render())
        assert board.render().plain.count("●") + board.render().plain.count("◉") == 5
        await pilot.press("left")
        await ui_until(pilot, lambda: "black 3 · white 3" in str(board.border_title))
        assert "D6" in str(replay.query_one("#replay-step", Static).render())
