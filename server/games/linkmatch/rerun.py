"""A finished Link-match race re-run for its replay: every racer's links, shuffles and
resignations on one timeline. A replay's view adds ``boards`` {PLAYER_ID: rows}, every
racer's board, and on a link's step the link's ``path``; wrong links and hints change no
board and are not steps.

A racer's log times are their clock (time since the start plus hint penalties), so the
penalties so far are taken off to order the racers' actions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridhall.protocol import Termination
from gridhall.protocol.cells import cell_name

from ..base import JSON, GameError
from ..replay import Action, Run, skipped
from .board import copy_rows
from .game import LinkMatchGame


class LinkMatchRun(Run):
    """The race on one timeline, every racer's board in each frame."""

    def __init__(self, record: JSON, duration: float | None = None) -> None:
        options = dict(record["options"])
        self.players: list[str] = list(record["players"])
        countdown = float(options.get("countdown") or 0)
        self.end = None if duration is None else duration - countdown
        """When the race ended, on the actions' timeline (its clocks may end it)."""
        self.game = LinkMatchGame(
            options, self.players, int(record["seed"]), -countdown, board=copy_rows(record["board"])
        )
        self.penalty = float(options.get("hint_penalty") or 0)
        self.timeline = self._timeline(record["actions"])
        self.path: list[Any] | None = None

    def _timeline(self, actions: dict[str, list[JSON]]) -> list[tuple[float, int, int, str, JSON]]:
        timeline = []
        for seat, player in enumerate(self.players):
            penalty = last = 0.0
            for n, entry in enumerate(actions.get(player) or []):
                wall = max(last, float(entry.get("t") or 0.0) - penalty)
                last = wall
                timeline.append((wall, seat, n, player, entry))
                if entry.get("action") == "hint" and entry.get("pair"):
                    penalty += self.penalty
        if timeline and all(type(item[4].get("n")) is int for item in timeline):
            # the order the game took them in; each racer's times are its own clock
            # to the millisecond, so two racers' can tie or cross by a fraction of one
            timeline.sort(key=lambda item: item[4]["n"])
            latest = 0.0
            for i, (wall, seat, k, player, entry) in enumerate(timeline):
                latest = max(latest, wall)
                timeline[i] = (latest, seat, k, player, entry)
        else:  # a record from before ``n``
            timeline.sort(key=lambda item: item[:3])
        return timeline

    def view(self) -> JSON:
        game = self.game
        view = game.view(None)
        view.pop("starts_in", None)
        view["boards"] = {p: copy_rows(r.rows) for p, r in game.racers.items()}
        if self.path is not None:
            view["path"] = [list(pt) for pt in self.path]
        return view

    def actions(self) -> Iterator[Action]:
        game = self.game
        for wall, _seat, _n, player, entry in self.timeline:
            action = entry.get("action")
            move: JSON = {"action": action}
            label = None
            try:
                if action == "link":
                    move.update(a=entry["a"], b=entry["b"])
                    if not entry.get("ok"):
                        game.refused(player, move, wall)
                        continue
                    game.apply(player, move, wall)
                    racer = game.racers[player]
                    self.path = racer.path
                    label = f"{cell_name(*entry['a'])}-{cell_name(*entry['b'])}"
                elif action == "hint":
                    game.apply(player, move, wall)
                    continue
                elif action == "shuffle":
                    if entry.get("auto"):  # made by the link before it
                        continue
                    game.apply(player, move, wall)
                    self.path = None
                elif action == "resign":
                    game.resign(player, wall, Termination(entry.get("reason") or "resign"))
                    self.path = None
                else:
                    continue
            except (GameError, ValueError, KeyError, TypeError) as exc:
                skipped("linkmatch", entry, exc)
                continue
            yield wall, player, label
        if game.result is None and self.end is not None:
            game.tick(self.end)
            if game.result is not None:  # the clock ended the race: a step by nobody
                self.path = None
                yield self.end, None, None
