"""Gomoku room options and game creation."""

from __future__ import annotations

import re

from gridhall.protocol.games import options
from gridhall.protocol.games.engines import PREFIX, is_engine, with_engines
from gridhall.protocol.games.gomoku import GOMOKU

from ..base import JSON, OptionError, StartPolicy
from ..computers import REFERENCE
from .computer import COMPUTER
from .game import GomokuGame, from_state

AI_LEVELS = COMPUTER.levels


def _parse_clock(raw: object) -> JSON | None:
    """``"10+5"`` or ``{"minutes": 10, "increment": 5}`` -> the canonical map."""
    if raw is None:
        return None
    minutes: object
    increment: object
    if isinstance(raw, str):
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+)\s*", raw)
        if not m:
            raise OptionError("clock must look like '10+5' (minutes + increment seconds).")
        minutes, increment = float(m.group(1)), int(m.group(2))
    elif isinstance(raw, dict):
        minutes, increment = raw.get("minutes"), raw.get("increment", 0)
    else:
        raise OptionError("clock must be a string like '10+5' or a map.")
    for v in (minutes, increment):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise OptionError("clock minutes and increment must be numbers.")
    assert isinstance(minutes, (int, float)) and isinstance(increment, (int, float))
    if not (0 < minutes <= 180 and 0 <= increment <= 60):
        raise OptionError("clock: minutes 0..180 (not 0) and increment 0..60 seconds.")
    return {"minutes": minutes, "increment": increment}


class GomokuSpec:
    name = "gomoku"
    start: StartPolicy = "full"
    min_players = 2
    computer = COMPUTER

    def __init__(self, engines: tuple[str, ...] = ()) -> None:
        self.engines = engines
        """External engines offered as ``ai`` levels ``engine:NAME`` (server/io/engines.py)."""
        self.description = with_engines(GOMOKU, engines)

    def parse_options(self, raw: JSON) -> JSON:
        """Names, choices and bounds come from the description; here only what joins
        fields (renju's board, the move limit's board) and the free-form clock."""
        parsed = options.parse(self.description, raw, OptionError, custom=("clock",))
        size, rule, ai, move_limit = (
            parsed["size"],
            parsed["rule"],
            parsed["ai"],
            parsed["move_limit"],
        )
        if rule == "renju" and size != 15:
            raise OptionError("The renju rule is played on the 15x15 board.")
        if (
            ai is not None
            and ai not in AI_LEVELS
            and not (is_engine(ai) and ai[len(PREFIX) :] in self.engines)
        ):
            raise OptionError("ai must be 'easy' or 'hard'.")
        if move_limit is not None and move_limit > size * size:
            raise OptionError(f"move_limit must be an integer from 10 to {size * size}.")
        if parsed["rated"] and ai is not None and ai not in REFERENCE:
            raise OptionError(
                "A game against this computer cannot be rated: it has no reference rating."
            )
        out: JSON = {"size": size, "rule": rule}
        clock = _parse_clock(parsed["clock"])
        for key, value in (
            ("clock", clock),
            ("ai", ai),
            ("move_limit", move_limit),
            ("rated", parsed["rated"] or None),
        ):
            if value is not None:
                out[key] = value
        return out

    def max_players(self, options: JSON) -> int:
        return 2

    def new_game(
        self, options: JSON, players: list[str], round_no: int, seed: int, now: float
    ) -> GomokuGame:
        return GomokuGame(options, players, round_no, now)

    def restore_game(self, state: JSON) -> GomokuGame:
        """A game as :meth:`GomokuGame.state` saved it (a room's snapshot)."""
        return from_state(state)


SPEC = GomokuSpec()
