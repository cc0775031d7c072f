"""Pieces every game screen needs: cell looks, player lines, error sentences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridhall import protocol as p
from gridhall.client.messages import OFFLINE, Refused

Message = dict[str, Any]
"""A map from the wire (a view, a result, a player entry)."""

PLAYER_COLORS = ("#4aa3ff", "#ff7a59", "#7bd88f", "#e5c07b", "#c678dd", "#56b6c2", "#f38ba8")
"""Fallback colours for players who did not pick one (by seat)."""


@dataclass(frozen=True)
class Look:
    """How one board cell is drawn: a glyph (one or more columns) and colours as
    ``#rrggbb`` so both Rich and Tk can use them directly."""

    glyph: str
    fg: str = "#d0d0d0"
    bg: str | None = None
    bold: bool = False
    underline: bool = False


ERROR_HINTS = {
    "bad-message": "The server could not understand that request.",
    "unknown-type": "The server does not know that request (is it an older version?).",
    "not-welcomed": "Still connecting; try again in a moment.",
    "version-mismatch": "This client and the server speak different protocol versions; "
    "update one of them.",
    "no-such-room": "There is no room with that code; check it and try again.",
    "room-full": "That room is full; join as a spectator instead.",
    "wrong-password": "Wrong password for that private room.",
    "not-in-room": "You are not in a room.",
    "already-in-room": "Leave your current room first.",
    "not-a-player": "Spectators cannot play; join a seat to play.",
    "not-your-turn": "It is not your turn yet.",
    "illegal-move": "That move is not allowed.",
    "not-playing": "The game is not running right now.",
    "no-pending-request": "There is nothing to answer.",
    "rate-limited": "Slow down a little; the server is limiting requests.",
    "server-busy": "The server is busy; try again shortly.",
    OFFLINE: "Not connected; reconnecting.",
}

INTERNAL_ERROR_TEXT = (
    "The server failed on that request. That is a fault in the server, not in what you "
    "did; nothing changed, so try again, and tell whoever runs the server if it repeats."
)


def error_text(refused: Refused) -> str:
    """The sentence to show for a refusal: the server's, else a hint by code. A
    server's own failure (``internal-error``) always gets our sentence, which
    says it was not the player's fault."""
    if refused.code == p.ErrorCode.INTERNAL_ERROR:
        return INTERNAL_ERROR_TEXT
    text = refused.message.strip()
    return text or ERROR_HINTS.get(refused.code, f"The server refused that ({refused.code}).")


def error_title(refused: Refused) -> str:
    """A short heading for a refusal: which request, and whose fault."""
    what = refused.request or "request"
    if refused.code == p.ErrorCode.INTERNAL_ERROR:
        return f"{what}: server error"
    return f"{what} refused" if refused.request else "Server says"


def player_color(player: Message) -> str:
    """A player's chosen colour, else one by seat."""
    color = player.get("color")
    if isinstance(color, str) and color.startswith("#") and len(color) in (4, 7):
        return color
    seat = player.get("seat")
    return PLAYER_COLORS[(seat if isinstance(seat, int) else 0) % len(PLAYER_COLORS)]


def names(state: p.State) -> dict[str, str]:
    """Player id -> display name for everyone seated."""
    return {str(pl.get("player")): str(pl.get("name")) for pl in state.players}


def seated(state: p.State, me: str | None) -> bool:
    """Whether we hold a seat (spectators do not)."""
    return any(pl.get("player") == me for pl in state.players)


def clock(seconds: float | None) -> str:
    """``m:ss`` for a number of seconds (blank for None)."""
    if seconds is None:
        return ""
    total = max(0, int(seconds))
    return f"{total // 60}:{total % 60:02d}"


@dataclass(frozen=True)
class PlayerLine:
    """One row of the players pane."""

    name: str
    color: str
    role: str
    """The seat's role in this game, e.g. ``black`` or ``seat 2``."""
    connected: bool
    to_move: bool
    me: bool


def player_lines(state: p.State, me: str | None, roles: dict[str, str]) -> list[PlayerLine]:
    """The players pane, in seat order, with whose turn it is."""
    turn = state.turn if state.status == "playing" else None
    lines = []
    for pl in sorted(state.players, key=lambda pl: pl.get("seat") or 0):
        pid = str(pl.get("player"))
        lines.append(
            PlayerLine(
                name=str(pl.get("name")),
                color=player_color(pl),
                role=roles.get(pid, f"seat {pl.get('seat', '?')}"),
                connected=bool(pl.get("connected", True)),
                to_move=pid == turn,
                me=pid == me,
            )
        )
    return lines
