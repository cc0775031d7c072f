"""The terminal client's history and replay screens against a real server: a game
finished by two real clients is listed, opens as a replay, and steps."""

from __future__ import annotations

from typing import Any

from test_client_tui import FAST, SIZE, snapshot  # shared helpers
from textual.widgets import DataTable, Label, Static

from gridhall.client.history import Opening
from gridhall.client.session import Backoff
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.boards import Board
from gridhall.client.tui.boards.gomoku import GomokuWidget
from gridhall.client.tui.history import HistoryScreen
from gridhall.client.tui.leaderboard import LeaderboardScreen
from gridhall.client.tui.profile import ProfileScreen
from gridhall.client.tui.replay import ReplayScreen
from gridhall.client.views import view_for
from gridhall.server.io.app import GameServer
from tests.conftest import url_of
from tests.e2e.test_gomoku_e2e import play_to_five
from tests.rated import establish, five
from tests.server.test_ratings_e2e import lose_to_the_computer
from tests.waiting import ui_until
from tests.wsclient import WsClient, gomoku_pair, play_moves


def shown_text(screen: Any, selector: str) -> str:
    """What a Static shows, as plain text."""
    return str(screen.query_one(selector, Static).render())


def board_text(screen: Any) -> str:
    """What the replay's boards (the game's own live widgets) show, as plain text."""
    return "\n".join(str(board.render()) for board in screen.query(Board))


async def test_a_finished_game_is_listed_and_its_replay_steps(server_url: str) -> None:
    async with gomoku_pair(server_url) as (black, white, _room):
        await play_to_five(black, white, row=3)
        await white.expect("game-over")
    app = GridhallApp(server_url, "cat", backoff=FAST, opening=Opening(history=True))
    async with app.run_test(size=SIZE) as pilot:  # as `gridhall --history` starts
        await ui_until(
            pilot,
            lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.query("#games")),
        )  # composed, not only current
        table = app.screen.query_one("#games", DataTable)
        await ui_until(pilot, lambda: table.row_count == 1)
        row = [str(cell) for cell in table.get_row_at(0)]
        snapshot(app, "history")
        assert "Ann" in row[2] and "Bob" in row[2]
        table.focus()
        await pilot.press("enter")
        await ui_until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.player is not None
        )
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert shown_text(replay, "#replay-step").startswith("9 / 9")  # opens on the end
        assert f"#replay/{replay.game_id}" in shown_text(replay, "#replay-link")
        assert isinstance(replay.query_one("#replay-board Board"), GomokuWidget)  # the live one
        lines = board_text(replay).splitlines()
        assert lines[4].split()[1:6] == ["1", "3", "5", "7", "9"]  # row 4: black's five
        await pilot.press("home")
        assert shown_text(replay, "#replay-step").startswith("0 / 9")
        await pilot.press("right", "right")
        assert shown_text(replay, "#replay-step").startswith("2 / 9")
        lines = board_text(replay).splitlines()
        assert lines[4].split()[:2] == ["4", "1"]
        assert lines[5].split()[:2] == ["5", "2"]
        assert replay.player is not None
        [frame] = view_for("gomoku").replay_frames(replay.player)
        assert frame.decoration.numbers == {(0, 3): 1, (0, 4): 2}
        await pilot.press("g", *"7", "enter")
        assert shown_text(replay, "#replay-step").startswith("7 / 9")
        snapshot(app, "replay-gomoku")
        await pilot.press("escape")
        await ui_until(pilot, lambda: isinstance(app.screen, HistoryScreen))


async def open_leaderboard(app: GridhallApp, pilot: Any) -> DataTable[Any]:
    """``l`` in the lobby, once the server offers ratings: the leaderboard's table."""
    await ui_until(pilot, lambda: "ratings" in app.session.features)
    await pilot.press("l")
    await ui_until(
        pilot,
        lambda: (
            isinstance(app.screen, LeaderboardScreen) and bool(app.screen.query("#leaderboard"))
        ),
    )  # composed, not only current
    return app.screen.query_one("#leaderboard", DataTable)


async def test_the_leaderboard_after_a_rated_game_shows_my_rank(server: GameServer) -> None:
    server_url = url_of(server)
    async with gomoku_pair(server_url, {"rated": True}) as (black, white, _room):
        establish(server, [black.player, white.player])  # on the board once they play
        over = await five(black, white)
        assert set(over["ratings"]) == {black.player, white.player}
        token = white.token  # the loser looks: the winner is above them
        await white.send("leave-room")
        await white.expect("left")
    app = GridhallApp(server_url, "Bob", token=token, backoff=FAST)
    async with app.run_test(size=SIZE) as pilot:
        table = await open_leaderboard(app, pilot)
        await ui_until(pilot, lambda: table.row_count >= 2)
        names = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert names.index("Ann") < names.index("Bob")  # best first (computers are rated too)
        label = str(app.screen.query_one("#leaderboard-rank", Label).render())
        assert label.startswith(f"Your rank: {names.index('Bob') + 1} of ")
        assert table.cursor_row == names.index("Bob")  # on my own row
        snapshot(app, "leaderboard")
        await pilot.press("enter")
        await ui_until(
            pilot,
            lambda: (
                isinstance(app.screen, ProfileScreen) and bool(app.screen.query("#profile-ratings"))
            ),
        )  # composed, not only current
        ratings = app.screen.query_one("#profile-ratings", DataTable)
        await ui_until(pilot, lambda: ratings.row_count == 1)
        assert str(ratings.get_row_at(0)[0]) == "Gomoku"
        assert app.screen.query_one("#profile-recent", DataTable).row_count == 1
        snapshot(app, "profile")


async def test_the_leaderboard_counts_the_computers_games_and_shows_their_names_whole(
    server: GameServer,
) -> None:
    server_url = url_of(server)
    async with WsClient.connect(server_url, "Ann") as ann:
        establish(server, [ann.player])  # on the board (10 rated games) once she plays
        await lose_to_the_computer(ann, "easy")
        await lose_to_the_computer(ann, "hard")
        token = ann.token
    app = GridhallApp(server_url, "Ann", token=token, backoff=FAST)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_leaderboard(app, pilot)
        await ui_until(pilot, lambda: table.row_count == 3)
        rows = {str(table.get_row_at(i)[1]): str(table.get_row_at(i)[3]) for i in range(3)}
        games = {name.split(" (computer)")[0]: n for name, n in rows.items()}
        assert games == {"Computer (hard)": "1", "Computer (easy)": "1", "Ann": "12"}
        await pilot.pause()
        screen = "\n".join(s.text for s in app.screen._compositor.render_strips())
        assert "Computer (hard)" in screen and "Computer (easy)" in screen


async def test_gridhall_replay_opens_a_game_and_analyses_it(make_server: Any) -> None:
    server = await make_server(analysis_budget=0.02)
    url = url_of(server)
    async with gomoku_pair(url) as (black, white, _room):
        await play_to_five(black, white, row=3)
        game_id = (await black.request("list-games", "games"))["games"][0]["game_id"]
    app = GridhallApp(url, "cat", backoff=FAST, opening=Opening(replay=game_id))
    async with app.run_test(size=SIZE) as pilot:  # as `gridhall --replay ID` starts
        await ui_until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.player is not None
        )
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.player is not None
        assert replay.query_one("#replay-analyse").display  # the server offers analysis
        await pilot.press("a")
        await ui_until(
            pilot,
            lambda: replay.player is not None and replay.player.analysis_status == "done",
            timeout=120,
        )
        assert sorted(replay.player.notes) == list(range(1, 10))  # a note on every move
        await pilot.press("home", "right")
        assert "Move 1" in shown_text(replay, "#replay-note")
        assert "Marked moves" in shown_text(replay, "#replay-note")


OPEN_THREE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (0, 14), (10, 7), (6, 7), (11, 7)]
"""White's third stone (0, 14, move 6) leaves Black's open three H8-K8 unblocked."""


async def test_the_replay_marks_the_move_that_let_the_opponent_force_a_win(
    make_server: Any,
) -> None:
    server = await make_server(analysis_budget=0.5)
    url = url_of(server)
    async with gomoku_pair(url) as (black, white, _room):
        await play_moves(black, white, OPEN_THREE)
        game_id = (await black.request("list-games", "games"))["games"][0]["game_id"]
    app = GridhallApp(url, "cat", backoff=FAST, opening=Opening(replay=game_id))
    async with app.run_test(size=SIZE) as pilot:
        await ui_until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and app.screen.player is not None
        )
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.player is not None
        await pilot.press("a")
        await ui_until(
            pilot,
            lambda: replay.player is not None and replay.player.analysis_status == "done",
            timeout=120,
        )
        assert replay.player.marked() == [6]  # was "Marked moves: none"
        await pilot.press("home", *["right"] * 6)
        note = shown_text(replay, "#replay-note")
        assert "Move 6 let the opponent force a win;" in note and "Marked moves: 6" in note
        assert "G8 would have stopped it" in note or "L8 would have stopped it" in note


async def test_a_replay_the_client_cannot_draw_is_said_not_crashed() -> None:
    app = GridhallApp("ws://127.0.0.1:9/", "cat", backoff=Backoff(first=60, cap=60))
    async with app.run_test(size=SIZE) as pilot:  # offline: the answer is handed in
        replay = ReplayScreen(4)
        await app.push_screen(replay)
        await pilot.pause()
        replay.answer(
            "replay",
            {
                "game_id": 4,
                "game": "gomoku",
                "options": {},
                "players": [],
                "start": {"size": 15, "moves": 5},
                "steps": [],
            },
        )
        await pilot.pause()
        assert "cannot be shown" in shown_text(replay, "#replay-message")
        assert app.is_running and app.screen is replay
