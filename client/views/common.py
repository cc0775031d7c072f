"""Pieces every game screen needs: cell looks, player lines, error sentences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridhall import protocol as p
from gridhall.client.messages import Refused
from gridhall.protocol.games import render
from gridhall.protocol.games.common import COMMON, ERRORS, REQUEST_TITLES
from gridhall.protocol.i18n import gettext as _
from gridhall.protocol.players import shown_name

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


ERROR_HINTS = ERRORS
"""A sentence per error code (the descriptions' common words)."""

INTERNAL_ERROR_TEXT = ERRORS["internal-error"]


def error_text(refused: Refused) -> str:
    """The sentence to show for a refusal: the server's, else a hint by code. A
    server's own failure (``internal-error``) always gets our sentence, which
    says it was not the player's fault."""
    return render.error_text(COMMON, refused.code, refused.message)


def error_title(refused: Refused) -> str:
    """A short heading for a refusal: what did not happen, or that the server failed."""
    if refused.code == p.ErrorCode.INTERNAL_ERROR:
        return _("Server error")
    if refused.request is None:
        return _("Server says")
    return _(REQUEST_TITLES.get(refused.request, "Not done"))


def player_color(player: Message) -> str:
    """A player's chosen colour, else one by seat."""
    color = player.get("color")
    if isinstance(color, str) and color.startswith("#") and len(color) in (4, 7):
        return color
    seat = player.get("seat")
    return PLAYER_COLORS[(seat if isinstance(seat, int) else 0) % len(PLAYER_COLORS)]


def names(state: p.State) -> dict[str, str]:
    """Player id -> display name for everyone seated (a computer's in the player's
    language)."""
    return {
        str(pl.get("player")): shown_name(pl.get("name"), pl.get("bot")) for pl in state.players
    }


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
class ReplayFrame:
    """One board a replay shows at its shown step: the view its game's live board draws
    (as in a room), whose board it is, and what the replay adds (the game's own
    ``decoration``, which only that game's board widgets read)."""

    view: Message
    me: str | None = None
    """Whose board it is (a racer's own board), or None: the one board everybody sees."""
    title: str = ""
    """What the board is captioned with when there are several (a racer's name)."""
    color: str = "#ffffff"
    active: bool = False
    """The shown step was made on this board."""
    decoration: Any = None


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
                name=shown_name(pl.get("name"), pl.get("bot")),
                color=player_color(pl),
                role=roles.get(pid) or _("seat {n}", n=pl.get("seat", "?")),
                connected=bool(pl.get("connected", True)),
                to_move=pid == turn,
                me=pid == me,
            )
        )
    return lines
