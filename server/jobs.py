"""Heavy work as plain data: what a room needs computed away from the event loop.

A :class:`Job` is a module-level function and plain arguments, so a process pool
can pickle it and a replay of a room's inputs can recompute it: every job is a
deterministic function of its arguments (seeds and positions travel in them),
except that it may stop early when its time budget runs out. That is why the
room treats the job's *answer* (plain data, see :func:`run_job`) as an input of
its own: a log of inputs keeps the answer and a replay reuses it.

This module never imports asyncio; the pool that runs jobs is ``server/work.py``.
"""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Job:
    """One unit of heavy work: ``fn(*args)`` in a worker process.

    ``kind`` names it for logs and refusals ("hint", "layout", "password" ...).
    ``budget`` is the wall-clock time it may take in the worker; past it,
    :class:`OutOfTime` is raised inside ``fn``, which may catch it and answer
    with what it has (a hint says it found nothing within its budget)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kind: str = "work"
    budget: float | None = None
    exclusive: bool = False
    """Nothing else may change the game until the answer is in (the job read
    state a move could change); other moves meanwhile get ``server-busy``."""


class OutOfTime(Exception):
    """A job's time budget is spent (raised inside the job by a timer signal)."""


def _alarm(signum: int, frame: Any) -> None:
    raise OutOfTime


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Raise :class:`OutOfTime` in this (main) thread after ``seconds``.

    Without ``setitimer`` (Windows) or off the main thread the budget is not
    enforced; the job then simply runs to its end."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    try:
        previous = signal.signal(signal.SIGALRM, _alarm)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def run_job(job: Job) -> JSON:
    """Worker-side entry point (module level, so a process pool can pickle it).

    The answer is plain data: ``{"value": ...}``, or ``{"error": "out-of-time"}``
    when the budget ran out and the job had no answer of its own, or
    ``{"error": "failed"}`` when it raised (the worker logs nothing; the room
    tells the requester)."""
    try:
        with time_budget(job.budget):
            value = job.fn(*job.args)
    except OutOfTime:
        return {"error": "out-of-time"}
    except Exception as exc:  # a bug in a job must not kill the worker or the room
        return {"error": "failed", "detail": f"{type(exc).__name__}: {exc}"[:200]}
    return {"value": value}


BUSY: JSON = {"error": "busy"}
"""The answer the I/O layer gives at once when every worker slot is taken."""
