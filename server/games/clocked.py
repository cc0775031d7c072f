"""A two-player game on a chess clock (time plus increment): the seats and colours, the
clock's charge, shift over a restart's downtime, deadline and time-out, the offers (draw,
take-back), resigning, the bounded log, the record and the snapshot (``state`` / its
restore), and the replay's re-run, written once for every such game.

Take-backs can keep a game going for ever, so its log keeps its first :data:`MAX_LOG`
entries (counting the rest), and ``state`` lets a room snapshot it mid-game (a bounded
journal)."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator
from typing import Any

from gridhall.protocol import Termination
from gridhall.protocol.cells import cell_name

from .base import JSON, Game, GameError, GameSpec, StartPolicy
from .replay import Action, Run, skipped

MAX_LOG = 10_000
"""Log entries a game keeps (a full board takes fewer); later ones are counted."""
OFFERS = ("draw", "takeback")


class ClockedGame(Game):
    """A :class:`Game` of two seated players, black and white, whose player to move loses
    on time; the game keeps ``remaining`` (seconds per player, None without a clock),
    ``turn_started`` and ``started_at`` up to date as it is played. A game says how its
    moves are kept (:meth:`_moves_played`), how it ends (:meth:`_finish`) and how a
    take-back goes (:meth:`_can_take_back`, :meth:`_take_back`)."""

    options: JSON
    players: list[str]
    colors: dict[str, str]
    _order: tuple[str, str]
    """The seats by colour: black's player, then white's."""
    result: JSON | None
    pending: JSON | None
    log: list[tuple[Any, ...]]
    """What happened, in order: tuples, which the garbage collector stops tracking."""
    log_omitted: int
    """Entries past :data:`MAX_LOG`, not kept (the record says how many)."""
    started_at: float
    turn_started: float
    increment: float
    remaining: dict[str, float] | None

    def _seat(self, players: list[str], round_no: int, now: float, clock: JSON | None) -> None:
        """Seat order and ``round_no`` fix the colours (seat 0 is black in round 0, colours
        swap every round); ``clock`` is ``{minutes, increment}`` or None."""
        black, white = players if round_no % 2 == 0 else players[::-1]
        self.players = list(players)
        self.colors = {black: "black", white: "white"}
        self._order = (black, white)
        self.result = None
        self.pending = None
        self.log = []
        self.log_omitted = 0
        self.started_at = now
        self.turn_started = now
        self.increment = float(clock["increment"]) if clock else 0.0
        self.remaining = {p: clock["minutes"] * 60.0 for p in players} if clock else None

    # -- what a game says -----------------------------------------------------
    @abstractmethod
    def _moves_played(self) -> list[tuple[int, int]]:
        """The cells played so far, in order."""

    @abstractmethod
    def _finish(self, winner: str | None, reason: str, **extra: Any) -> None:
        """End the game: ``result`` set, any offer dropped."""

    @abstractmethod
    def _can_take_back(self, player: str) -> bool:
        """Whether ``player`` has a move on the board to take back."""

    @abstractmethod
    def _take_back(self, requester: str, now: float) -> None:
        """Undo the requester's latest move and every reply after it."""

    # -- record and snapshot --------------------------------------------------
    def record(self) -> JSON:
        return {
            "options": self.options,
            "colors": self.colors,
            "log": self.log,
            "log_omitted": self.log_omitted,
            "moves": [[x, y] for x, y in self._moves_played()],
        }

    def state(self) -> JSON:
        """Everything this game is, as plain data (the game's ``from_state`` makes it
        again, with :meth:`_restore`)."""
        return {
            "options": self.options,
            "players": list(self.players),
            "order": list(self._order),
            "moves": [[x, y] for x, y in self._moves_played()],
            "result": self.result,
            "pending": self.pending,
            "log": [list(e) for e in self.log],
            "log_omitted": self.log_omitted,
            "started_at": self.started_at,
            "turn_started": self.turn_started,
            "remaining": None if self.remaining is None else dict(self.remaining),
        }

    def _restore(self, state: JSON) -> None:
        """Take back from :meth:`state` all but the options, order and moves (with which
        the game was made again)."""
        self.players = list(state["players"])
        self.result = state["result"]
        self.pending = state["pending"]
        self.log = [tuple(e) for e in state["log"]]
        self.log_omitted = int(state["log_omitted"])
        self.turn_started = float(state["turn_started"])
        remaining = state["remaining"]
        self.remaining = None if remaining is None else {p: float(t) for p, t in remaining.items()}

    def _note(self, *entry: Any) -> None:
        """Append to the log, within :data:`MAX_LOG`."""
        if len(self.log) >= MAX_LOG:
            self.log_omitted += 1
        else:
            self.log.append(entry)

    # -- actions --------------------------------------------------------------
    def _require_playing(self, player: str) -> None:
        if self.result is not None:
            raise GameError("not-playing", "The game is over; ask for another with Play again.")
        if player not in self.colors:
            raise GameError("not-a-player", "Only the two seated players can do that.")

    def _charge_clock(self, player: str, now: float) -> None:
        if self.remaining is not None:
            self.remaining[player] += self.increment - (now - self.turn_started)
        self.turn_started = now

    def _other(self, player: str) -> str:
        return next(p for p in self.colors if p != player)

    def resign(self, player: str, now: float, reason: Termination = Termination.RESIGN) -> None:
        """``player`` gives up, or is forfeited with ``reason``; a player the host
        removed (``REMOVED``) ends the game with no winner: a kick never wins one."""
        if self.result is None and player in self.colors:
            self._note(reason.value, player, round(now - self.started_at, 3))
            if reason == Termination.REMOVED:
                self._finish(None, reason, removed=player)
            else:
                self._finish(self._other(player), reason, loser=player)

    def request(self, player: str, kind: str, now: float) -> JSON:
        self._require_playing(player)
        if kind not in OFFERS:
            raise GameError("bad-message", "Offers are 'draw' or 'takeback'.")
        if self.pending is not None:
            raise GameError("illegal-move", "An offer is already waiting for an answer.")
        if kind == "takeback" and not self._can_take_back(player):
            raise GameError("illegal-move", "You have no move to take back.")
        self.pending = {"kind": kind, "from": player}
        return {"kind": kind}

    def respond(self, player: str, kind: str, accept: bool, now: float) -> JSON:
        self._require_playing(player)
        pending = self.pending
        if pending is None or pending["kind"] != kind or pending["from"] == player:
            raise GameError("no-pending-request", f"There is no {kind} offer for you to answer.")
        self.pending = None
        if accept:
            self._note(kind, pending["from"], round(now - self.started_at, 3))
            if kind == "draw":
                self._finish(None, Termination.AGREED_DRAW)
            else:
                self._take_back(pending["from"], now)
        return {"kind": kind, "accept": accept}

    def shift(self, seconds: float) -> None:
        self.started_at += seconds
        self.turn_started += seconds

    def deadline(self) -> float | None:
        if self.remaining is None:  # no clock (every move asks): no need for the turn
            return None
        turn = self.turn()
        if turn is None:
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


class ClockedSpec(GameSpec):
    """The plug-in of a two-player clocked game: it starts when both seats are taken,
    holds exactly two, and saves its games (a room snapshots them as they go)."""

    start: StartPolicy = "full"
    min_players = 2
    saves_games = True

    def max_players(self, options: JSON) -> int:
        return 2
