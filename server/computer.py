"""Computer players think in worker processes, never on the event loop.

The room asks with a :class:`~gridhall.server.effects.Think` effect; this module
runs the game's ``ComputerPlayer.think`` in a process pool (one job per computer
seat at a time) and hands the answer back through a callback, with the request
it answered, so the room can tell a stale answer from a fresh one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor

from .effects import Think
from .games import registry
from .games.base import JSON

log = logging.getLogger("gridhall.computer")

DEFAULT_BUDGET = 2.0

Answer = Callable[[Think, JSON], None]


def think(game: str, request: JSON, level: str, budget: float) -> JSON:
    """Worker-side entry point (module level, so a process pool can pickle it)."""
    computer = registry()[game].computer
    if computer is None:
        raise ValueError(f"{game} has no computer player")
    return computer.think(request, level, budget)


class Computers:
    """Runs computer players' thinking; at most one job per computer seat."""

    def __init__(self, workers: int, budget: float = DEFAULT_BUDGET) -> None:
        self.workers = workers
        self.budget = budget
        self._pool: Executor | None = None
        self._busy: dict[str, asyncio.Task[None]] = {}

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            # Spawned, not forked: a forked worker would inherit the server's sockets
            # and keep players' connections open after the server died.
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def schedule(self, job: Think, answer: Answer) -> None:
        """Think about ``job`` and call ``answer(job, move)`` on the loop when done.
        A newer job for the same seat replaces one still running."""
        running = self._busy.pop(job.bot, None)
        if running is not None:
            running.cancel()
        task = asyncio.get_running_loop().create_task(self._think(job, answer))
        self._busy[job.bot] = task
        task.add_done_callback(lambda t: self._busy.pop(job.bot, None)
                               if self._busy.get(job.bot) is t else None)

    async def _think(self, job: Think, answer: Answer) -> None:
        loop = asyncio.get_running_loop()
        try:
            move = await loop.run_in_executor(self.pool, think, job.game, job.request,
                                              job.level, self.budget)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: the computer failed to find a move", job.room)
            return
        answer(job, move)

    def close(self) -> None:
        for task in self._busy.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
