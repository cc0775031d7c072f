"""A finished game's record -> the views it went through, for ``get-replay``.

The record (``game.record()``, kept by the store) is re-run through the game's own
pure rules, so a replay shows exactly what the rules made of each action and
clients need no rules of their own: ``start`` is a spectator's view before the
first action, and step k is the view after k actions, in the ``moved`` delta form
(:func:`gridhall.protocol.delta.diff` against the frame before).

What a replay adds to a spectator's view, because the game is over:

- Gomoku: nothing (its final view carries the winning ``line``); the clock is left
  out (it means nothing in a replay).
- Minesweeper: ``hit`` [[x, y, PLAYER_ID]] (who set off each mine); the last frame
  shows every mine, as the finished game's view does.
- Link-match: ``boards`` {PLAYER_ID: rows}, every racer's board, and on a link's
  step the link's ``path``. Wrong links and hints change no board and are not steps.

Building a page re-runs the whole record (the rules are cheap next to views) but
makes views only for the page's steps, so memory is bounded by a page: at most
:data:`~gridhall.protocol.messages.REPLAY_PAGE` steps and :data:`PAGE_BYTES`.
An action the rules refuse on the re-run (a record from an older, different rule
set) is skipped, never fatal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import msgpack

from gridhall.protocol import Termination
from gridhall.protocol.cells import cell_name
from gridhall.protocol.delta import diff
from gridhall.protocol.messages import REPLAY_PAGE

from ..games.base import GameError
from ..games.gomoku.game import GomokuGame
from ..games.linkmatch.board import copy_rows
from ..games.linkmatch.game import LinkMatchGame
from ..games.minesweeper.game import ACTIONS as MINESWEEPER_ACTIONS
from ..games.minesweeper.game import MinesweeperGame, from_layout

log = logging.getLogger("gridhall.replays")

JSON = dict[str, Any]

PAGE_BYTES = 4 * 2**20
"""Encoded steps one answer carries at most (clients accept frames of 8 MiB)."""


class ReplayError(ValueError):
    """A stored record that cannot be replayed at all (not the client's fault)."""


Action = tuple[float, "str | None", "str | None"]
"""What one applied action was: (seconds since the start, who, a label)."""


class Run(Protocol):
    """A record being re-run: :meth:`actions` applies one action per item yielded;
    :meth:`view` is the frame after the latest one."""

    def view(self) -> JSON: ...

    def actions(self) -> Iterator[Action]: ...


@dataclass
class Page:
    """One answer's worth of a replay."""

    start: JSON
    steps: list[JSON]
    total: int
    next: int | None


def page(
    game: str,
    record: JSON,
    first: int = 0,
    limit: int = REPLAY_PAGE,
    max_bytes: int = PAGE_BYTES,
    duration: float | None = None,
) -> Page:
    """Steps ``first``.. of the game's replay (``start``: the frame before them).
    ``duration``: seconds from the game's start to its end (a race's clocks may end
    it after the last action). Raises ReplayError for a record that is not
    replayable, IndexError when ``first`` is past the last step."""
    run = make_run(game, record, duration)
    prev: JSON | None = run.view() if first == 0 else None
    start = prev
    steps: list[JSON] = []
    size = 0
    k = 0
    more: int | None = None
    for t, by, label in run.actions():
        k += 1
        if k < first or more is not None:
            continue
        view = run.view()
        if k == first:
            prev = start = view
            continue
        if len(steps) >= limit or size >= max_bytes:
            more = k - 1
            continue
        assert prev is not None
        parts = diff(prev, view)
        whole, patches = parts if parts is not None else (view, {})
        step: JSON = {"t": round(max(0.0, t), 3), "by": by, "view": whole, "delta": patches}
        if label:
            step["label"] = label
        size += len(msgpack.packb(step, use_bin_type=True))
        steps.append(step)
        prev = view
    if start is None:
        raise IndexError(f"this replay has {k} steps")
    return Page(start, steps, k, more)


def make_run(game: str, record: JSON, duration: float | None = None) -> Run:
    """The re-run of a stored ``record`` of ``game``."""
    try:
        if game == "gomoku":
            return GomokuRun(record)
        if game == "minesweeper":
            return MinesweeperRun(record)
        if game == "linkmatch":
            return LinkMatchRun(record, duration)
    except (KeyError, TypeError, ValueError, IndexError, GameError) as exc:
        raise ReplayError(f"the stored {game} record cannot be replayed: {exc!r:.200}") from None
    raise ReplayError(f"no replays for {game!r} games")


def _skipped(game: str, action: Any, exc: Exception) -> None:
    log.warning("replay of a %s game skips %r: %s", game, action, exc)


class GomokuRun:
    """The stones of the final position, black's first; takebacks are gone.
    ``t`` comes from the game's log when it accounts for every stone."""

    def __init__(self, record: JSON) -> None:
        colors: dict[str, str] = record["colors"]
        black = next(p for p, c in colors.items() if c == "black")
        white = next(p for p, c in colors.items() if c == "white")
        self.game = GomokuGame(dict(record["options"]), [black, white], 0, 0.0)
        self.moves = [(int(x), int(y)) for x, y in record["moves"]]
        self.times = _gomoku_times(record, self.moves)

    def view(self) -> JSON:
        view = self.game.view(None)
        view.pop("clock", None)
        view.pop("pending", None)
        return view

    def actions(self) -> Iterator[Action]:
        for n, (x, y) in enumerate(self.moves):
            by = self.game.turn()
            if by is None:
                _skipped("gomoku", (x, y), ValueError("the game was already over"))
                return
            try:
                self.game.apply(by, {"x": x, "y": y}, self.times[n])
            except GameError as exc:
                _skipped("gomoku", (x, y), exc)
                continue
            yield self.times[n], by, cell_name(x, y)


def _gomoku_times(record: JSON, moves: list[tuple[int, int]]) -> list[float]:
    """Seconds since the start at which each stone went down (0 when unknown)."""
    from .game_export import move_times  # late: game_export imports the store

    ms = move_times(record, tuple(moves))
    if ms is None:
        return [0.0] * len(moves)
    out: list[float] = []
    total = 0
    for m in ms:
        total += m
        out.append(total / 1000)
    return out


class MinesweeperRun:
    """Every logged action in order (joins and leavers too); hints are worked out
    again by the same search, which is deterministic."""

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
                _skipped("minesweeper", entry, exc)
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
        elif action not in MINESWEEPER_ACTIONS:
            game.resign(player, t, Termination(action))
        else:
            move: JSON = {"action": action}
            if x is not None:
                move.update(x=x, y=y)
            if mark is not None:
                move["mark"] = mark
            game.apply(player, move, t)


class LinkMatchRun:
    """Every racer's links, shuffles and resignations on one timeline: a racer's
    log times are their clock (time since the start plus hint penalties), so the
    penalties so far are taken off to order the racers' actions."""

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
                _skipped("linkmatch", entry, exc)
                continue
            yield wall, player, label
        if game.result is None and self.end is not None:
            game.tick(self.end)
            if game.result is not None:  # the clock ended the race: a step by nobody
                self.path = None
                yield self.end, None, None
