"""Computer players think in worker processes, never on the event loop.

The room asks with a :class:`~gridhall.server.core.effects.Think` effect; this module
runs the game's ``ComputerPlayer.think`` in the server's worker pool
(``server/io/work.py``, one job queued per computer seat) and hands the answer
back through a callback, with the request it answered, so the room can tell a
stale answer from a fresh one.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from typing import Any

from gridhall.protocol.games.engines import PREFIX, is_engine

from ..core.effects import Think
from ..core.scheduler import Owner
from ..games import registry
from ..games.base import JSON
from .work import WorkPool

log = logging.getLogger("gridhall.computer")

DEFAULT_BUDGET = 2.0

Answer = Callable[[Think, JSON], None]


_warmed: set[str] = set()
"""Worker-side: the games whose computer player this process has warmed up."""


def warm_up(game: str) -> None:
    """Worker-side: fill the game's computer player's lazy tables once per process,
    so no move's budget is spent on them."""
    if game in _warmed:
        return
    _warmed.add(game)
    computer = registry()[game].computer
    if computer is not None:
        computer.warm_up()


def think(game: str, request: JSON, level: str, budget: float) -> JSON:
    """Worker-side entry point (module level, so a process pool can pickle it)."""
    computer = registry()[game].computer
    if computer is None:
        raise ValueError(f"{game} has no computer player")
    warm_up(game)  # before the clock of this move starts
    return computer.think(request, level, budget)


def think_engine(game: str, argv: tuple[str, ...], request: JSON, budget: float) -> JSON:
    """Worker-side: external engine ``argv``'s move, through its game's bridge."""
    bridge = registry()[game].engines
    if bridge is None:
        raise ValueError(f"{game} has no external engines")
    return bridge.think(argv, request, budget)


class Computers:
    """Runs computer players' thinking in the pool's ``computer`` class, charged
    to the address that owns the room; at most one job queued per computer seat."""

    def __init__(self, work: WorkPool, budget: float = DEFAULT_BUDGET) -> None:
        self.work = work
        self.budget = budget
        self.engines: dict[str, dict[str, tuple[str, ...]]] = {}
        """External engines offered (``server/io/engines.py``): game -> name -> command."""

    def schedule(self, job: Think, answer: Answer, retry: bool = True) -> None:
        """Think about ``job`` and call ``answer(job, move)`` on the loop when done.
        A newer job for the same seat replaces one still queued; one already
        running finishes (a worker cannot be stopped midway) and the room tells a
        stale answer by its request. A job lost with its worker (the pool starts new
        ones) is asked once more: the seat would otherwise wait for its move forever."""

        def failed(exc: BaseException) -> None:
            log.error(
                "room %s: the computer failed to find a move: %r",
                job.room,
                exc,
                extra={"room": job.room, "player": job.bot},
            )
            if retry and isinstance(exc, BrokenExecutor):
                self.schedule(job, answer, retry=False)

        fn, args = self._thinker(job)
        self.work.submit(
            fn,
            *args,
            owner=Owner(job.address or "room:" + job.room, job.room),
            cls="computer",
            key=("think", job.room, job.bot),
            done=lambda move: answer(job, move),
            failed=failed,
        )

    def _thinker(self, job: Think) -> tuple[Callable[..., JSON], tuple[Any, ...]]:
        """What the worker runs: an external engine's level through its pipes, the
        game's own computer otherwise (also for an engine no longer offered)."""
        if is_engine(job.level):
            argv = self.engines.get(job.game, {}).get(job.level[len(PREFIX) :])
            if argv is not None:
                return think_engine, (job.game, argv, job.request, self.budget)
            computer = registry()[job.game].computer  # gone: the game's strongest level
            strongest = computer.levels[-1] if computer is not None and computer.levels else ""
            return think, (job.game, job.request, strongest, self.budget)
        return think, (job.game, job.request, job.level, self.budget)

    def close(self) -> None:
        """Nothing of its own to stop: the pool's close cancels what is out."""
