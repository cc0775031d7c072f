"""Garbage collection paced for round trips: no full walk of the heap every few seconds.

CPython's full collection walks every object the collector tracks, with the event loop
stopped. A server with 1,000 connections holds about 150,000 of them (most inside
websockets' connection objects), so each full collection took 60-100 ms, and under
1,000 moves a second one came every few seconds: round trips had a p99 of 30-100 ms,
against under 4 ms with the collector off (``bench/load.py``).

The server frees its big things without the collector's help (nothing a connection
leaves behind forms a cycle, see :mod:`.connection`), so the collector mostly finds
objects that are alive. After each full collection we therefore freeze its survivors
(:func:`gc.freeze`): the next full collection walks only what became long-lived since,
a few milliseconds. Every :data:`FULL_WALK_EVERY` seconds we unfreeze them instead, so
garbage cycles among once-frozen objects are still found, with one full walk then
rather than one every few seconds.

This is a policy for a whole process, so only the process's owner installs it (the
``gridhall-server`` command, the benchmarks), not :class:`~.app.GameServer`: a test
process that runs servers in threads keeps the collector as it was.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

FULL_WALK_EVERY = 600.0
"""Seconds between full collections that walk every object (frozen ones included)."""
YOUNG = 20_000
"""Allocations between young collections (Python's default: 700). Each young collection
walks what is alive among them, mostly every connection's pending read, so its cost
hardly grows with the threshold while the number of collections falls: at 1,000 players
the p99 round trip went from 12 ms to 6 ms."""


class Collector:
    """The installed policy (see the module docstring); :meth:`uninstall` undoes it."""

    def __init__(
        self, full_walk_every: float = FULL_WALK_EVERY, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.full_walk_every = full_walk_every
        self.clock = clock
        self.last_full_walk = clock()
        self.full_walks = 0
        """Full collections that walked every object (tests and logs read it)."""
        self.installed = False
        self._thresholds = gc.get_threshold()

    def install(self) -> Collector:
        if not self.installed:
            gc.callbacks.append(self._on_collection)
            self.installed = True
            self._thresholds = gc.get_threshold()
            gc.set_threshold(YOUNG, *self._thresholds[1:])
            gc.freeze()  # what exists now (modules, the loaded server) is long-lived
        return self

    def uninstall(self) -> None:
        """Remove the policy and unfreeze everything (the collector as Python has it)."""
        if self.installed:
            gc.callbacks.remove(self._on_collection)
            self.installed = False
            gc.set_threshold(*self._thresholds)
        gc.unfreeze()

    def _on_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = self.clock()
        if gc.get_freeze_count() == 0:  # this collection walked everything
            self.full_walks += 1
            self.last_full_walk = now
        if now - self.last_full_walk >= self.full_walk_every:
            gc.unfreeze()  # the next full collection walks every object
        else:
            gc.freeze()


def install(full_walk_every: float = FULL_WALK_EVERY) -> Collector:
    """Pace this process's garbage collection for latency (see the module docstring)."""
    return Collector(full_walk_every).install()
