"""Pieces every game screen needs: cell looks, player lines, error sentences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]

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


GAME_TITLES = {"gomoku": "Gomoku", "minesweeper": "Minesweeper", "linkmatch": "Link-match"}

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
    "offline": "Not connected; reconnecting.",
}


def error_text(msg: Message) -> str:
    """The sentence to show for an ``error``: the server's, else a hint by code."""
    text = str(msg.get("message") or "").strip()
    code = str(msg.get("code") or "error")
    return text or ERROR_HINTS.get(code, f"The server refused that ({code}).")


def player_color(player: Message) -> str:
    """A player's chosen colour, else one by seat."""
    color = player.get("color")
    if isinstance(color, str) and color.startswith("#") and len(color) in (4, 7):
        return color
    seat = player.get("seat")
    return PLAYER_COLORS[(seat if isinstance(seat, int) else 0) % len(PLAYER_COLORS)]


def names(state: Message) -> dict[str, str]:
    """Player id -> display name for everyone seated."""
    return {str(p.get("player")): str(p.get("name")) for p in state.get("players") or []}


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


def player_lines(state: Message, me: str | None, roles: dict[str, str]) -> list[PlayerLine]:
    """The players pane, in seat order, with whose turn it is."""
    turn = state.get("turn") if state.get("status") == "playing" else None
    lines = []
    for p in sorted(state.get("players") or [], key=lambda p: p.get("seat") or 0):
        pid = str(p.get("player"))
        lines.append(
            PlayerLine(
                name=str(p.get("name")),
                color=player_color(p),
                role=roles.get(pid, f"seat {p.get('seat', '?')}"),
                connected=bool(p.get("connected", True)),
                to_move=pid == turn,
                me=pid == me,
            )
        )
    return lines


def result_text(state: Message, me: str | None) -> str:
    """The game-over banner's headline."""
    result = state.get("result") or {}
    reason = str(result.get("reason") or "over")
    who = names(state)
    winner = result.get("winner")
    reasons = {
        "five": "five in a row",
        "resign": "resignation",
        "draw": "the board is full",
        "agreed-draw": "agreement",
        "timeout": "time",
        "time": "time",
        "forbidden": "a forbidden move",
        "disconnect": "disconnection",
        "cleared": "board cleared",
        "mine": "a mine",
    }
    why = reasons.get(reason, reason)
    if state.get("game") == "minesweeper":
        if reason == "cleared":
            return "Board cleared — everyone wins!"
        if reason == "resign":
            return "Everyone left the game."
        by = result.get("by")
        return f"Boom! {who.get(str(by), 'Someone')} hit a mine." if by else "Boom! A mine."
    if winner is None:
        return f"Draw by {why}."
    if winner == me:
        return f"You win by {why}!"
    return f"{who.get(str(winner), 'The opponent')} wins by {why}."
