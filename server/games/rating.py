"""How a finished game counts beyond history: a game plug-in's rating model.

:class:`Rated`: the players' places (1 = best, equal places tie) feed the ratings
(``server/core/ratings.py``, OpenSkill); by default the winner is first and everyone
else second, a game without a winner ties everyone. A game narrows that (too short to
say anything about skill; a race's ranking) by overriding :meth:`Rated.places`.

:class:`TeamRecords`: a co-op team's games, wins and best times per preset board
(``server/io/ratings_store.py``), keyed by :meth:`TeamRecords.key`.

The description says the same to the clients (``Game.ratings``: ``rated`` /
``records``), so they know which games have a leaderboard.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal


@dataclass(frozen=True)
class Seat:
    """A participant of a finished game: a person, or a computer of level ``bot``."""

    player: str
    name: str
    bot: str | None = None


class RatingModel(ABC):
    """What a game's finished games are counted as (see the module docstring)."""

    kind: ClassVar[Literal["rated", "records"]]


class Rated(RatingModel):
    """Ratings from each rated game's places."""

    kind: ClassVar[Literal["rated", "records"]] = "rated"

    def places(
        self, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[tuple[Seat, int]] | None:
        """Each participant's place (1 = best), or None when the game says nothing
        about skill. By default: the winner first, the rest second; no winner, a tie."""
        winner = result.get("winner")
        if winner is None:
            return [(s, 1) for s in seats]
        if all(s.player != winner for s in seats):
            return None
        return [(s, 1 if s.player == winner else 2) for s in seats]


class TeamRecords(RatingModel):
    """A co-op team's records: games, wins and best times per record (a preset board,
    say), each record named by three values (``server/io/ratings_store.py`` keeps
    them as board, flag and number, as the ``records`` answer names them)."""

    kind: ClassVar[Literal["rated", "records"]] = "records"
    boards: tuple[str, ...] = ()
    """The records' first values (boards), in the order they are listed."""

    @abstractmethod
    def key(self, options: Mapping[str, Any]) -> tuple[str, int, int] | None:
        """The record a game of these options counts in, or None (no record kept)."""

    @abstractmethod
    def played(self, result: Mapping[str, Any]) -> bool:
        """Did the team play at all (a game nobody touched is no game)?"""

    @abstractmethod
    def time(self, result: Mapping[str, Any]) -> float | None:
        """The team's winning time, or None when it did not win."""
