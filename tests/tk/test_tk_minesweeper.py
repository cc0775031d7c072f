"""Co-op Minesweeper from the Tk window: reveal and flag by mouse, a hint, and the
end of the game drawn as the classic shows it."""

from __future__ import annotations

from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from tests.tk.driver import Opponent, Pump, ServerThread, click, press, room_state, screenshot, snap


def rows(app: TkApp) -> list[str]:
    return [str(r) for r in room_state(app)["view"]["rows"]]


def test_tk_client_reveals_and_flags_by_mouse(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    app.lobby.choose("minesweeper", 0)  # beginner 9x9
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    code = snap(app).room.room  # type: ignore[union-attr]
    opp.send("join-room", room=code)
    opp.expect("state", room=code)
    assert app.room is not None
    board = app.room.board
    assert isinstance(board, MinesCanvas)
    me = snap(app).player

    click(board, *board.pixel_of(4, 4))  # left: reveal (the first click opens an area)
    seen = opp.expect("moved", by=me)
    assert seen["move"] == {"action": "reveal", "x": 4, "y": 4}
    assert seen["view"]["revealed"] > 0
    pump.until(lambda: rows(app)[4][4] != "#", "the opening on the Tk board")

    mines = server.inspect(
        lambda: {tuple(m) for m in server.server.hub.lobby.rooms[code].game.board.layout()}
    )
    hidden = [(x, y) for y, r in enumerate(rows(app)) for x, ch in enumerate(r) if ch == "#"]
    mine = next(c for c in hidden if c in mines)
    safe = next(c for c in hidden if c not in mines)

    click(board, *board.pixel_of(*mine), button=3)  # right: flag
    seen = opp.expect("moved", by=me)
    assert seen["move"] == {"action": "mark", "x": mine[0], "y": mine[1], "mark": "flag"}
    pump.until(lambda: rows(app)[mine[1]][mine[0]] == "F", "the flag on the Tk board")
    click(board, *board.pixel_of(*safe), button=3)  # a wrong flag, crossed out at the end
    opp.expect("moved", by=me, move={"action": "mark", "x": safe[0], "y": safe[1], "mark": "flag"})
    opp.send(
        "move", move={"action": "mark", "x": hidden[-1][0], "y": hidden[-1][1], "mark": "question"}
    )
    press(app.room.actions["hint"])
    pump.until(lambda: room_state(app)["view"].get("hint"), "a hint on the Tk board")
    assert board.find_withtag("hint")
    screenshot(app, "minesweeper")

    boom = next(c for c in sorted(mines) if c != mine)
    click(board, *board.pixel_of(*boom))
    over = opp.expect("game-over")
    assert over["result"]["reason"] == "mine" and over["result"]["by"] == me
    pump.until(lambda: room_state(app).get("status") == "over", "the end on the Tk side")
    final = rows(app)
    assert final[boom[1]][boom[0]] == "X" and final[safe[1]][safe[0]] == "W"
    assert app.room.banner.winfo_ismapped()
    screenshot(app, "minesweeper-over")
