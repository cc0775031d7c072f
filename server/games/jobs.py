"""Heavy work as plain data: what a game (or the core) needs computed away from the event loop.

It sits in the games layer, the lowest of the server's, because a game describes the
work it asks for (a board to generate, a hint to search); the core carries the
description and the I/O layer runs it, so both import it from here and the games
import nothing above them.

A :class:`Job` is a module-level function and plain arguments, so a process pool
can pickle it and a replay of a room's inputs can recompute it: every job is a
deterministic function of its arguments (seeds and positions travel in them),
except that it may stop early when its time budget runs out. That is why the
room treats the job's *answer* (plain data, see
:func:`~gridhall.server.io.workers.job_runner.run_job`) as an input of
its own: a log of inputs keeps the answer and a replay reuses it.

This module never imports asyncio; the pool that runs jobs is ``server/io/workers/work.py``, and
the worker side (the time budget's timer signal) is ``server/io/workers/job_runner.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

JSON = dict[str, Any]


@dataclass(frozen=True)
class Job:
    """One unit of heavy work: ``fn(*args)`` in a worker process.

    ``kind`` names it for logs and refusals ("hint", "layout", "password" ...).
    ``budget`` is the time it may take in the worker, counted on ``clock``; past it,
    :class:`OutOfTime` is raised inside ``fn``, which may catch it and answer
    with what it has (a hint says it found nothing within its budget)."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()
    kind: str = "work"
    budget: float | None = None
    clock: Literal["wall", "cpu"] = "wall"
    """What ``budget`` counts: wall-clock seconds (someone waits for the answer), or
    the worker's CPU seconds (background work whose answer must not depend on how
    busy the machine is: a game's analysis, stored for good)."""
    exclusive: bool = False
    """Nothing else may change the game until the answer is in (the job read
    state a move could change); other moves meanwhile get ``server-busy``."""


class OutOfTime(Exception):
    """A job's time budget is spent (raised inside the job by the runner's timer signal)."""


BUSY: JSON = {"error": "busy"}
"""The answer the I/O layer gives at once when every worker slot is taken."""
