"""Lobby data: the room table's rows, in words each game's view chooses."""

from __future__ import annotations

from dataclasses import dataclass

from gridhall.client.views import view_for
from gridhall.client.views.common import Message
from gridhall.protocol.games import render
from gridhall.protocol.games.common import COMMON
from gridhall.protocol.i18n import _
from gridhall.protocol.players import shown_name


@dataclass(frozen=True)
class RoomRow:
    """One lobby table row."""

    room: str
    game: str
    options: str
    players: str
    spectators: str
    status: str
    host: str = ""
    """The host's name ("" when the server does not say)."""


def room_rows(rooms: list[Message]) -> list[RoomRow]:
    rows = []
    for r in rooms:
        view = view_for(str(r.get("game")))
        options = r.get("options")
        rows.append(
            RoomRow(
                room=str(r.get("room")),
                game=view.heading,
                options=view.options_text(options if isinstance(options, dict) else {}),
                players=", ".join(
                    ("★ " if n == r.get("host") else "") + shown_name(n)
                    for n in r.get("players") or []
                )
                or "—",
                spectators=str(r.get("spectators") or 0),
                status=render.room_status(COMMON, r.get("status"))
                + (" · " + _("locked") if r.get("locked") else ""),
                host=str(r.get("host") or ""),
            )
        )
    return rows
