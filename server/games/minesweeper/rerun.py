"""A finished co-op Minesweeper game re-run for its replay: every logged action in
order (joins and leavers too); hints are worked out again by the same search, which is
deterministic. A replay's view adds ``hit`` [[x, y, PLAYER_ID]] (who set off each
mine); the last frame shows every mine, as the finished game's view does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridhall.protocol.cells import cell_name

from ..base import JSON, GameError
from ..replay import Action, Run, skipped
from .game import apply_logged, replay_start


class MinesweeperRun(Run):
    """Every action of the log, on the layout the game had."""

    def __init__(self, record: JSON) -> None:
        self.record = record
        self.game = replay_start(record)
        self.hit: list[list[Any]] = []

    def view(self) -> JSON:
        view = self.game.view(None)
        if self.hit:
            view["hit"] = [list(h) for h in self.hit]
        return view

    def actions(self) -> Iterator[Action]:
        game = self.game
        for entry in self.record["actions"]:
            player, action, x, y, _mark, t = entry
            if action == "hint-none":  # a hint that found nothing changed nothing
                continue
            exploded = len(game.exploded)
            try:
                apply_logged(game, [*entry[:5], float(t)])
            except (GameError, ValueError) as exc:
                skipped("minesweeper", entry, exc)
                continue
            w = game.width
            self.hit += [[c % w, c // w, player] for c in game.exploded[exploded:]]
            yield float(t), player, None if x is None else cell_name(x, y)
