"""``gridhall-server export`` and ``import``: a finished game as a file and back,
through the game plug-in's record files (``GameSpec.records``, ``server/games/records.py``).

Which games have files, in which formats, is each plug-in's; this module only picks the
plug-in: the stored game's own for an export, ``--game`` (by default the first game
that has files) for an import.
"""

from __future__ import annotations

from collections.abc import Mapping

from gridhall.protocol.i18n import gettext as _

from ..games import registry
from ..games.base import GameSpec
from ..games.records import GameRecords, Imported, NotExportable, NotImportable, StoredGame

__all__ = ["NotExportable", "NotImportable", "export", "formats", "games", "read"]


def games() -> dict[str, GameRecords]:
    """The games with record files, by name, in the registry's order."""
    return {name: spec.records for name, spec in registry().items() if spec.records is not None}


def formats() -> dict[str, str]:
    """Every format some game writes, with what it is (in the reader's language)."""
    found: dict[str, str] = {}
    for files in games().values():
        for name in files.formats:
            found.setdefault(name, files.about(name))
    return found


def _titles(specs: Mapping[str, GameSpec]) -> str:
    return ", ".join(_(s.description.title) for s in specs.values() if s.records)


def export(game: StoredGame, fmt: str | None) -> str:
    """``game`` as a file in ``fmt`` (None: its game's first format); NotExportable
    when its game has no files, or none in ``fmt``."""
    specs = registry()
    spec = specs.get(game.game)
    if spec is None or spec.records is None:
        raise NotExportable(
            _(
                "game {id} is a {game} game; only {games} games export",
                id=game.id,
                game=game.game,
                games=_titles(specs),
            )
        )
    files = spec.records
    fmt = fmt or next(iter(files.formats))
    if fmt not in files.formats:
        raise NotExportable(
            _("{game} games export as {formats}", game=game.game, formats=", ".join(files.formats))
        )
    return files.export(game, fmt)


def read(
    text: str, game: str | None, fmt: str | None, size: int | None, now: float
) -> tuple[str, Imported]:
    """The finished game in ``text`` and its game's name: of ``game`` (None: the first
    with files), in ``fmt`` (None: that game's first format). RecordError or
    NotImportable when it is not one."""
    found = games()
    name = game if game is not None else next(iter(found), "")
    files = found.get(name)
    if files is None:
        raise NotImportable(
            _("{game} games do not import; {games} do", game=name, games=", ".join(found))
        )
    fmt = fmt or next(iter(files.formats))
    if fmt not in files.formats:
        raise NotImportable(
            _("{game} games import from {formats}", game=name, formats=", ".join(files.formats))
        )
    return name, files.read(text, fmt, size, now)
