"""The Tk lobby's create-room form (each game's options, rendered from its view class),
Gomoku clocks counting in the status bar, and the room's keys."""

from __future__ import annotations

import re
from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from tests.tk.driver import Opponent, Pump, press, room_state, snap


def test_tk_form_makes_a_custom_minesweeper_room(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    app = make_app("Ann")
    app.lobby.choose("minesweeper", 0)
    width = app.lobby.fields["width"][2][1]
    assert not width.winfo_manager()  # the size is only for a custom board
    app.lobby.set_option("preset", None)
    pump.until(lambda: width.winfo_manager() == "grid", "the custom size fields")
    for key, value in (("width", "12"), ("height", "10"), ("mines", "200"), ("lives", "3")):
        app.lobby.fields[key][1].set(value)
    press(app.lobby.create_button)  # 200 mines do not fit: the server says why
    pump.until(lambda: any("mines" in n for n in app.notices), "the refusal in words")
    app.lobby.fields["mines"][1].set("x")
    press(app.lobby.create_button)  # not a number: the form says so before sending
    assert any(n.startswith("Mines must be a whole number") for n in app.notices)
    app.lobby.fields["mines"][1].set("15")
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    options = room_state(app)["options"]
    assert (options["width"], options["height"], options["mines"], options["lives"]) == (
        12,
        10,
        15,
        3,
    )


def test_tk_gomoku_clocks_count_and_keys_act(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    app = make_app("Ann")
    opp = make_opponent("Bob")
    app.lobby.choose("gomoku", 0)
    app.lobby.set_option("clock", "10+5")
    press(app.lobby.create_button)
    pump.until(lambda: app.room is not None, "the room screen")
    assert room_state(app)["options"]["clock"] == {"minutes": 10, "increment": 5}
    opp.send("join-room", room=snap(app).room.room)  # type: ignore[union-attr]
    opp.expect("state", status="playing")
    assert app.room is not None
    status = app.room.status
    pump.until(
        lambda: re.search(r"Ann \d+:\d\d, Bob \d+:\d\d$", status.cget("text")),
        "both clocks in the status bar",
    )
    entry = app.room.chat.entry  # keys typed into the chat line are text, not actions
    entry.focus_force()
    pump.until(lambda: app.root.focus_get() is entry, "focus in the chat line")
    entry.event_generate("<KeyPress>", keysym="d")
    entry.event_generate("<Return>")
    opp.expect("chat", text="d")  # sent after anything the key did, so an offer would show
    assert not [m for m in opp.client.received if m["type"] == "offer"]
    app.room.board.focus_force()
    pump.until(lambda: app.root.focus_get() is app.room.board, "focus on the board")  # type: ignore[union-attr]
    app.room.board.event_generate("<KeyPress>", keysym="d")  # d: offer a draw
    assert opp.expect("offer", **{"from": snap(app).player})["kind"] == "draw"
