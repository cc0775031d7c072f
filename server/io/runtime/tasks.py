"""Stopping a background task for certain.

A single ``task.cancel()`` can be lost: a cancel that arrives as an awaited call finishes
is dropped by ``asyncio.wait_for`` on Python 3.11 (it returns the call's result instead),
and a client library may swallow one while it tidies a connection. The task then runs
on, and whoever awaits it to stop waits for ever: a cluster node's stop hung that way
under load (its beat and its relay writer each lost the cancel).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

log = logging.getLogger("gridhall.server")

STOP_STEP = 0.1
"""Seconds between cancels of a task that has not ended yet."""
STOP_TRIES = 50
"""Cancels tried before giving up on a task (5 s: a task that ignores them all is a bug)."""


async def stop_task(task: asyncio.Task[Any]) -> bool:
    """Cancel ``task`` and wait until it has ended, cancelling it again while it runs on;
    whether it ended (after :data:`STOP_TRIES` cancels it is left, and logged)."""
    for _ in range(STOP_TRIES):
        if task.done():
            break
        task.cancel()
        await asyncio.wait({task}, timeout=STOP_STEP)
    if not task.done():
        log.error("task %s ignored %d cancels; left running", task.get_name(), STOP_TRIES)
        return False
    if not task.cancelled():
        task.exception()  # (retrieved: a task that failed as it stopped is not reported later)
    return True
