"""How ``gridhall-server history`` describes a finished game: how it ended, in the
sentence its description gives every client (``results``, read for a spectator), and
how long it was, in the game's own unit (its plug-in's ``moves_text``) and minutes.

Everything is read from what the store kept (:class:`~.store.GameRow`): the result
map and the game's record, so games stored by older servers read the same way.
"""

from __future__ import annotations

from gridhall.protocol.games import COMMON, render
from gridhall.protocol.games import describe as description
from gridhall.protocol.i18n import gettext as _

from ..games import registry
from .store import GameRow


def describe(game: GameRow) -> str:
    """``<how it ended> · <how long>``, e.g. "Ann wins by resignation. · 84 moves in 3:05"."""
    return f"{ending(game)} · {length(game)}"


def _names(game: GameRow) -> dict[str, str]:
    return {str(pl.get("player")): str(pl.get("name")) for pl in game.players}


def ending(game: GameRow) -> str:
    """How the game ended, as its description words it for someone watching."""
    state = {
        "game": game.game,
        "status": "over",
        "players": game.players,
        "options": game.options,
        "view": {},
        "result": game.result,
    }
    return render.result(description(game.game), COMMON, state, None)


def length(game: GameRow) -> str:
    """The game's length in its own unit, and its duration (``m:ss``)."""
    spec = registry().get(game.game)
    count = spec.moves_text(game.record, _names(game)) if spec is not None else "?"
    seconds = max(0, int(game.ended_at - game.started_at))
    return _("{count} in {duration}", count=count, duration=f"{seconds // 60}:{seconds % 60:02d}")
