"""Gomoku as a game plug-in: room options, game creation, and what the rest of the
server needs of it (replays, history, ratings, analysis, record files, engines)."""

from __future__ import annotations

import re
from typing import Any

from gridhall.protocol.games import options
from gridhall.protocol.games.engines import PREFIX, is_engine, with_engines
from gridhall.protocol.games.gomoku import GOMOKU

from ..base import JSON, OptionError
from ..clocked import ClockedSpec
from .analyser import GomokuAnalyser
from .computer import COMPUTER
from .files import GomokuFiles
from .game import GomokuGame, from_state
from .piskvork.levels import PiskvorkBrains
from .rating import GomokuRating, stones
from .rerun import GomokuRun

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


class GomokuSpec(ClockedSpec):
    """Two rivals, rated, analysed, with PSQ files and Piskvork brains as levels."""

    computer = COMPUTER
    rating = GomokuRating()
    analysis = GomokuAnalyser()
    records = GomokuFiles()
    engines = PiskvorkBrains()

    def __init__(self, offered: tuple[str, ...] = ()) -> None:
        self.offered = offered
        """External engines offered as ``ai`` levels ``engine:NAME`` (``--engine``)."""
        self.description = with_engines(GOMOKU, offered)

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
            and not (is_engine(ai) and ai[len(PREFIX) :] in self.offered)
        ):
            raise OptionError("ai must be 'easy' or 'hard'.")
        if move_limit is not None and move_limit > size * size:
            raise OptionError(f"move_limit must be an integer from 10 to {size * size}.")
        if parsed["rated"] and ai is not None and ai not in self.references:
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

    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Any = None,
    ) -> GomokuGame:
        return GomokuGame(options, players, round_no, now)

    def restore_game(self, state: JSON) -> GomokuGame:
        """A game as :meth:`GomokuGame.state` saved it (a room's snapshot)."""
        return from_state(state)

    def replay(self, record: JSON, duration: float | None = None) -> GomokuRun:
        return GomokuRun(record)

    def moves(self, record: JSON) -> int:
        """Stones on the final board."""
        return stones(record)

    def with_engines(self, names: tuple[str, ...]) -> GomokuSpec:
        return GomokuSpec(names)


SPEC = GomokuSpec()
