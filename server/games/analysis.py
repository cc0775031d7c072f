"""A game's analysis: its engine's judgement of every position of a finished game.

A game plug-in with an :class:`Analyser` (``GameSpec.analysis``) is analysed on
``analyse`` (``server/io/analysis_service.py``: off the loop, one position per job in
the worker pool, stored once done). :meth:`Analyser.plan` reads the stored record into
an :class:`AnalysisPlan`, which makes each position's job and, at the end, the notes a
replay shows (``{"n": ply, "eval", "best", "mark", ...}``, PROTOCOL.md "Analysis").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .base import JSON

if TYPE_CHECKING:
    from .jobs import Job


class AnalysisPlan(ABC):
    """One game's analysis, position by position."""

    total: int
    """How many positions (jobs) there are."""

    @abstractmethod
    def job(self, done: Sequence[Any], budget: float) -> Job:
        """The job for position ``len(done)`` (``done``: the earlier jobs' values),
        each thinking about ``budget`` CPU seconds."""

    @abstractmethod
    def notes(self, done: Sequence[Any]) -> list[JSON]:
        """The notes a replay shows, from every position's value."""


class Analyser(ABC):
    """A game's engine for analyses."""

    engine: str
    """The engine's name, in every ``analysis`` answer and stored with it."""

    @abstractmethod
    def plan(self, record: JSON, options: JSON, result: JSON) -> AnalysisPlan:
        """The analysis of a stored game; ValueError (a sentence) for a record that
        holds no game this engine can read."""
