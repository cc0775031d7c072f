"""The worker processes that do heavy work, so the event loop only routes.

Rooms ask for jobs (``Work`` effects, :mod:`gridhall.server.jobs`) and computer
players for moves (``Think``); both run here, in one process pool whose
workers run at a lower CPU priority than the event loop, so a busy pool slows
other jobs, never every room's round trips. At most ``max_jobs`` jobs are
queued or running at once: past that :meth:`WorkPool.submit` says no at once,
and the room refuses the request with ``server-busy`` (never a growing queue).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any

log = logging.getLogger("gridhall.work")

WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's."""


PARENT_CHECK = 1.0
"""Seconds between a worker's checks that the server still runs."""


def _start_worker(server_pid: int) -> None:
    """Worker initializer: yield the CPU to the event loop's process, and end with
    the server (a ``kill -9`` leaves no orphaned workers behind)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)
    threading.Thread(target=_exit_with, args=(server_pid,), name="watch-server",
                     daemon=True).start()


def _exit_with(server_pid: int) -> None:
    """Exit once the server process is gone (this worker was re-parented)."""
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def _ready() -> bool:
    return True


class WorkPool:
    """A bounded process pool driven from the event loop."""

    def __init__(self, workers: int, max_jobs: int) -> None:
        self.workers = max(1, workers)
        self.max_jobs = max_jobs
        self.running = 0
        self._pool: Executor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            # Spawned, not forked: a forked worker would inherit the server's sockets
            # and keep players' connections open after the server died.
            self._pool = ProcessPoolExecutor(max_workers=self.workers,
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_start_worker,
                                             initargs=(os.getpid(),))
        return self._pool

    def warm_up(self) -> None:
        """Start the workers now, so the first job does not pay for it."""
        for _ in range(self.workers):
            self.pool.submit(_ready)

    def submit(self, fn: Callable[..., Any], *args: Any, done: Callable[[Any], None],
               failed: Callable[[BaseException], None], force: bool = False
               ) -> asyncio.Task[None] | None:
        """Run ``fn(*args)`` in a worker; ``done(value)`` or ``failed(exc)`` is
        called on the loop. None (nothing started) when ``max_jobs`` are out,
        unless ``force`` (a computer's move must come eventually)."""
        if self.running >= self.max_jobs and not force:
            return None
        self.running += 1
        task = asyncio.get_running_loop().create_task(self._run(fn, args, done, failed))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _run(self, fn: Callable[..., Any], args: tuple[Any, ...],
                   done: Callable[[Any], None], failed: Callable[[BaseException], None]
                   ) -> None:
        pool = self.pool
        try:
            value = await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken pool or an unpicklable answer
            if isinstance(exc, BrokenExecutor):
                self._renew(pool)
            failed(exc)
            return
        finally:
            self.running -= 1
        done(value)

    def _renew(self, broken: Executor) -> None:
        """A worker died (killed for memory, a crash) and took the pool with it: start
        new workers with the next job, or every later job, and every computer's
        move, would fail at once for as long as the server runs."""
        if self._pool is broken:
            log.error("a worker process died; starting new workers")
            self._pool = None
            broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
