"""A two-player game on a chess clock (time plus increment): the clock's shift over a
restart's downtime, its deadline and the time-out, and its replay's re-run, written once
for every such game."""

from __future__ import annotations

from collections.abc import Iterator

from gridhall.protocol import Termination
from gridhall.protocol.cells import cell_name

from .base import JSON, Game, GameError
from .replay import Action, Run, skipped


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


def black_then_white(record: JSON) -> list[str]:
    """A stored two-player game's players, black's first (the seats it began with)."""
    colors: dict[str, str] = record["colors"]
    return [next(p for p, c in colors.items() if c == want) for want in ("black", "white")]


class ClockedRun(Run):
    """A finished clocked game (of protocol name ``name``) re-run for its replay:
    ``moves`` (cells) played in order on ``game`` (new, black to move), each at its
    second in ``times``. The clock and any offer are left out of each frame (they mean
    nothing in a replay)."""

    def __init__(
        self, name: str, game: ClockedGame, moves: list[tuple[int, int]], times: list[float]
    ) -> None:
        self.name, self.game, self.moves, self.times = name, game, moves, times

    def view(self) -> JSON:
        view = self.game.view(None)
        view.pop("clock", None)
        view.pop("pending", None)
        return view

    def actions(self) -> Iterator[Action]:
        name = self.name
        for n, (x, y) in enumerate(self.moves):
            by = self.game.turn()
            if by is None:
                skipped(name, (x, y), ValueError("the game was already over"))
                return
            try:
                self.game.apply(by, {"x": x, "y": y}, self.times[n])
            except GameError as exc:
                skipped(name, (x, y), exc)
                continue
            yield self.times[n], by, cell_name(x, y)
