"""The Reversi computer opponent as a game plug-in: the position as plain data in the
room, the search in a worker process."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from ..base import JSON, ComputerPlayer, Game
from .ai import LEVELS, choose_move, position_after

REFERENCE: Mapping[str, tuple[float, float]] = {"easy": (18.0, 1.0), "hard": (26.0, 1.0)}
"""Each level's fixed rating belief (mu, sigma): easy shows 1600, hard 1920."""

CLOCK_SHARE = 20
"""With a clock, a move takes at most this fraction of the time left (1/20)."""


class ReversiComputer(ComputerPlayer):
    """``easy`` is greedy; ``hard`` searches (alpha-beta, exact near the end)."""

    levels: tuple[str, ...] = LEVELS
    reference: ClassVar[Mapping[str, tuple[float, float]]] = REFERENCE

    def request(self, game: Game, player: str) -> JSON:
        view = game.view(player)
        request: JSON = {"size": view["size"], "moves": [list(m) for m in view["moves"]]}
        clock = view.get("clock")
        if clock is not None:  # what the mover has left (fixed while it thinks)
            request["time_left"] = clock["remaining"].get(player)
        return request

    def think(self, request: JSON, level: str, budget: float) -> JSON:
        pos = position_after(int(request["size"]), [(int(x), int(y)) for x, y in request["moves"]])
        left = request.get("time_left")
        if isinstance(left, int | float) and left > 0:
            budget = min(budget, float(left) / CLOCK_SHARE)
        x, y = choose_move(pos, level, budget)
        return {"x": x, "y": y}


COMPUTER = ReversiComputer()
