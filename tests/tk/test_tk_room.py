"""Lobby, chat and reconnect in the Tk window, next to other clients in one room."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gridhall.client.tk.app import TkApp
from tests.tk.driver import Opponent, Pump, click, press, room_state, screenshot, snap


def test_chat_goes_both_ways_and_a_second_window_watches_from_the_lobby(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    ann = make_app("Ann")
    opp = make_opponent("Bob")
    ann.lobby.choose("gomoku", 0)
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    code = snap(ann).room.room  # type: ignore[union-attr]
    opp.send("join-room", room=code)
    opp.expect("state", room=code)

    # A second Tk window finds the room in its lobby and watches it.
    cy = make_app("Cy")
    pump.until(lambda: code in cy.lobby.rooms(), "the room in Cy's lobby")
    bbox = cy.lobby.table.bbox(code)
    assert bbox, "the room's row is on screen"
    x, y, w, h = bbox  # type: ignore[misc]
    screenshot(cy, "lobby")
    click(cy.lobby.table, x + w // 2, y + h // 2)
    pump.until(lambda: cy.lobby.code.get() == code, "the code picked from the table")
    press(cy.lobby.watch_button)
    pump.until(lambda: cy.room is not None, "Cy's room screen")
    pump.until(lambda: "Cy" in (room_state(ann).get("spectators") or []), "Cy in Ann's roster")

    ann_chat = ann.room.chat  # type: ignore[union-attr]
    ann_chat.entry.focus_force()  # key events go to the focus widget
    ann_chat.entry.insert(0, "good luck, have fun")
    pump.until(lambda: ann.root.focus_get() is ann_chat.entry, "focus in the chat line")
    ann_chat.entry.event_generate("<Return>")
    got = opp.expect("chat", text="good luck, have fun")
    assert got["from"] == snap(ann).player and got["name"] == "Ann"
    pump.until(lambda: ann_chat.entry.get() == "", "the line cleared once the server relayed it")

    opp.send("chat", text="you too!")
    pump.until(lambda: any("Bob: you too!" in ln for ln in ann_chat.lines()), "Bob's line")
    assert cy.room is not None
    pump.until(
        lambda: any("Bob: you too!" in ln for ln in cy.room.chat.lines()),  # type: ignore[union-attr]
        "Bob's line for the spectator",
    )
    assert any("Ann: good luck, have fun" in ln for ln in cy.room.chat.lines())
    assert "Watching" in cy.room.status.cget("text")


def test_window_reconnects_and_keeps_its_seat(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    ann = make_app("Ann")
    opp = make_opponent("Bob")
    ann.lobby.choose("gomoku", 0)
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    code = snap(ann).room.room  # type: ignore[union-attr]
    me = snap(ann).player
    opp.send("join-room", room=code)
    opp.expect("state", room=code, status="playing")

    loop = ann.session.loop
    assert loop is not None
    loop.call_soon_threadsafe(ann.session.drop_connection)  # as a network failure would
    opp.expect("player-info", player=me, connected=False)
    opp.expect("player-info", player=me, connected=True)
    pump.until(lambda: snap(ann).connected and snap(ann).player == me, "Ann back online")
    pump.until(lambda: room_state(ann).get("status") == "playing", "Ann's seat restored")
    assert ann.room is not None and ann.room.board.room is not None
    assert ann.room.board.room.room == code
    assert "Reconnecting" not in ann.room.status.cget("text")
    click(ann.room.board, *ann.room.board.pixel_of(7, 7))
    assert opp.expect("moved", by=me)["move"] == {"x": 7, "y": 7}


@pytest.mark.server_config(chat_lines=1, chat_window=3600.0)  # one chat line an hour
def test_a_refused_chat_line_stays_in_the_entry(
    make_app: Callable[[str], TkApp], make_opponent: Callable[[str], Opponent], pump: Pump
) -> None:
    ann = make_app("Ann")
    opp = make_opponent("Bob")
    ann.lobby.choose("gomoku", 0)
    press(ann.lobby.create_button)
    pump.until(lambda: ann.room is not None, "Ann's room screen")
    opp.send("join-room", room=snap(ann).room.room)  # type: ignore[union-attr]
    opp.expect("state", status="playing")
    chat = ann.room.chat  # type: ignore[union-attr]
    for line in ("hello", "too fast"):
        chat.entry.insert(0, line)
        press(chat.send_button)
        if line == "hello":
            opp.expect("chat", text="hello")
            pump.until(lambda: chat.entry.get() == "", "the accepted line cleared")
    pump.until(lambda: any("wait" in n.lower() for n in ann.notices), "the refusal shown")
    assert chat.entry.get() == "too fast"  # still there, to send again
    assert [c["text"] for c in room_state(ann)["chat"]] == ["hello"]
