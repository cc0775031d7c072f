"""How ``gridhall-server history`` describes a finished game: how it ended, in the
game's own words (a co-op board is cleared *by* its players, a race is *won*), and
how long it was, in the game's own unit (Gomoku moves, Minesweeper clicks,
Link-match links) and minutes.

Everything is read from what the store kept (:class:`~.store.GameRow`): the result
map and the game's record, so games stored by older servers read the same way.
"""

from __future__ import annotations

from typing import Any

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.i18n import gettext as _
from gridhall.protocol.i18n import ngettext

from .store import GameRow

MINESWEEPER_CLICKS = ("reveal", "chord", "mark", "flag-around")
"""Minesweeper log entries that are a click on the board (not hints, joins, leaving)."""


def describe(game: GameRow) -> str:
    """``<how it ended>, <how long>``, e.g. "cleared by ann, bob, 84 clicks in 3:05"."""
    return f"{ending(game)}, {length(game)}"


def _names(game: GameRow) -> dict[str, str]:
    return {str(pl.get("player")): str(pl.get("name")) for pl in game.players}


def ending(game: GameRow) -> str:
    """How the game ended, naming who won, lost, cleared or hit a mine."""
    names = _names(game)
    try:
        outcome = Outcome.from_map(game.result)
    except ValueError:
        return _("ended ({reason})", reason=game.result.get("reason"))
    winner = names.get(outcome.winner or "", outcome.winner or "?")
    loser = names.get(str(outcome.details.get("loser")), "?")
    why = outcome.termination
    if why == Termination.REMOVED:
        return _(
            "no result: the host removed {player}",
            player=names.get(str(outcome.details.get("removed")), _("a player")),
        )
    if game.game == "minesweeper":
        if why == Termination.CLEARED:
            stats: dict[str, Any] = outcome.details.get("stats") or {}
            clearers = [p for p, s in stats.items() if (s or {}).get("revealed")] or list(names)
            return _("cleared by {players}", players=", ".join(names.get(p, p) for p in clearers))
        if why == Termination.MINE:
            return _(
                "lost: {player} hit a mine", player=names.get(str(outcome.details.get("by")), "?")
            )
        return _("abandoned: every player left")
    if game.game == "linkmatch":
        if why == Termination.CLEARED:
            return _("{winner} won the race, board cleared", winner=winner)
        if why == Termination.TIME:
            left = (outcome.details.get("remaining") or {}).get(outcome.winner)
            return ngettext(
                "{winner} won when time ran out, {count} tile left",
                "{winner} won when time ran out, {count} tiles left",
                int(left or 0),
                winner=winner,
                count=left if left is not None else "?",
            )
        return _("no winner: every racer resigned")
    texts = {
        Termination.FIVE: _("{winner} won with five in a row", winner=winner),
        Termination.RESIGN: _("{winner} won: {loser} resigned", winner=winner, loser=loser),
        Termination.TIMEOUT: _("{winner} won on time", winner=winner),
        Termination.DISCONNECT: _(
            "{winner} won: {loser} did not come back", winner=winner, loser=loser
        ),
        Termination.DRAW: _("draw: the board is full"),
        Termination.AGREED_DRAW: _("draw by agreement"),
        Termination.FORBIDDEN: _("{winner} won: a forbidden move", winner=winner),
    }
    if why in texts:
        return texts[why]
    if outcome.winner is None:
        return _("no winner ({reason})", reason=why.value)
    return _("{winner} won ({reason})", winner=winner, reason=why.value)


def length(game: GameRow) -> str:
    """The game's length in its own unit, and its duration (``m:ss``)."""
    record = game.record
    names = _names(game)
    if game.game == "linkmatch":
        actions = record.get("actions")
        per_racer = {
            p: sum(
                1 for a in log if isinstance(a, dict) and a.get("action") == "link" and a.get("ok")
            )
            for p, log in (actions.items() if isinstance(actions, dict) else ())
        }
        total = sum(per_racer.values())
        count = ngettext("{count} link", "{count} links", total, count=total)
        if len(per_racer) > 1:
            count += " (" + ", ".join(f"{names.get(p, p)} {n}" for p, n in per_racer.items()) + ")"
    elif game.game == "minesweeper":
        actions = record.get("actions")
        clicks = (
            sum(
                1
                for a in actions
                if isinstance(a, list) and len(a) > 1 and a[1] in MINESWEEPER_CLICKS
            )
            if isinstance(actions, list)
            else 0
        )
        clicks += int(record.get("actions_omitted") or 0)
        count = ngettext("{count} click", "{count} clicks", clicks, count=clicks)
    else:
        moves = record.get("moves")
        n = len(moves) if isinstance(moves, list) else 0
        count = ngettext("{count} move", "{count} moves", n, count=n)
    seconds = max(0, int(game.ended_at - game.started_at))
    return _("{count} in {duration}", count=count, duration=f"{seconds // 60}:{seconds % 60:02d}")
