"""A two-player game on a chess clock (time plus increment): the clock's shift over a
restart's downtime, its deadline and the time-out, written once for every such game."""

from __future__ import annotations

from gridhall.protocol import Termination

from .base import JSON, Game


class ClockedGame(Game):
    """A :class:`Game` whose player to move loses on time; the game keeps
    ``remaining`` (seconds per player, None without a clock), ``turn_started`` and
    ``started_at`` up to date as it is played."""

    started_at: float
    turn_started: float
    remaining: dict[str, float] | None

    def shift(self, seconds: float) -> None:
        self.started_at += seconds
        self.turn_started += seconds

    def deadline(self) -> float | None:
        turn = self.turn()
        if self.remaining is None or turn is None:
            return None
        return self.turn_started + self.remaining[turn]

    def tick(self, now: float) -> list[JSON]:
        deadline = self.deadline()
        turn = self.turn()
        if deadline is not None and turn is not None and now >= deadline:
            assert self.remaining is not None
            self.remaining[turn] = 0.0
            self.resign(turn, now, reason=Termination.TIMEOUT)
        return []
