"""Waiting on events in tests, written once: poll a condition that the code under test
makes true, with a deadline that only guards against a hang (never a timing check)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

WAIT = 30.0
"""Seconds before a wait fails: far beyond any real wait, even on a loaded machine."""
STEP = 0.02
"""Seconds between looks at the condition."""


def named(cond: Callable[[], object]) -> str:
    """What a failed wait says it waited for: the condition's line, for a lambda."""
    code = getattr(cond, "__code__", None)
    if code is None:
        return "the condition"
    return f"the condition at {code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"


async def until(
    cond: Callable[[], object],
    what: str | None = None,
    *,
    timeout: float = WAIT,
    step: Callable[[], Awaitable[object]] | None = None,
) -> None:
    """Wait until ``cond()`` holds, letting the event loop (or ``step``: e.g. a Textual
    pilot's pause, which lets an app handle its messages) run in between."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what or named(cond)}")
        await (step() if step is not None else asyncio.sleep(STEP))


async def ui_until(
    pilot: Any, cond: Callable[[], object], what: str | None = None, *, timeout: float = WAIT
) -> None:
    """:func:`until` while a Textual app runs: its ``pilot`` pauses between looks."""
    await until(cond, what, timeout=timeout, step=lambda: pilot.pause(STEP))
