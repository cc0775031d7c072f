"""Computer players think in worker processes, never on the event loop.

The room asks with a :class:`~gridhall.server.effects.Think` effect; this module
runs the game's ``ComputerPlayer.think`` in the server's worker pool
(``server/work.py``, one job per computer seat at a time) and hands the answer
back through a callback, with the request it answered, so the room can tell a
stale answer from a fresh one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import BrokenExecutor

from .effects import Think
from .games import registry
from .games.base import JSON
from .work import WorkPool

log = logging.getLogger("gridhall.computer")

DEFAULT_BUDGET = 2.0

Answer = Callable[[Think, JSON], None]


def warm_up() -> bool:
    """Worker-side: fill the computer players' lazy tables, so a worker's first
    move does not spend its budget on them."""
    for spec in registry().values():
        warm = getattr(spec.computer, "warm_up", None)
        if callable(warm):
            warm()
    return True


def think(game: str, request: JSON, level: str, budget: float) -> JSON:
    """Worker-side entry point (module level, so a process pool can pickle it)."""
    computer = registry()[game].computer
    if computer is None:
        raise ValueError(f"{game} has no computer player")
    return computer.think(request, level, budget)


class Computers:
    """Runs computer players' thinking; at most one job per computer seat."""

    def __init__(self, work: WorkPool, budget: float = DEFAULT_BUDGET) -> None:
        self.work = work
        self.budget = budget
        self._busy: dict[str, asyncio.Task[None]] = {}
        self._warmed = False

    def schedule(self, job: Think, answer: Answer, retry: bool = True) -> None:
        """Think about ``job`` and call ``answer(job, move)`` on the loop when done.
        A newer job for the same seat replaces one still running. A job lost with its
        worker (the pool starts new ones) is asked once more: the seat would otherwise
        wait for its move forever."""
        running = self._busy.pop(job.bot, None)
        if running is not None and running is not asyncio.current_task():  # (a retry)
            running.cancel()
        if not self._warmed:  # the server's first computer: warm each worker up first
            self._warmed = True
            for _ in range(self.work.workers):
                self.work.submit(warm_up, done=lambda _: None, failed=lambda _: None,
                                 force=True)

        def failed(exc: BaseException) -> None:
            log.error("room %s: the computer failed to find a move: %r", job.room, exc)
            if retry and isinstance(exc, BrokenExecutor):
                self.schedule(job, answer, retry=False)

        task = self.work.submit(think, job.game, job.request, job.level, self.budget,
                                done=lambda move: answer(job, move), failed=failed, force=True)
        assert task is not None, "forced jobs always start"
        self._busy[job.bot] = task
        task.add_done_callback(lambda t: self._busy.pop(job.bot, None)
                               if self._busy.get(job.bot) is t else None)

    def close(self) -> None:
        for task in self._busy.values():
            task.cancel()
