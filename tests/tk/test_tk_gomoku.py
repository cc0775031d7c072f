"""A Tk window plays a whole Gomoku game by mouse against a raw protocol client."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from gridhall.client.tk import room as tk_room
from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.gomoku import GomokuCanvas
from tests.tk.driver import (
    Opponent,
    Pump,
    ServerThread,
    click,
    press,
    room_state,
    screenshot,
    snap,
)


def open_room(app: TkApp, opp: Opponent, pump: Pump, game: str = "gomoku") -> str:
    """Create a room of ``game`` (its first preset) from the lobby form and let the
    opponent join it by code."""
    app.lobby.choose(game, 0)
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    code = snap(app).room.room  # type: ignore[union-attr]
    opp.send("join-room", room=code)
    opp.expect("state", status="playing")
    pump.until(lambda: room_state(app).get("status") == "playing", "the game to start")
    return code


def open_gomoku_room(app: TkApp, opp: Opponent, pump: Pump) -> str:
    """Create a Gomoku room from the lobby form and let the opponent join it by code."""
    return open_room(app, opp, pump)


def test_tk_client_plays_gomoku_to_five_and_plays_again(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    open_gomoku_room(app, opp, pump)
    assert app.room is not None
    board = app.room.board
    assert isinstance(board, GomokuCanvas)
    me = snap(app).player

    for i in range(5):
        click(board, *board.pixel_of(5 + i, 7))  # black: a row of five
        seen = opp.expect("moved", by=me)
        assert seen["move"] == {"x": 5 + i, "y": 7}
        if i == 4:
            break
        opp.send("move", move={"x": 5 + i, "y": 8})
        pump.until(
            lambda n=i: len(room_state(app)["view"]["moves"]) == 2 * n + 2,
            "the reply on the Tk board",
        )
        if i == 2:  # mid-game, with a hover preview of our next stone
            board.event_generate("<Motion>", x=board.pixel_of(8, 7)[0], y=board.pixel_of(8, 7)[1])
            pump.once()
            assert board.find_withtag("hover")
            screenshot(app, "gomoku")

    over = opp.expect("game-over")
    assert over["result"]["winner"] == me and over["result"]["reason"] == "five"
    pump.until(lambda: app.room is not None and app.room.banner.winfo_ismapped(), "the banner")
    assert "You win" in app.room.banner_text.cget("text")
    assert board.find_withtag("win")  # the five is struck through
    screenshot(app, "gomoku-over")

    # Play again: we ask, the opponent agrees, both get a fresh game (colours swap).
    press(app.room.banner_buttons["again"])
    opp.expect("play-again", **{"from": me})
    opp.send("agree-again")
    fresh = opp.expect("state", status="playing")
    assert fresh["round"] == 1 and fresh["view"]["moves"] == []
    pump.until(lambda: room_state(app).get("round") == 1, "the new game on the Tk side")
    assert not app.room.banner.winfo_ismapped()


def test_tk_client_answers_take_back_and_resigns(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    open_gomoku_room(app, opp, pump)
    assert app.room is not None
    board = app.room.board
    me = snap(app).player
    click(board, *board.pixel_of(7, 7))
    opp.expect("moved", by=me)
    opp.send("move", move={"x": 8, "y": 8})
    opp.expect("moved", by=opp.player)
    opp.send("offer", kind="takeback")
    pump.until(lambda: app.room is not None and app.room.offer.winfo_ismapped(), "the offer bar")
    press(app.room.offer_buttons["accept"])
    assert opp.expect("answer")["accept"] is True
    pump.until(lambda: room_state(app)["view"]["moves"] == [[7, 7]], "the stone taken back")

    opp.send("move", move={"x": 8, "y": 8})
    opp.expect("moved", by=opp.player)
    opp.send("offer", kind="draw")
    pump.until(lambda: app.room is not None and app.room.offer.winfo_ismapped(), "the offer bar")
    assert "Accept (y) or Decline (n)" in app.room.offer_text.cget("text")
    app.room.board.focus_force()
    pump.until(lambda: app.root.focus_get() is app.room.board, "focus on the board")  # type: ignore[union-attr]
    app.room.board.event_generate("<KeyPress>", keysym="n")  # n declines the draw
    assert opp.expect("answer", kind="draw")["accept"] is False

    press(app.room.actions["draw"])
    assert opp.expect("offer", **{"from": me})["kind"] == "draw"
    opp.send("answer", kind="draw", accept=False)
    opp.expect("answer")
    press(app.room.actions["resign"])
    press(app.room.confirm_yes)
    over = opp.expect("game-over")
    assert over["result"] == {**over["result"], "winner": opp.player, "reason": "resign"}
    pump.until(lambda: room_state(app).get("status") == "over", "the end on the Tk side")


def test_resigning_or_leaving_a_game_under_way_asks_first(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    open_gomoku_room(app, opp, pump)
    room = app.room
    assert room is not None
    me = snap(app).player
    press(room.actions["resign"])  # one click never resigns: the question comes first
    pump.until(lambda: room.confirm.winfo_ismapped(), "the confirm bar")
    assert room.confirm_text.cget("text") == "Resign this game?"
    assert room.confirm_yes.cget("text") == "Resign"
    pump.until(lambda: app.root.focus_get() is room.confirm_no, "Cancel has the focus")
    room.confirm_no.event_generate("<Return>")  # so enter cancels
    pump.until(lambda: not room.confirm.winfo_ismapped(), "the bar gone")
    click(room.board, *room.board.pixel_of(7, 7))  # the game goes on
    opp.expect("moved", by=me)

    room.board.focus_force()
    pump.until(lambda: app.root.focus_get() is room.board, "focus on the board")
    room.board.event_generate("<KeyPress>", keysym="R")  # the key asks as the button does
    pump.until(lambda: room.confirm.winfo_ismapped(), "the confirm bar again")
    app.root.focus_get().event_generate("<Escape>")  # type: ignore[union-attr]
    pump.until(lambda: not room.confirm.winfo_ismapped(), "escape cancelled")

    press(room.actions["leave"])  # leaving mid-game gives it up: asked too
    pump.until(lambda: room.confirm.winfo_ismapped(), "the leave question")
    assert room.confirm_text.cget("text") == "Leave the room? You give up this game."
    press(room.confirm_no)
    pump.until(lambda: not room.confirm.winfo_ismapped(), "cancelled")
    assert app.room is room and room_state(app).get("status") == "playing"

    press(room.actions["resign"])
    pump.until(lambda: room.confirm.winfo_ismapped(), "the question once more")
    press(room.confirm_yes)
    over = opp.expect("game-over")
    assert over["result"]["reason"] == "resign" and over["result"]["winner"] == opp.player
    pump.until(lambda: not room.confirm.winfo_ismapped(), "no question after the end")


def test_board_scales_with_the_window(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    open_gomoku_room(app, make_opponent("Bob"), pump)
    assert app.room is not None
    board = app.room.board
    big = board.geom.cell
    app.root.geometry("760x560")
    pump.until(lambda: board.geom.cell < big, "the board to shrink with the window")
    click(board, *board.pixel_of(3, 3))  # clicks still land on the right point
    pump.until(lambda: room_state(app)["view"]["moves"] == [[3, 3]], "the stone at D4")


def test_tk_clocks_stand_still_while_the_server_is_down(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [time.time()]
    fake = SimpleNamespace(time=lambda: now[0])
    monkeypatch.setattr(tk_room, "time", fake)  # whatever clock the window reads
    app = make_app("Ann")
    app.session.clock = lambda: now[0]
    opp = make_opponent("Bob")
    app.lobby.choose("gomoku", 6)  # 15×15 freestyle, 10+5 clock
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    opp.send("join-room", room=snap(app).room.room)  # type: ignore[union-attr]
    assert app.room is not None
    pump.until(lambda: "Ann 10:00, Bob 10:00" in app.room.status.cget("text"), "both clocks")
    server.call(server.server.close())
    pump.until(lambda: "Reconnecting" in app.room.status.cget("text"), "the window offline")
    now[0] += 300  # five minutes offline
    app.room.tick()
    assert "Ann 10:00, Bob 10:00" in app.room.status.cget("text")
