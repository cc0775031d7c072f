"""Pure game rules, one package per game, and the registry of playable games."""

from __future__ import annotations

from .base import GameSpec
from .gomoku import SPEC as GOMOKU


def registry() -> dict[str, GameSpec]:
    """The games this server hosts, by protocol name."""
    games: dict[str, GameSpec] = {"gomoku": GOMOKU}
    return games
