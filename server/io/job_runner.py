"""The worker side of a :class:`~gridhall.server.core.jobs.Job`: run it within its budget.

Kept apart from the job's plain data (``server/core/jobs.py``) because enforcing the
budget sets a process timer (``SIGALRM``), which the pure core never does.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.jobs import JSON, Job, OutOfTime


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
