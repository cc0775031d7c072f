"""A Tk window plays Reversi by mouse against a raw protocol client: hints on the legal
cells, discs turned over, a click on a cell that is no move sends nothing."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.reversi import ReversiCanvas
from gridhall.client.tk.replay import ReplayWindow
from tests.client.test_client_reversi_replay import answer as replay_answer
from tests.tk.driver import Opponent, Pump, click, press, room_state, screenshot, snap
from tests.tk.test_tk_gomoku import open_room
from tests.tk.test_tk_replay_windows import URL, FakeServer, root, settle  # noqa: F401


def test_tk_client_plays_reversi_by_mouse(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    open_room(app, opp, pump, "reversi")  # 8x8
    assert app.room is not None
    board = app.room.board
    assert isinstance(board, ReversiCanvas)
    me = snap(app).player
    assert len(board.find_withtag("hint")) == 4  # black's four opening moves
    assert len(board.find_withtag("disc")) == 4

    click(board, *board.pixel_of(0, 0))  # no move there: nothing is sent
    click(board, *board.pixel_of(5, 4))  # F5
    seen = opp.expect("moved", by=me)
    assert seen["move"]["x"] == 5 and seen["move"]["flipped"] == [[4, 4]]
    assert seen["view"]["moves"] == [[5, 4]]  # the click on A1 made no move
    pump.until(lambda: len(board.find_withtag("black")) == 4, "four black discs on the Tk board")
    assert board.find_withtag("last")

    opp.send("move", move={"x": 5, "y": 5})  # F6
    opp.expect("moved", by=opp.player)
    pump.until(lambda: room_state(app).get("turn") == me, "our turn again")
    legal = room_state(app)["view"]["legal"]
    pump.until(lambda: len(board.find_withtag("hint")) == len(legal), "hints for our move")
    screenshot(app, "reversi")
    x, y = legal[0]
    click(board, *board.pixel_of(x, y))
    assert opp.expect("moved", by=me)["move"]["x"] == x

    press(app.room.actions["resign"])
    press(app.room.confirm_yes)
    over = opp.expect("game-over")
    assert over["result"]["winner"] == opp.player and over["result"]["reason"] == "resign"
    pump.until(lambda: room_state(app).get("status") == "over", "the end on the Tk side")
    assert len(board.find_withtag("hint")) == 0  # no hints once it is over


def test_tk_replay_window_steps_through_a_reversi_game(root: tk.Tk) -> None:  # noqa: F811
    """The replay window draws each step's discs, captioned with its counts."""
    server = FakeServer()
    window = ReplayWindow(root, server.answers, URL, 1)
    server.answer(**replay_answer())
    settle(root)
    assert window.board is not None
    ((label, board),) = window.board.boards.values()
    assert isinstance(board, ReversiCanvas) and label is not None
    assert len(board.find_withtag("disc")) == 4 and label.cget("text") == "● black 2 · white 2"
    window.forward()
    settle(root)
    assert len(board.find_withtag("black")) == 4 and board.find_withtag("last")
    assert label.cget("text") == "● black 4 · white 1"
