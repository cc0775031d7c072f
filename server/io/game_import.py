"""``gridhall-server import``: a Gomoku game from a file (Piskvork's PSQ, as Gomocup
publishes its games, or a plain move list) stored as a finished game, so the replay
viewer shows it like any game played here.

The stones are re-run through the pure rules (freestyle: five or more wins) before
anything is stored: a file whose moves go on after five in a row, or that holds no
move, is refused whole. The players are named from the file (PSQ's engine names)
or ``Black``/``White``; the result is read from the position: five in a row wins,
a full board is a draw, anything else is ``imported`` with no winner.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.cells import cell_name
from gridhall.protocol.i18n import gettext as _

from ..games.base import GameError
from ..games.gomoku.game import GomokuGame
from ..games.gomoku.records import GameRecord, one_line, read_moves, read_psq

FORMATS = ("psq", "text")
SOURCE = "import"
"""The ``source`` of an imported game's summary."""
PLAYERS = ("black", "white")
"""The player ids of an imported game's two sides (names come from the file)."""
MAX_NAME = 32


class NotImportable(ValueError):
    """A file that reads as a record but is not a game gridhall can keep."""


@dataclass(frozen=True)
class Imported:
    """What the store keeps of an imported game (see ``Store.save_game``)."""

    options: dict[str, Any]
    players: list[dict[str, Any]]
    result: dict[str, Any]
    record: dict[str, Any]
    started_at: float
    ended_at: float


def read(text: str, fmt: str, size: int = 15) -> GameRecord:
    """The record in ``text``; RecordError (naming the line) if it is not one."""
    return read_psq(text) if fmt == "psq" else read_moves(text, size)


def prepare(record: GameRecord, now: float | None = None) -> Imported:
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
    ended = time.time() if now is None else now
    return Imported(
        options,
        [{"player": pid, "name": names[n], "seat": n} for n, pid in enumerate(PLAYERS)],
        result,
        stored,
        ended - clock,
        ended,
    )


def _names(record: GameRecord) -> tuple[str, str]:
    """Black's and white's names: PSQ's engines (black is ``engines[first]``), else
    Black and White."""
    engines = [one_line(e)[:MAX_NAME].strip() for e in record.engines[:2]]
    if len(engines) == 2 and all(engines):
        black, white = engines[record.first], engines[1 - record.first]
        return black, white
    return "Black", "White"
