"""How a room creates Link-match races: options, seats, new games."""

from __future__ import annotations

import math

from ..base import JSON, Game, GameSpec, OptionError, StartPolicy
from ...jobs import Job
from .board import Rows
from .game import LinkMatchGame, from_state
from .jobs import board_job

MAX_RACERS = 8
_KNOWN = ("width", "height", "kinds", "time_limit", "gravity", "hint_penalty", "countdown")


def _given(raw: JSON, name: str) -> object:
    return raw.get(name)


def _whole(raw: JSON, name: str, default: int, lo: int, hi: int) -> int:
    value = _given(raw, name)
    if value is None:
        value = default
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise OptionError(f"Option `{name}` must be a whole number from {lo} to {hi}; "
                          f"got {value!r:.40}.")
    return value


def _seconds(raw: JSON, name: str, default: float, lo: float, hi: float) -> float:
    value = _given(raw, name)
    if value is None:
        value = default
    if (not isinstance(value, int | float) or isinstance(value, bool)
            or not math.isfinite(value) or not lo <= value <= hi):
        raise OptionError(f"Option `{name}` must be a number of seconds from {lo:g} to "
                          f"{hi:g}; got {value!r:.40}.")
    return value


class LinkMatchSpec:
    """Link-match: 1 to 8 racers, started by the room's creator."""

    def __init__(self) -> None:
        self.name = "linkmatch"
        self.start: StartPolicy = "manual"
        self.min_players = 1
        self.computer = None

    def parse_options(self, raw: JSON) -> JSON:
        """Validate and fill defaults; kinds default to 36 or what the board can hold."""
        if not isinstance(raw, dict):
            raise OptionError("Link-match options must be a map.")
        unknown = sorted(str(k) for k in raw if k not in _KNOWN)
        if unknown:
            raise OptionError(f"Unknown Link-match option(s) {', '.join(unknown)}; "
                              f"known options are {', '.join(_KNOWN)}.")
        width = _whole(raw, "width", 16, 2, 30)
        height = _whole(raw, "height", 9, 2, 16)
        cells = width * height
        if cells % 2:
            raise OptionError(f"A {width}x{height} board has an odd number of cells; "
                              "make width or height even so every tile has a partner.")
        gravity = raw.get("gravity")
        if gravity is None:
            gravity = "none"
        if gravity not in ("none", "down"):
            raise OptionError(f"Option `gravity` must be `none` or `down`; got {gravity!r:.40}.")
        return {
            "width": width,
            "height": height,
            "kinds": _whole(raw, "kinds", min(36, cells // 2), 1, cells // 2),
            "time_limit": _whole(raw, "time_limit", 600, 10, 3600),
            "gravity": gravity,
            "hint_penalty": _seconds(raw, "hint_penalty", 10, 0, 600),
            "countdown": _seconds(raw, "countdown", 3, 0, 10),
        }

    def max_players(self, options: JSON) -> int:
        """Up to eight racers, whatever the options."""
        return MAX_RACERS

    def new_game_work(self, options: JSON, seed: int) -> Job:
        """Making the board is heavy: the room runs this job first and passes the
        answer to :meth:`new_game` as ``prepared``."""
        return board_job(options, seed)

    def new_game(self, options: JSON, players: list[str], round_no: int, seed: int,
                 now: float, prepared: Rows | None = None) -> Game:
        """A race among the seated players on a board made from ``seed``."""
        return LinkMatchGame(options, players[:MAX_RACERS], seed, now, board=prepared)

    def restore_game(self, state: JSON) -> Game:
        """A race as :meth:`LinkMatchGame.state` saved it (a room's snapshot)."""
        return from_state(state)


SPEC: GameSpec = LinkMatchSpec()
