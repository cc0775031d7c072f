"""A Link-match race from the Tk window: start, a link by two clicks, a hint."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.linkmatch import LinkCanvas
from gridhall.server.games.linkmatch import available_pairs
from tests.tk.driver import Opponent, Pump, click, press, room_state, screenshot, snap


def view(app: TkApp) -> dict[str, Any]:
    return dict(room_state(app).get("view") or {})


def racing(app: TkApp) -> bool:
    v = view(app)
    return room_state(app).get("status") == "playing" and "rows" in v and not v.get("starts_in")


def test_tk_client_links_a_pair_with_two_clicks(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    app.lobby.choose("linkmatch", 2)  # 8x6 tiny
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    code = snap(app).room.room  # type: ignore[union-attr]
    opp.send("join-room", room=code)
    opp.expect("state", room=code)
    assert app.room is not None
    pump.until(
        lambda: app.room is not None and app.room.actions["start"].winfo_ismapped(),
        "the Start button for the creator",
    )
    press(app.room.actions["start"])
    opp.expect("notice", event="race-start")
    theirs = opp.expect("state", status="playing")["view"]
    pump.until(lambda: racing(app), "the race to start on the Tk side")
    board = app.room.board
    assert isinstance(board, LinkCanvas)
    me = snap(app).player

    (ox0, oy0), (ox1, oy1) = available_pairs(theirs["rows"])[0]
    opp.send("move", move={"action": "link", "a": [ox0, oy0], "b": [ox1, oy1]})
    pump.until(
        lambda: view(app)["progress"].get(opp.player) == theirs["remaining"] - 2,
        "the opponent's progress",
    )

    before = view(app)["remaining"]
    a, b = available_pairs(view(app)["rows"])[0]
    click(board, *board.pixel_of(*a))
    assert board.selection.selected == tuple(a) and board.find_withtag("selected")
    click(board, *board.pixel_of(*b))
    seen = opp.expect("moved", by=me)
    assert seen["move"] == {"action": "link"}  # others never learn where
    assert seen["view"]["progress"][me] == before - 2
    pump.until(lambda: view(app)["remaining"] == before - 2, "the tiles gone on the Tk board")
    rows = view(app)["rows"]
    assert rows[a[1]][a[0]] == 0 and rows[b[1]][b[0]] == 0
    next_a, _ = available_pairs(rows)[0]
    click(board, *board.pixel_of(*next_a))  # a new selection, framed in red
    pump.until(lambda: board.flashes == 1, "the link's path drawn")
    screenshot(app, "linkmatch")

    press(app.room.actions["hint"])
    pump.until(lambda: view(app).get("hint"), "a hint pair on the Tk board")
    assert view(app)["hints"] == 1
    pump.until(lambda: not board.find_withtag("path"), "the path to fade")
    screenshot(app, "linkmatch-hint")


def board_message(app: TkApp) -> str:
    """The line the board shows over itself ("" for none)."""
    assert app.room is not None
    board = app.room.board
    texts = [i for i in board.find_withtag("message") if board.type(i) == "text"]
    return " ".join(str(board.itemcget(i, "text")) for i in texts)


def test_the_board_tells_the_host_to_start_and_the_others_whom_they_wait_for(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    ann, bob = make_app("Ann"), make_app("Bob")
    ann.lobby.choose("linkmatch", 2)
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    code = snap(ann).room.room  # type: ignore[union-attr]
    pump.until(lambda: code in bob.lobby.rooms(), "the room in Bob's lobby")
    bob.lobby.code.set(code)
    press(bob.lobby.join_button)
    pump.until(lambda: bob.room is not None and room_state(bob), "Bob's room screen")
    pump.until(
        lambda: board_message(ann) == "Press Start (g) when everyone is in", "Ann told to start"
    )
    pump.until(
        lambda: board_message(bob) == "Waiting for Ann to start the race",
        "Bob told whom he waits for",
    )
