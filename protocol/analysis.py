"""The messages of Gomoku analysis (PROTOCOL.md, "Analysis"): a request and its answers.

Kept apart from :mod:`.messages` (they register in the same tables) because they are
one feature, ``"analysis"`` in ``welcome.features``; old clients never send them.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta

from .fields import RequestId
from .messages import ClientMessage, message, request

MAX_GAME_ID = 2**53
"""Game ids are SQLite row ids; anything past this is no game."""

AnalysisStatus = Literal["queued", "running", "done", "failed"]


@request
class Analyse(ClientMessage, tag="analyse", frozen=True):
    """Ask for the engine's analysis of a finished Gomoku game (added)."""

    game_id: Annotated[int, Meta(ge=1, le=MAX_GAME_ID)]
    id: RequestId = None


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
