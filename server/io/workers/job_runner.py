"""The worker side of a :class:`~gridhall.server.games.jobs.Job`: run it within its budget.

Kept apart from the job's plain data (``server/games/jobs.py``) because enforcing the
budget sets a process timer (``SIGALRM``, or ``SIGPROF`` for a budget of CPU time),
which the pure core never does.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...games.jobs import JSON, Job, OutOfTime


def _alarm(signum: int, frame: Any) -> None:
    raise OutOfTime


TIMERS = {
    "wall": (signal.ITIMER_REAL, signal.SIGALRM),
    "cpu": (signal.ITIMER_PROF, signal.SIGPROF),
}
"""Each clock's interval timer and the signal it sends: ``ITIMER_PROF`` counts this
process's CPU time, so a worker that waits for a CPU on a busy machine spends none."""


@contextmanager
def time_budget(seconds: float | None, clock: str = "wall") -> Iterator[None]:
    """Raise :class:`OutOfTime` in this (main) thread after ``seconds`` on ``clock``
    (``"wall"`` or ``"cpu"``: this process's CPU time).

    Without ``setitimer`` (Windows) or off the main thread the budget is not
    enforced; the job then simply runs to its end."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    timer, signum = TIMERS[clock]
    try:
        previous = signal.signal(signum, _alarm)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, previous)


def run_job(job: Job) -> JSON:
    """Worker-side entry point (module level, so a process pool can pickle it).

    The answer is plain data: ``{"value": ...}``, or ``{"error": "out-of-time"}``
    when the budget ran out and the job had no answer of its own, or
    ``{"error": "failed"}`` when it raised (the worker logs nothing; the room
    tells the requester)."""
    try:
        with time_budget(job.budget, job.clock):
            value = job.fn(*job.args)
    except OutOfTime:
        return {"error": "out-of-time"}
    except Exception as exc:  # a bug in a job must not kill the worker or the room
        return {"error": "failed", "detail": f"{type(exc).__name__}: {exc}"[:200]}
    return {"value": value}
