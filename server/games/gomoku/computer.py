"""The Gomoku computer opponent as a game plug-in: the position as plain data in
the room, the search in a worker process."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..base import JSON, ComputerPlayer, Game
from .ai import LEVELS, choose_move, warm_up

REFERENCE: Mapping[str, tuple[float, float]] = {"easy": (20.0, 1.0), "hard": (28.0, 1.0)}
"""Each level's fixed rating belief (mu, sigma): easy shows 1680, hard 2000."""


class GomokuComputer(ComputerPlayer):
    """``easy`` counts winning lines; ``hard`` searches threats and alpha-beta."""

    levels: tuple[str, ...] = LEVELS
    reference: ClassVar[Mapping[str, tuple[float, float]]] = REFERENCE

    def request(self, game: Game, player: str) -> JSON:
        view = game.view(player)
        request: JSON = {
            "moves": [list(m) for m in view["moves"]],
            "size": view["size"],
            "rule": view["rule"],
        }
        clock = view.get("clock")
        if clock is not None:  # what the mover has left (fixed while it thinks)
            request["time_left"] = clock["remaining"].get(player)
        return request

    def warm_up(self) -> None:
        """Fill the search's lazy tables (in a worker, before its first move)."""
        warm_up()

    def think(self, request: JSON, level: str, budget: float) -> JSON:
        moves = [(int(x), int(y)) for x, y in request["moves"]]
        x, y = choose_move(moves, int(request["size"]), str(request["rule"]), level, budget)
        return {"x": x, "y": y}


COMPUTER = GomokuComputer()
