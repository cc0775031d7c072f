"""The hard engine's compiled search core (ai/_core.c), when it was built.

The C core runs the same kind of search as the Python engine (threat-aware PVS,
VCF) some 50-100 times faster, so a move searches far deeper in the same time.
It is optional: an install without a C compiler has no `_core` and the engine
stays pure Python. It does not know renju fouls, so renju stays in Python.
Setting GRIDHALL_PURE_PYTHON=1 forces the Python engine (tests, comparisons).
"""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import TYPE_CHECKING

from gridhall.server.games.gomoku.ai import clock

if TYPE_CHECKING:
    from gridhall.server.games.gomoku.ai.hard import Stats
    from gridhall.server.games.gomoku.ai.position import Position

_core: ModuleType | None
try:
    from gridhall.server.games.gomoku.ai import _core
except ImportError:  # not built: no compiler where it was installed
    _core = None

ENV = "GRIDHALL_PURE_PYTHON"
"""Set (to anything but "" or "0") to keep every search in Python."""
RULES = {"freestyle": 0, "standard": 1}
"""Rule sets the core plays (its code for each); renju's fouls are Python's."""
SIZES = range(5, 21)
"""Board sizes the core plays (15x15, 19x19, Gomocup's 20x20, ...)."""


def built() -> bool:
    """Was the C core compiled into this install?"""
    return _core is not None


def usable(rule: str, size: int) -> bool:
    """Will a search under `rule` on a `size` board run in the C core?"""
    return (
        _core is not None
        and rule in RULES
        and size in SIZES
        and os.environ.get(ENV, "") in ("", "0")
    )


def search(pos: Position, seconds: float, stats: Stats) -> int:
    """The C core's move (a point index of `pos`) for the side to move, within
    `seconds` on the engine's clock; fills `stats` as the Python engine does."""
    assert _core is not None
    stones = [(*pos.xy(p), pos.cells[p]) for p in pos.stack]
    cpu = clock.now is time.process_time
    x, y, score, depth, nodes, reason = _core.search(
        pos.size, RULES[pos.rule], stones, pos.to_move, seconds, cpu
    )
    stats.nodes += nodes
    stats.depth, stats.score, stats.reason = depth, score, reason
    return pos.grid.index(x, y)
