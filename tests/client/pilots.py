"""Pilots for tests that run several Textual apps at once (two players, a laptop and a
phone): each pilot drives its own app as if that app were the active one.

Textual finds "the app" of a screen or widget through a context variable
(``active_app``), which ``App.run_test`` sets in the test's task; with two apps entered
in one test, it names the last one. A pilot's own calls into its screen then ran as if
the *other* app were active: ``Pilot.pause`` ends with ``screen._on_timer_update()``,
which pauses the screen's update timer and then skips the layout, because the screen
sees that it is not the active app's current screen; a click's events are forwarded
through the screen the same way. So on the first app a bar just shown could stay
unlaid out for as long as nothing else woke its screen: a *Play again* button, shown and
enabled, had an empty region for 30 s on a loaded machine. :class:`OwnPilot` runs every
one of its calls with its own app active.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import Any

from textual.app import App
from textual.pilot import Pilot

DRIVING = (
    "press",
    "resize_terminal",
    "mouse_down",
    "mouse_up",
    "click",
    "double_click",
    "triple_click",
    "hover",
    "pause",
    "wait_for_animation",
    "wait_for_scheduled_animations",
    "exit",
)
"""The pilot's coroutines that act on its app."""


class OwnPilot(Pilot[Any]):
    """A pilot whose every call runs with its own app as Textual's active app."""


def _in_own_app(name: str) -> Callable[..., Awaitable[Any]]:
    method = getattr(Pilot, name)

    @functools.wraps(method)
    async def call(self: OwnPilot, *args: Any, **kwargs: Any) -> Any:
        with self.app._context():
            return await method(self, *args, **kwargs)

    return call


for _name in DRIVING:
    setattr(OwnPilot, _name, _in_own_app(_name))


async def run_app(stack: AsyncExitStack, app: App[Any], size: tuple[int, int]) -> OwnPilot:
    """Start ``app`` headless (stopped when ``stack`` closes) and give its own pilot."""
    await stack.enter_async_context(app.run_test(size=size))
    return OwnPilot(app)
