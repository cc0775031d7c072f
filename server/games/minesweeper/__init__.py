"""Co-op Minesweeper: pure rules, solver and generator (no I/O).

Public names: ``SPEC`` (the room's GameSpec), ``deduce`` (what a view proves),
``best_move`` (where a solo player should click next), ``hint`` (a hint within
a work budget), ``generate_no_guess`` (a board solvable without guessing),
``from_layout`` (a game on a given layout and first click) and ``replay``.
The pure functions take and return plain values, so a process pool can run
them.
"""

from .game import MinesweeperGame, from_layout, replay
from .generate import GenerationFailed, generate_no_guess
from .hints import Hint, hint
from .solver import deduce
from .spec import SPEC
from .strategy import best_move

__all__ = [
    "SPEC",
    "GenerationFailed",
    "Hint",
    "MinesweeperGame",
    "best_move",
    "deduce",
    "from_layout",
    "generate_no_guess",
    "hint",
    "replay",
]
