"""A game's record files: ``gridhall-server export`` and ``import``.

A game plug-in whose games trade as files (Gomoku's PSQ and move lists) has a
:class:`GameRecords` (``GameSpec.records``): it writes a finished game from the store in
one of its :attr:`~GameRecords.formats`, and reads a file into a finished game the store
keeps like any played here, re-run through the game's own rules first (so a file the
rules refuse is refused whole). Pure text in and out: the command line reads and writes
the files and the store.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from gridhall.protocol.i18n import gettext

SOURCE = "import"
"""The ``source`` of an imported game's summary."""


class RecordError(ValueError):
    """A file that cannot be read as a record: ``line`` (from 1) says where, the text why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


class NotExportable(ValueError):
    """A stored game this game's record files cannot hold (an old or odd row)."""


class NotImportable(ValueError):
    """A file that reads as a record but is not a game gridhall can keep."""


class StoredGame(Protocol):
    """A finished game as the store keeps it (``server/io/store.py``'s ``GameRow``)."""

    @property
    def id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def players(self) -> list[dict[str, Any]]: ...
    @property
    def result(self) -> dict[str, Any]: ...
    @property
    def record(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Imported:
    """What the store keeps of an imported game (see ``Store.save_game``)."""

    options: dict[str, Any]
    players: list[dict[str, Any]]
    result: dict[str, Any]
    record: dict[str, Any]
    started_at: float
    ended_at: float


class GameRecords(ABC):
    """A game's record files (see the module docstring)."""

    formats: ClassVar[Mapping[str, str]] = {}
    """Each format's name and what it is (an English message id, see :meth:`about`),
    for the command's help (the first is the default)."""

    def about(self, fmt: str) -> str:
        """What format ``fmt`` is, in the reader's language."""
        return gettext(self.formats[fmt])

    @abstractmethod
    def export(self, game: StoredGame, fmt: str) -> str:
        """``game`` in format ``fmt``; NotExportable if its record cannot be written."""

    @abstractmethod
    def read(self, text: str, fmt: str, size: int | None, now: float) -> Imported:
        """The finished game in ``text``: RecordError (naming the line) if it is not a
        record, NotImportable if the rules refuse it. ``size``: the board's size for a
        format that does not say (None: the game's default); ``now``: when it ended."""
