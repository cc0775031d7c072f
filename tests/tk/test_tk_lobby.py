"""The Tk lobby's join bar: a code typed by the player is what joins, whatever the
room list does meanwhile, and enter in the password field joins too."""

from __future__ import annotations

import gc
import tkinter as tk
from typing import Any

from gridhall.client.tk.lobby import LobbyFrame

ROOMS = [
    {
        "room": code,
        "game": "gomoku",
        "options": {},
        "players": ["Ann"],
        "spectators": 0,
        "status": "waiting",
    }
    for code in ("AAAAAA", "BBBBBB", "CCCCCC")
]


def test_a_refresh_never_overwrites_the_typed_code_and_enter_in_password_joins(xvfb: str) -> None:
    root = tk.Tk(className="gridhall")
    sent: list[tuple[Any, dict[str, Any]]] = []
    try:
        lobby = LobbyFrame(root, lambda msg, **fields: sent.append((msg, fields)), lambda _t: None)
        lobby.pack()
        lobby.show_rooms(ROOMS[:2])
        lobby.table.selection_set("AAAAAA")  # the player picks a row ...
        root.update()
        assert lobby.code.get() == "AAAAAA"
        lobby.code.set("CCCCCC")  # ... then types another room's code
        lobby.password.set("secret")
        lobby.show_rooms([ROOMS[1], ROOMS[2], ROOMS[0]])  # the list refreshes, reordered
        root.update()
        assert lobby.rooms() == ["BBBBBB", "CCCCCC", "AAAAAA"]
        assert lobby.table.selection() == ("AAAAAA",) and lobby.code.get() == "CCCCCC"
        lobby.password_entry.focus_force()
        lobby.password_entry.event_generate("<Return>")
        root.update()
        assert sent == [("join-room", {"room": "CCCCCC", "role": "player", "password": "secret"})]
        lobby.show_rooms([ROOMS[1]])  # the selected room went away: the code stays
        root.update()
        assert lobby.rooms() == ["BBBBBB"] and lobby.code.get() == "CCCCCC"
    finally:
        root.destroy()
        gc.collect()
