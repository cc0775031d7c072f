"""The Tk window against a real server: a Gomoku game is finished, then found in the
history window (opened from the Games menu's key) and replayed step by step."""

from __future__ import annotations

from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.replay import GomokuReplay
from tests.tk.driver import Opponent, Pump, click, screenshot_root, snap
from tests.tk.test_tk_gomoku import open_gomoku_room


def test_a_finished_game_is_listed_in_history_and_replayed_move_by_move(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    pump.until(lambda: "history" in app.features, "the server's features")
    assert app.windows.menu.entrycget(0, "state") == "normal"  # Finished games…
    open_gomoku_room(app, opp, pump)
    assert app.room is not None
    board = app.room.board
    me = snap(app).player
    for i in range(5):  # black makes five in a row; white answers below
        click(board, *board.pixel_of(5 + i, 7))
        opp.expect("moved", by=me)
        if i < 4:
            opp.send("move", move={"x": 5 + i, "y": 8})
            opp.expect("moved", by=opp.player)
    opp.expect("game-over")

    app.root.focus_force()
    pump.until(lambda: app.root.focus_get() is not None, "focus on the window")
    app.root.event_generate("<Control-h>")  # Games -> Finished games
    history = app.windows.history
    assert history is not None
    pump.until(lambda: len(history.rows()) == 1, "the finished game in the history")
    (game_id,) = history.rows()
    history.table.selection_set(str(game_id))
    history.open_selected()
    (replay,) = app.windows.replays
    pump.until(lambda: replay.player is not None, "the replay to load")
    assert replay.counter.cget("text") == "0 / 9"
    assert "Ann" in replay.players.cget("text") and "Bob" in replay.players.cget("text")
    replay.forward()
    replay.forward()
    assert replay.counter.cget("text") == "2 / 9"
    replay_board = replay.board
    assert isinstance(replay_board, GomokuReplay)
    assert replay_board.find_withtag("number-2") and not replay_board.find_withtag("number-3")
    replay.to_end()
    assert replay.counter.cget("text") == "9 / 9" and replay_board.find_withtag("win")
    assert replay.link.endswith(f"/#replay/{game_id}")
    screenshot_root(app.root, "tk-history")
