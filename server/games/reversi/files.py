"""Reversi's record files as a plug-in (``GameSpec.records``): a finished game written
as a move list in the common notation (``F5 D6 C3 ...``), and one read back into a
finished game. The moves are re-run through the rules before anything is stored (the
reader checks each); the result is read from the position: the end by discs when
neither side can move, else ``imported`` with no winner."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.i18n import N_
from gridhall.protocol.i18n import gettext as _

from ..records import SOURCE, GameRecords, Imported, NotExportable, NotImportable, StoredGame
from .game import ReversiGame
from .notation import NotationError, read_moves, write_moves

PLAYERS = ("black", "white")
"""The player ids of an imported game's two sides."""
DEFAULT_SIZE = 8


class ReversiFiles(GameRecords):
    """Move lists in the common notation."""

    formats: ClassVar[Mapping[str, str]] = {"text": N_("the moves in a line ({example})")}

    def about(self, fmt: str) -> str:
        return _(self.formats[fmt], example="F5 D6 C3")

    def export(self, game: StoredGame, fmt: str) -> str:
        raw = game.record.get("moves")
        size = (game.options or {}).get("size")
        if (
            not isinstance(size, int)
            or not isinstance(raw, list)
            or not all(
                isinstance(m, list) and len(m) == 2 and all(isinstance(v, int) for v in m)
                for m in raw
            )
        ):
            raise NotExportable(_("game {id}'s stored record has no Reversi moves", id=game.id))
        return write_moves(size, [(m[0], m[1]) for m in raw]) + "\n"

    def read(self, text: str, fmt: str, size: int | None, now: float) -> Imported:
        size = size or DEFAULT_SIZE
        try:
            moves = read_moves(size, text)
        except NotationError as exc:
            raise NotImportable(str(exc)) from None
        if not moves:
            raise NotImportable(_("the file holds no moves"))
        options: dict[str, Any] = {"size": size}
        game = ReversiGame(options, list(PLAYERS), 0, 0.0)
        for x, y in moves:
            game.apply(game.turn() or "", {"x": x, "y": y}, 0.0)
        result = (
            game.result
            or Outcome(Termination.IMPORTED, None, {"discs": game.view(None)["counts"]}).to_map()
        )
        return Imported(
            options,
            [{"player": p, "name": p.capitalize(), "seat": n} for n, p in enumerate(PLAYERS)],
            result,
            dict(game.record(), source=SOURCE),
            now,
            now,
        )
