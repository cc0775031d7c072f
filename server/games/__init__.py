"""Pure game rules, one package per game, and the registry of playable games."""

from __future__ import annotations

from .base import GameSpec
from .gomoku import SPEC as GOMOKU
from .linkmatch import SPEC as LINKMATCH
from .minesweeper import SPEC as MINESWEEPER
from .reversi import SPEC as REVERSI


def registry() -> dict[str, GameSpec]:
    """The games this server hosts, by protocol name."""
    return {
        "gomoku": GOMOKU,
        "minesweeper": MINESWEEPER,
        "linkmatch": LINKMATCH,
        "reversi": REVERSI,
    }
