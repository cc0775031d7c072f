"""Typed room states for display-free client tests."""

from __future__ import annotations

from typing import Any

from gridhall import protocol as p
from gridhall.client.room import RoomCopy

ANN = {"player": "a", "name": "ann", "seat": 0, "connected": True}
BOB = {"player": "b", "name": "bob", "seat": 1, "connected": True}


def make_state(game: str = "gomoku", **fields: Any) -> p.State:
    """A ``state`` snapshot: two players, ann (``a``) and bob (``b``), unless given."""
    base: dict[str, Any] = {
        "room": "AB12CD",
        "seq": 5,
        "game": game,
        "options": {},
        "status": "playing",
        "players": [dict(ANN), dict(BOB)],
        "spectators": [],
        "view": {},
        "chat": [],
    }
    return p.State(**{**base, **fields})


def room_of(state: p.State, **fields: Any) -> RoomCopy:
    """Our copy of the room holding ``state``."""
    return RoomCopy(room=state.room, seq=state.seq, state=state, **fields)
