"""A finished co-op Minesweeper game re-run for its replay: every logged action in
order (joins and leavers too); hints are worked out again by the same search, which is
deterministic. A replay's view adds ``hit`` [[x, y, PLAYER_ID]] (who set off each
mine); the last frame shows every mine, as the finished game's view does."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridhall.protocol import Termination
from gridhall.protocol.cells import cell_name

from ..base import JSON, GameError
from ..replay import Action, Run, skipped
from .game import ACTIONS, MinesweeperGame, from_layout


class MinesweeperRun(Run):
    """Every action of the log, on the layout the game had."""

    def __init__(self, record: JSON) -> None:
        opts = record["options"]
        self.record = record
        joined = {a[0] for a in record["actions"] if a[1] == "join"}
        players = [p for p in record["players"] if p not in joined]
        if record["layout"] or record["first_click"]:
            self.game = from_layout(
                [(x, y) for x, y in record["layout"]],
                None,
                width=opts["width"],
                height=opts["height"],
                options=opts,
                seed=record["seed"],
                players=players,
            )
            self.game.first_click = record["first_click"]
        else:  # nothing was revealed: mines were never placed
            self.game = MinesweeperGame(opts, players, record["seed"], 0.0)
        self.hit: list[list[Any]] = []

    def view(self) -> JSON:
        view = self.game.view(None)
        if self.hit:
            view["hit"] = [list(h) for h in self.hit]
        return view

    def actions(self) -> Iterator[Action]:
        game = self.game
        for entry in self.record["actions"]:
            player, action, x, y, mark, t = entry
            if action == "hint-none":  # a hint that found nothing changed nothing
                continue
            exploded = len(game.exploded)
            try:
                self._apply(player, action, x, y, mark, float(t))
            except (GameError, ValueError) as exc:
                skipped("minesweeper", entry, exc)
                continue
            w = game.width
            self.hit += [[c % w, c // w, player] for c in game.exploded[exploded:]]
            yield float(t), player, None if x is None else cell_name(x, y)

    def _apply(
        self, player: str, action: str, x: int | None, y: int | None, mark: str | None, t: float
    ) -> None:
        game = self.game
        if action in ("join", "rejoin"):
            game.add_player(player, t)
        elif action not in ACTIONS:
            game.resign(player, t, Termination(action))
        else:
            move: JSON = {"action": action}
            if x is not None:
                move.update(x=x, y=y)
            if mark is not None:
                move["mark"] = mark
            game.apply(player, move, t)
