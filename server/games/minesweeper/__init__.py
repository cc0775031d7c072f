"""Co-op Minesweeper: pure rules, solver and generator (no I/O).

Public names: ``SPEC`` (the room's GameSpec), ``deduce`` (what a view proves),
``from_layout`` (a game on a given layout and first click) and ``replay``.
"""

from .game import MinesweeperGame, from_layout, replay
from .solver import deduce
from .spec import SPEC

__all__ = ["SPEC", "MinesweeperGame", "deduce", "from_layout", "replay"]
