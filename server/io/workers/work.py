"""The worker processes that do heavy work, so the event loop only routes.

Rooms ask for jobs (``Work`` effects, :mod:`gridhall.server.games.jobs`) and computer
players for moves (``Think``); both run here, in one process pool whose
workers run at a lower CPU priority than the event loop, so a busy pool slows
other jobs, never every room's round trips. Which job runs next, and which is
refused, is :mod:`gridhall.server.core.scheduler`'s call: one bounded queue, fair per
address and per room, with a worker kept for quick jobs so that nobody waits
behind computers. A refused job's room answers ``server-busy`` (never a
growing queue).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ...core.scheduler import JobClass, Owner, Scheduler
from ...core.stats import Stats

log = logging.getLogger("gridhall.work")

WORKER_NICE = 10
"""How much lower the workers' CPU priority is than the server's."""


PARENT_CHECK = 1.0
"""Seconds between a worker's checks that the server still runs."""


QUIET_TRACKER = "ignore:resource_tracker:UserWarning"
"""A warnings filter for multiprocessing's resource tracker (a process the pool starts,
which inherits this process's ``-W`` options). The pool's queues hold named semaphores;
when the server is killed (``kill -9``) the tracker unlinks them, as it is there to do,
and would warn that they "appear to be leaked": nothing is left behind, so it is told
not to alarm the operator."""


def _start_worker(server_pid: int) -> None:
    """Worker initializer: leave Ctrl-C to the server, yield the CPU to the event
    loop's process, and end with the server (a ``kill -9`` leaves no orphaned workers
    behind)."""
    signal.signal(signal.SIGINT, _not_here)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked at the spawn
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICE)
    threading.Thread(
        target=_exit_with, args=(server_pid,), name="watch-server", daemon=True
    ).start()


def _not_here(signum: int, frame: Any) -> None:
    """A worker's SIGINT (a terminal's Ctrl-C reaches its whole process group): the
    server owns the shutdown and ends its workers when it stops. A handler, not
    ``SIG_IGN``, so an engine a worker starts gets Ctrl-C as usual."""


@contextlib.contextmanager
def _sigint_blocked() -> Iterator[None]:
    """Block SIGINT in this thread meanwhile: a worker spawned here inherits the mask,
    so a Ctrl-C while it starts (before :func:`_start_worker` runs) waits for its
    handler instead of ending it with a traceback; here it is only delayed."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _exit_with(server_pid: int) -> None:
    """Exit once the server process is gone (this worker was re-parented)."""
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def _ready() -> bool:
    return True


@dataclass
class _Call:
    """A job as the pool runs it: the function, its arguments and its answers."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: Callable[[Any], None]
    failed: Callable[[BaseException], None]
    busy: Callable[[], None]
    kind: str = "work"
    queued_at: float = 0.0
    """``time.perf_counter()`` when it was offered (its wait in the queue starts)."""


class WorkPool:
    """A process pool driven from the event loop, fed by one :class:`Scheduler`.

    The executor has ``workers + reserve`` processes and the scheduler never
    starts more jobs than that, so a job it starts runs at once; everything
    that waits, waits in the scheduler's fair, bounded queue."""

    def __init__(
        self,
        workers: int,
        max_jobs: int,
        reserve: int = 1,
        per_address: int = 4,
        stats: Stats | None = None,
    ) -> None:
        self.scheduler: Scheduler[_Call] = Scheduler(workers, reserve, max_jobs, per_address)
        self.stats = stats
        """Where each job's kind, wait and run time are counted (if anywhere)."""
        self.workers = self.scheduler.total
        self._pool: Executor | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def running(self) -> int:
        return self.scheduler.running

    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return self.scheduler.queued()

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            # Spawned, not forked: a forked worker would inherit the server's sockets
            # and keep players' connections open after the server died.
            if QUIET_TRACKER not in sys.warnoptions:  # before the tracker starts
                sys.warnoptions.append(QUIET_TRACKER)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm_up(self) -> None:
        """Start the workers now, so the first job does not pay for it."""
        with _sigint_blocked():
            for _ in range(self.workers):
                self.pool.submit(_ready)

    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        owner: Owner,
        cls: JobClass = "quick",
        key: Hashable | None = None,
        done: Callable[[Any], None],
        failed: Callable[[BaseException], None],
        busy: Callable[[], None] = lambda: None,
        kind: str | None = None,
    ) -> bool:
        """Queue ``fn(*args)`` for a worker; ``done(value)`` or ``failed(exc)`` is
        called on the loop once it ran. False (nothing queued) when the owner's
        address is past its share of quick jobs; ``busy()`` is called later if a
        queued job is pushed out by a fairer one. A newer job under the same
        ``key`` replaces a queued one (which then never answers). ``kind`` names the
        job in the figures (default: its class)."""
        if self._closed:
            return False
        call = _Call(fn, args, done, failed, busy, kind or cls, time.perf_counter())
        admission = self.scheduler.offer(call, owner, cls, key)
        loop = asyncio.get_running_loop()
        for call in admission.evicted:
            loop.call_soon(call.busy)
        if admission.accepted:
            self._pump()
        return admission.accepted

    def forget_room(self, room: str) -> None:
        """A room closed: its queued jobs are dropped unanswered (nobody waits)."""
        self.scheduler.forget_room(room)

    def _pump(self) -> None:
        """Start every job the scheduler lets start now."""
        loop = asyncio.get_running_loop()
        for ticket, call in self.scheduler.start():
            task = loop.create_task(self._run(ticket, call))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _run(self, ticket: int, call: _Call) -> None:
        pool = self.pool
        began = time.perf_counter()
        try:
            with _sigint_blocked():  # the pool may start a worker for it
                running = asyncio.get_running_loop().run_in_executor(pool, call.fn, *call.args)
            value = await running
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken pool or an unpicklable answer
            self._count(call, began)
            if isinstance(exc, BrokenExecutor) and self._pool is pool:
                log.error("a worker process died; starting new ones")
                self._pool = None  # the next job starts a fresh pool
                pool.shutdown(wait=False, cancel_futures=True)
            self._finished(ticket)
            call.failed(exc)
            return
        self._count(call, began)
        self._finished(ticket)
        call.done(value)

    def _count(self, call: _Call, began: float) -> None:
        if self.stats is not None:
            self.stats.job_done(call.kind, began - call.queued_at, time.perf_counter() - began)

    def _finished(self, ticket: int) -> None:
        self.scheduler.finished(ticket)
        if not self._closed:
            self._pump()

    def close(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
