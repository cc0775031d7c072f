"""Which event loop the server runs on: uvloop when it is installed, else asyncio's own.

uvloop (``pip install "gridhall[fast]"``) runs the same server with less CPU: in
``bench/load.py --uvloop`` a Gomoku move costs the server about a fifth less (219 against
270 us on average over three short runs each). Nothing in gridhall depends on it;
``--loop asyncio`` turns it off, ``--loop uvloop`` insists on it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

LOOPS = ("auto", "asyncio", "uvloop")

LoopFactory = Callable[[], asyncio.AbstractEventLoop]


class LoopUnavailable(RuntimeError):
    """``--loop uvloop`` was asked for and uvloop is not installed."""


def choose(choice: str) -> LoopFactory | None:
    """The loop factory for ``choice`` (None: asyncio's default)."""
    if choice not in LOOPS:
        raise ValueError(f"unknown event loop {choice!r}; one of {', '.join(LOOPS)}")
    if choice == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if choice == "uvloop":
            raise LoopUnavailable('uvloop is not installed: pip install "gridhall[fast]"') from None
        return None
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, None], factory: LoopFactory | None) -> None:
    """``asyncio.run(main)`` on a loop from ``factory`` (None: asyncio's default)."""
    with asyncio.Runner(loop_factory=factory) as runner:
        runner.run(main)


def running() -> str | None:
    """The name of the loop this is called on (for the operator, and tests); None
    outside one."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    return "uvloop" if type(loop).__module__.split(".")[0] == "uvloop" else "asyncio"
