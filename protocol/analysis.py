"""The messages of Gomoku analysis (PROTOCOL.md, "Analysis"): a request and its answers.

Kept apart from :mod:`.messages` (they register in the same tables) because they are
one feature, ``"analysis"`` in ``welcome.features``; old clients never send them.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, ClassVar, Literal

from .messages import MAX_ID, message

MAX_GAME_ID = 2**53
"""Game ids are SQLite row ids; anything past this is no game."""

AnalysisStatus = Literal["queued", "running", "done", "failed"]


@message("analyse", "client")
class Analyse:
    """Ask for the engine's analysis of a finished Gomoku game (added)."""

    TYPE: ClassVar[str]
    game_id: int = field(metadata={"min": 1, "max": MAX_GAME_ID})
    id: int | None = field(default=None, metadata={"min": 0, "max": MAX_ID})


@message("analysis", "server")
class Analysis:
    """Where an analysis stands (added): at once with ``re``, and once more without
    ``re`` when the job ends (``done`` with ``moves``, or ``failed``)."""

    TYPE: ClassVar[str]
    game_id: int
    status: AnalysisStatus
    engine: str
    budget: float
    progress: list[Any] | None = None
    """``[positions done, positions in all]`` while queued or running."""
    moves: list[Any] | None = None
    """One note per ply when done: ``{"n", "eval", "best", "mark"?}``."""
    re: int | None = None
