"""External engines as a game's computer levels: ``--engine NAME=COMMAND``.

A game plug-in whose games an external program can play (Gomoku's Piskvork brains)
has an :class:`EngineBridge` (``GameSpec.engines``). At start the server asks the
bridge whether each engine answers (:meth:`EngineBridge.probe`); an engine that does
is offered as the ``ai`` level ``engine:NAME`` (:mod:`gridhall.protocol.games.engines`,
``GameSpec.with_engines``), and its moves are thought in the worker pool
(:meth:`EngineBridge.think`, module-level and picklable like every worker job).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .base import JSON


class EngineBridge(ABC):
    """How external engines play one game (see the module docstring)."""

    about: str = ""
    """What kind of program the command must start, for the command line's help."""

    @abstractmethod
    async def probe(self, argv: tuple[str, ...], timeout: float) -> str | None:
        """None when the engine ``argv`` starts answers within ``timeout`` seconds,
        else why not in a few words (never raises)."""

    @abstractmethod
    def think(self, argv: tuple[str, ...], request: JSON, budget: float) -> JSON:
        """Worker-side: engine ``argv``'s move for the computer ``request``, within
        ``budget`` seconds a move (falling back on the game's own computer)."""
