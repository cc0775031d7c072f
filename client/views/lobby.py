"""Lobby data: room rows and the create-room presets every client offers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridhall.client.views.common import GAME_TITLES, Message


@dataclass(frozen=True)
class Preset:
    """A named set of create-room options."""

    label: str
    options: dict[str, Any]


PRESETS: dict[str, list[Preset]] = {
    "gomoku": [
        Preset("15×15 freestyle", {"size": 15, "rule": "freestyle"}),
        Preset("15×15 standard (exactly five)", {"size": 15, "rule": "standard"}),
        Preset("15×15 renju", {"size": 15, "rule": "renju"}),
        Preset("19×19 freestyle", {"size": 19, "rule": "freestyle"}),
        Preset("vs computer (easy)", {"size": 15, "rule": "freestyle", "ai": "easy"}),
        Preset("vs computer (hard)", {"size": 15, "rule": "freestyle", "ai": "hard"}),
    ],
    "minesweeper": [
        Preset("beginner 9×9, 10 mines", {"preset": "beginner"}),
        Preset("intermediate 16×16, 40 mines", {"preset": "intermediate"}),
        Preset("expert 30×16, 99 mines", {"preset": "expert"}),
    ],
    "linkmatch": [
        Preset("16×9, 36 kinds, 10 min", {"width": 16, "height": 9, "kinds": 36}),
        Preset("12×7 quick, 5 min", {"width": 12, "height": 7, "kinds": 21, "time_limit": 300}),
        Preset("8×6 tiny, 3 min", {"width": 8, "height": 6, "kinds": 12, "time_limit": 180}),
    ],
}


def options_text(game: str, options: Message) -> str:
    """A short human summary of a room's options."""
    o = options or {}
    if game == "gomoku":
        text = f"{o.get('size', 15)}×{o.get('size', 15)} {o.get('rule', 'freestyle')}"
        return text + (f", AI {o['ai']}" if o.get("ai") else "")
    if game == "minesweeper":
        if o.get("preset") and not o.get("width"):
            return str(o["preset"])
        return f"{o.get('width', 16)}×{o.get('height', 16)}, {o.get('mines', 40)} mines"
    if game == "linkmatch":
        return f"{o.get('width', 16)}×{o.get('height', 9)}, {o.get('kinds', 36)} kinds"
    return ", ".join(f"{k}={v}" for k, v in o.items())


@dataclass(frozen=True)
class RoomRow:
    """One lobby table row."""

    room: str
    game: str
    options: str
    players: str
    spectators: str
    status: str


def room_rows(rooms: list[Message]) -> list[RoomRow]:
    return [
        RoomRow(
            room=str(r.get("room")),
            game=GAME_TITLES.get(str(r.get("game")), str(r.get("game"))),
            options=options_text(str(r.get("game")), r.get("options") or {}),
            players=", ".join(str(n) for n in r.get("players") or []) or "—",
            spectators=str(r.get("spectators") or 0),
            status=str(r.get("status") or "?"),
        )
        for r in rooms
    ]
