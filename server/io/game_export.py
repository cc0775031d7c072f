"""A finished game from the store as a Gomoku record, for ``gridhall-server export``:
the stones, each move's thinking time when the game's log accounts for every stone,
the players' names in Piskvork's place for engines, and Piskvork's end code."""

from __future__ import annotations

from typing import Any

from gridhall.protocol.i18n import gettext as _

from ..games.gomoku.records import UNKNOWN_END, GameRecord, write_moves, write_psq
from .store import GameRow

FORMATS = ("psq", "text")
END_CODES = {"five": 0, "draw": 0, "timeout": 15}
"""Piskvork's end codes for the endings it knows (0 finished, 15 timeout); others -1."""


class NotExportable(ValueError):
    """The game is not a Gomoku game, or its stored record is not one."""


def export(game: GameRow, fmt: str) -> str:
    """The game as text in ``fmt`` (one of :data:`FORMATS`)."""
    record = gomoku_record(game)
    return write_psq(record) if fmt == "psq" else write_moves(record)


def gomoku_record(game: GameRow) -> GameRecord:
    """The stored game as a :class:`GameRecord`; NotExportable if it is not Gomoku."""
    if game.game != "gomoku":
        raise NotExportable(
            _("game {id} is a {game} game; only Gomoku games export", id=game.id, game=game.game)
        )
    stored = game.record
    size = (game.options or {}).get("size") or (stored.get("options") or {}).get("size")
    raw = stored.get("moves")
    if (
        not isinstance(size, int)
        or not isinstance(raw, list)
        or not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(v, int) for v in m) for m in raw
        )
    ):
        raise NotExportable(_("game {id}'s stored record has no Gomoku moves", id=game.id))
    moves = tuple((int(m[0]), int(m[1])) for m in raw)
    colors: dict[str, Any] = stored.get("colors") or {}
    names = {str(pl.get("player")): str(pl.get("name")) for pl in game.players}
    by_colour = {colour: names.get(pid, pid) for pid, colour in colors.items()}
    engines = (by_colour.get("black", "black"), by_colour.get("white", "white"))
    reason = str((game.result or {}).get("reason"))
    return GameRecord(
        size, moves, move_times(stored, moves), engines, end=END_CODES.get(reason, UNKNOWN_END)
    )


def move_times(
    stored: dict[str, Any], moves: tuple[tuple[int, int], ...]
) -> tuple[int, ...] | None:
    """Milliseconds each stone of ``moves`` took, from the game's log: from the move
    (or the take-back) before it. None when the log does not end in these stones
    (it was cut at its cap, or is from an older server)."""
    log = stored.get("log")
    if not isinstance(log, list) or stored.get("log_omitted"):
        return None
    stones: list[tuple[str, int, int, int]] = []  # (player, x, y, ms)
    last = 0.0
    try:
        for entry in log:
            kind, player, at = entry[0], entry[1], float(entry[-1])
            if kind == "move":
                stones.append(
                    (player, int(entry[2]), int(entry[3]), max(0, round((at - last) * 1000)))
                )
                last = at
            elif kind == "takeback":
                if stones and stones[-1][0] != player:  # the reply goes too
                    stones.pop()
                if stones:
                    stones.pop()
                last = at
    except (TypeError, ValueError, IndexError):
        return None
    if [(x, y) for _p, x, y, _t in stones] != list(moves):
        return None
    return tuple(t for *_rest, t in stones)
