"""Gomoku's record files as a plug-in (``GameSpec.records``): a finished game written
as Piskvork's PSQ or a move list, and either read back into a finished game.

Export: the stones, each move's thinking time when the game's log accounts for every
stone, the players' names in Piskvork's place for engines, and Piskvork's end code.

Import (Piskvork's PSQ, as Gomocup publishes its games, or a plain move list): the
stones are re-run through the pure rules (freestyle: five or more wins) before anything
is stored: a file whose moves go on after five in a row, or that holds no move, is
refused whole. The players are named from the file (PSQ's engine names) or
``Black``/``White``; the result is read from the position: five in a row wins, a full
board is a draw, anything else is ``imported`` with no winner.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.cells import cell_name
from gridhall.protocol.i18n import N_
from gridhall.protocol.i18n import gettext as _

from ..base import GameError
from ..records import SOURCE, GameRecords, Imported, NotExportable, NotImportable, StoredGame
from .game import GomokuGame
from .records import (
    UNKNOWN_END,
    GameRecord,
    one_line,
    read_moves,
    read_psq,
    write_moves,
    write_psq,
)
from .rerun import move_times

END_CODES = {"five": 0, "draw": 0, "timeout": 15}
"""Piskvork's end codes for the endings it knows (0 finished, 15 timeout); others -1."""
PLAYERS = ("black", "white")
"""The player ids of an imported game's two sides (names come from the file)."""
MAX_NAME = 32
DEFAULT_SIZE = 15


class GomokuFiles(GameRecords):
    """PSQ (the default) and move lists."""

    formats: ClassVar[Mapping[str, str]] = {
        "psq": N_("the format of {piskvork}, as {gomocup} publishes games"),
        "text": N_("one move a line ({example})"),
    }

    def about(self, fmt: str) -> str:
        return _(self.formats[fmt], piskvork="Piskvork", gomocup="Gomocup", example="H8")

    def export(self, game: StoredGame, fmt: str) -> str:
        record = gomoku_record(game)
        return write_psq(record) if fmt == "psq" else write_moves(record)

    def read(self, text: str, fmt: str, size: int | None, now: float) -> Imported:
        record = read_psq(text) if fmt == "psq" else read_moves(text, size or DEFAULT_SIZE)
        return prepare(record, now)


def gomoku_record(game: StoredGame) -> GameRecord:
    """The stored game as a :class:`GameRecord`; NotExportable if it holds no stones."""
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


def prepare(record: GameRecord, now: float) -> Imported:
    """The finished game ``record`` holds; NotImportable if the rules refuse it."""
    if not record.moves:
        raise NotImportable(_("the file holds no moves"))
    options = {"size": record.size, "rule": "freestyle"}
    game = GomokuGame(options, list(PLAYERS), 0, 0.0)
    ms = record.times if record.times and len(record.times) == len(record.moves) else None
    clock = 0.0
    for n, (x, y) in enumerate(record.moves, start=1):
        turn = game.turn()
        if turn is None:
            raise NotImportable(
                _("move {n} ({cell}) comes after five in a row", n=n, cell=cell_name(x, y))
            )
        clock += (ms[n - 1] / 1000) if ms else 0.0
        try:
            game.apply(turn, {"x": x, "y": y}, clock)
        except GameError as exc:  # the readers refuse taken and off-board points first
            raise NotImportable(_("move {n}: {reason}", n=n, reason=exc.message)) from None
    result = game.result or Outcome(Termination.IMPORTED, None, {}).to_map()
    names = _names(record)
    stored = dict(game.record(), source=SOURCE)
    return Imported(
        options,
        [{"player": pid, "name": names[n], "seat": n} for n, pid in enumerate(PLAYERS)],
        result,
        stored,
        now - clock,
        now,
    )


def _names(record: GameRecord) -> tuple[str, str]:
    """Black's and white's names: PSQ's engines (black is ``engines[first]``), else
    Black and White."""
    engines = [one_line(e)[:MAX_NAME].strip() for e in record.engines[:2]]
    if len(engines) == 2 and all(engines):
        black, white = engines[record.first], engines[1 - record.first]
        return black, white
    return "Black", "White"
