"""The Tk history, replay, leaderboard and profile windows, fed the server's answers
directly (no server): what they ask, and what they draw from the answer."""

from __future__ import annotations

import gc
import tkinter as tk
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gridhall.client.tk import theme
from gridhall.client.tk.answers import Answers
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from gridhall.client.tk.history import HistoryWindow
from gridhall.client.tk.ratings import LeaderboardWindow, ProfileWindow
from gridhall.client.tk.replay import ReplayWindow
from gridhall.client.tk.replay_boards import ReplayBoards

ANN = {"player": "a", "name": "ann", "seat": 0, "color": "#ff0000"}
BOB = {"player": "b", "name": "[b]bob[/b]", "seat": 1, "color": "#0000ff"}
URL = "ws://10.0.0.5:8765/"


class FakeServer:
    """Plays the bridge: records each query and hands it an id at once."""

    def __init__(self) -> None:
        self.asked: list[dict[str, Any]] = []
        self.answers = Answers(self.ask)

    def ask(self, request: dict[str, Any], then: Callable[[int | None], None]) -> None:
        self.asked.append(request)
        then(len(self.asked))

    def answer(self, **fields: Any) -> None:
        """Answer the latest query."""
        self.answers.take({**fields, "re": len(self.asked)})


@pytest.fixture
def root(xvfb: str) -> Iterator[tk.Tk]:
    window = tk.Tk(className="gridhall")
    theme.apply(window)
    yield window
    window.destroy()
    gc.collect()  # Tk variables must die on this thread, not in a network thread's GC


def one_board(boards: ReplayBoards | None) -> Any:
    """The one canvas a replay of a game without several boards shows."""
    assert boards is not None
    (canvas,) = boards.canvases().values()
    return canvas


def settle(root: tk.Tk) -> None:
    """Let Tk lay the windows out (no waiting on the clock)."""
    root.update_idletasks()
    root.update()


def key(window: tk.Misc, keysym: str) -> None:
    """A key pressed in ``window`` (it gets the focus first, as a click would give)."""
    window.focus_force()
    window.update()
    window.event_generate(f"<{keysym}>")


def gomoku_answer(moves: list[list[int]]) -> dict[str, Any]:
    steps = []
    for k in range(1, len(moves) + 1):
        view: dict[str, Any] = {"size": 15, "moves": moves[:k]}
        if k == len(moves):
            view["line"] = [[x, 7] for x in range(3, 8)]
        steps.append(
            {
                "t": float(k),
                "by": "a" if k % 2 else "b",
                "view": view,
                "delta": {},
                "label": f"M{k}",
            }
        )
    return {
        "type": "replay",
        "game_id": 4,
        "game": "gomoku",
        "options": {"size": 15},
        "players": [ANN, BOB],
        "result": {"winner": "a", "reason": "five"},
        "started_at": 0.0,
        "ended_at": 9.0,
        "rated": False,
        "start": {"size": 15, "moves": []},
        "steps": steps,
        "total": len(steps),
        "next": None,
    }


FIVE = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]]


def test_replay_window_steps_by_keys_buttons_and_slider_and_copies_the_link(root: tk.Tk) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 4, me="a", analysis=True)
    assert server.asked == [{"type": "get-replay", "game_id": 4}]
    server.answer(**gomoku_answer(FIVE))
    settle(root)
    board = one_board(window.board)
    assert isinstance(board, GomokuCanvas)  # the live room's board
    assert window.counter.cget("text") == "0 / 9" and not board.find_withtag("stone")
    key(window, "Right")
    key(window, "Right")
    assert window.counter.cget("text") == "2 / 9"
    assert board.find_withtag("number-1") and board.find_withtag("number-2")
    assert "[b]bob[/b]" in window.note.cget("text") and "M2" in window.note.cget("text")
    key(window, "End")
    assert window.counter.cget("text") == "9 / 9" and board.find_withtag("win")
    assert board.itemcget(board.find_withtag("number-9")[0], "text") == "9"
    assert window.buttons["next"].instate(["disabled"])
    key(window, "Left")
    assert window.counter.cget("text") == "8 / 9" and not board.find_withtag("win")
    key(window, "Home")
    assert window.counter.cget("text") == "0 / 9"
    window.buttons["end"].invoke()
    assert window.counter.cget("text") == "9 / 9"
    window.slider.set(5)
    assert window.counter.cget("text") == "5 / 9"
    key(window.buttons["copy"], "space")  # Space on a focused button presses it only
    assert root.clipboard_get() == "http://10.0.0.5:8765/#replay/4"
    assert window.player is not None and not window.player.playing


def test_replay_window_shows_the_analysis_mark_and_best_move(root: tk.Tk) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 4, analysis=True)
    server.answer(**gomoku_answer(FIVE[:4]))
    settle(root)
    assert window.buttons["analyse"].winfo_manager()
    window.buttons["analyse"].invoke()
    assert server.asked[-1] == {"type": "analyse", "game_id": 4}
    server.answer(
        type="analysis", game_id=4, status="running", engine="hard", budget=0.5, progress=[1, 4]
    )
    window.go(2)
    assert "1 / 4" in window.note.cget("text")  # how far the analysis is
    server.answers.take(
        {
            "type": "analysis",
            "game_id": 4,
            "status": "done",
            "moves": [{"n": 4, "eval": -1000, "best": [5, 7], "mark": "missed-vcf"}],
        }
    )  # pushed, no re
    key(window, "KeyPress-m")  # the next marked move
    assert window.counter.cget("text") == "4 / 4"
    board = one_board(window.board)
    assert isinstance(board, GomokuCanvas)  # the live room's board
    assert board.find_withtag("marked") and board.find_withtag("best")
    assert "F8" in window.note.cget("text")


def test_replay_window_shows_a_blunder_and_the_move_that_would_have_stopped_it(
    root: tk.Tk,
) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 4, analysis=True)
    server.answer(**gomoku_answer(FIVE[:4]))
    settle(root)
    server.answers.take(
        {
            "type": "analysis",
            "game_id": 4,
            "status": "done",
            "moves": [{"n": 2, "eval": -300, "best": [5, 7], "mark": "blunder"}],
        }
    )
    key(window, "KeyPress-m")
    assert window.counter.cget("text") == "2 / 4"
    board = one_board(window.board)
    assert isinstance(board, GomokuCanvas)  # the live room's board
    assert board.find_withtag("marked") and board.find_withtag("best")
    said = window.note.cget("text")
    assert "Move 2 let the opponent force a win; F8 would have stopped it." in said
    assert "Marked moves: 2" in said


def test_replay_window_autoplays_to_the_end(root: tk.Tk) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 4)
    server.answer(**gomoku_answer(FIVE[:3]))
    for _ in range(5):
        window.faster(True)  # the fastest speed
    key(window, "space")
    assert window.player is not None and window.player.playing
    while window.player.playing:  # each step comes from Tk's timer, not from the test
        root.update()
    assert window.counter.cget("text") == "3 / 3"
    assert window.buttons["play"].cget("text") == "Play"


def test_replay_window_loads_a_long_game_page_by_page(root: tk.Tk) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 4)
    whole = gomoku_answer(FIVE)
    server.answer(**{**whole, "steps": whole["steps"][:5], "next": 5})
    assert server.asked[-1] == {"type": "get-replay", "game_id": 4, "from": 5}
    window.to_end()  # the first page shows at once
    assert window.counter.cget("text") == "5 / 5"
    server.answer(**{**whole, "steps": whole["steps"][5:], "first": 5, "next": None})
    assert len(server.asked) == 2
    window.to_end()
    assert window.counter.cget("text") == "9 / 9"


def test_replay_window_says_so_when_the_game_is_refused(root: tk.Tk) -> None:
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 77)
    assert server.answers.refused("get-replay")
    assert "could not be loaded" in window.status.cget("text")


def test_minesweeper_replay_frames_cells_in_the_player_colour_and_rings_the_hit(
    root: tk.Tk,
) -> None:
    start = {"width": 4, "height": 2, "mines": 1, "rows": ["####", "####"]}
    steps = [
        {"t": 1.0, "by": "a", "view": {**start, "rows": ["0011", "01##"]}, "delta": {}},
        {
            "t": 2.0,
            "by": "b",
            "view": {**start, "rows": ["0011", "01*X"], "hit": [[3, 1, "b"]]},
            "delta": {},
        },
    ]
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 2)
    server.answer(
        type="replay",
        game_id=2,
        game="minesweeper",
        options={},
        players=[ANN, {**BOB, "color": '#zz"bad'}],
        result={},
        start=start,
        steps=steps,
    )
    settle(root)
    board = one_board(window.board)
    assert isinstance(board, MinesCanvas)
    window.forward()
    colours = {board.itemcget(i, "outline") for i in board.find_withtag("owner")}
    assert colours == {"#ff0000"} and not board.find_withtag("hit")
    window.forward()
    (hit,) = board.find_withtag("hit")
    assert board.itemcget(hit, "outline") == "#ffffff"  # a colour Tk cannot take: white


def test_linkmatch_replay_shows_every_racer_and_the_path_on_its_board(root: tk.Tk) -> None:
    rows = [[1, 2], [2, 1]]
    start = {"width": 2, "height": 2, "boards": {"a": rows, "b": rows}}
    after = {"width": 2, "height": 2, "boards": {"a": [[0, 2], [2, 0]], "b": rows}}
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 3)
    server.answer(
        type="replay",
        game_id=3,
        game="linkmatch",
        options={},
        players=[ANN, BOB],
        result={},
        start=start,
        steps=[
            {
                "t": 1.0,
                "by": "a",
                "view": after,
                "delta": {},
                "path": [[0, 0], [-1, 0], [-1, 1], [1, 1]],
            }
        ],
    )
    settle(root)
    assert isinstance(window.board, ReplayBoards)
    racers = window.board.canvases()
    assert all(isinstance(c, LinkCanvas) for c in racers.values())
    assert list(racers) == ["a", "b"]
    assert racers["a"].find_withtag("tile-0-0") and not racers["a"].find_withtag("path")
    window.forward()
    assert racers["a"].find_withtag("path") and not racers["b"].find_withtag("path")
    assert not racers["a"].find_withtag("tile-0-0") and racers["b"].find_withtag("tile-0-0")


def summary(game_id: int) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "game": "gomoku",
        "options": {"size": 15},
        "players": [ANN, BOB],
        "result": {"winner": "a", "reason": "five"},
        "started_at": 1.0,
        "ended_at": 2.0,
        "moves": 9,
        "rated": False,
    }


def test_history_window_filters_pages_and_opens_a_replay(root: tk.Tk) -> None:
    server = FakeServer()
    opened: list[int] = []
    window = HistoryWindow(root, server.answers, opened.append, me="a")
    assert server.asked == [{"type": "list-games", "limit": 20}]
    server.answer(type="games", games=[summary(9), summary(8)], next=8)
    assert window.rows() == [9, 8] and window.more_button.instate(["!disabled"])
    window.more_button.invoke()
    assert server.asked[-1] == {"type": "list-games", "before": 8, "limit": 20}
    server.answer(type="games", games=[summary(5)], next=None)
    assert window.rows() == [9, 8, 5] and window.more_button.instate(["disabled"])
    window.game.set("Gomoku")
    window.name.set("  Bob ")
    key(window.name_entry, "Return")
    assert server.asked[-1] == {"type": "list-games", "game": "gomoku", "name": "Bob", "limit": 20}
    assert window.rows() == []
    server.answer(type="games", games=[summary(8)], next=None)
    window.table.selection_set("8")
    key(window.table, "Return")
    assert opened == [8]


def test_leaderboard_window_pages_finds_my_rank_and_opens_profiles(root: tk.Tk) -> None:
    server = FakeServer()
    opened: list[str] = []
    window = LeaderboardWindow(root, server.answers, opened.append, me="a")
    assert server.asked == [{"type": "leaderboard", "game": "gomoku", "limit": 20}]
    server.answer(
        type="leaderboard",
        game="gomoku",
        total=2,
        offset=0,
        rows=[
            {
                "rank": 1,
                "player": "b",
                "name": "b {a\\ d",
                "rating": 1510.2,
                "games": 12,
                "provisional": False,
            },
            {
                "rank": 2,
                "player": "a",
                "name": "ann",
                "rating": 1200,
                "games": 3,
                "provisional": True,
            },
            {
                "rank": 3,
                "player": "cpu",
                "name": "Computer",
                "rating": 900,
                "games": 0,
                "bot": True,
            },
        ],
    )
    assert window.names() == ["b {a\\ d", "ann", "Computer (computer)"]  # text, not Tcl
    assert "2" in window.status.cget("text")  # my rank
    window.mine_button.invoke()
    assert server.asked[-1]["around"] == "a"
    window.table.selection_set("row0")
    window.open_selected()
    window.table.selection_set("row2")
    window.open_selected()  # a computer has no profile
    assert opened == ["b"]


def test_profile_window_draws_the_rating_history_and_opens_recent_games(root: tk.Tk) -> None:
    server = FakeServer()
    opened: list[int] = []
    window = ProfileWindow(root, server.answers, "a", opened.append, me="a")
    assert server.asked == [{"type": "get-profile", "player": "a"}]
    server.answer(
        type="player-profile",
        player="a",
        name="ann",
        ratings={
            "gomoku": {
                "rating": 1300,
                "games": 3,
                "wins": 2,
                "provisional": True,
                "history": [[1.0, 1000, 1], [2.0, 1200, 2], [3.0, 1300, 3]],
            }
        },
        recent=[summary(7)],
        records={
            "minesweeper": [
                {
                    "board": "beginner",
                    "no_guess": True,
                    "lives": 1,
                    "games": 2,
                    "wins": 1,
                    "win_rate": 0.5,
                    "best": 31.5,
                    "best_game": 6,
                }
            ]
        },
    )
    settle(root)
    assert "ann" in window.heading.cget("text")
    assert window.history() == [1000, 1200, 1300]
    assert window.chart.find_withtag("line")
    (record,) = window.records.get_children()
    assert "31.5" in " ".join(map(str, window.records.item(record, "values")))
    window.recent.selection_set("7")
    window.open_selected()
    assert opened == [7]
