"""A Reversi game between two seated players: turns, passes, the end, offers, clocks.

The server plays a pass itself: after a move that leaves the opponent without a legal
move, the turn stays with the mover, the ``moved`` event says who passed (``pass``) and
a ``pass`` notice follows. The game ends when neither side can move; the one with more
discs wins. The seats, clock, offers, log and snapshot are a :class:`ClockedGame`'s;
:func:`from_state` makes a game again from its ``state``."""

from __future__ import annotations

from typing import Any

from gridhall.protocol import Outcome
from gridhall.protocol.cells import board_span, cell_name
from gridhall.protocol.games.reversi import ReversiEnd

from ..base import JSON, GameError, Played
from ..clocked import ClockedGame
from .board import BLACK, COLOUR_NAMES, WHITE, Position, cells_of


def clock_of(value: str | None) -> JSON | None:
    """The option ``"10+5"`` (one of the description's choices) as ``{minutes, increment}``."""
    if not value:
        return None
    minutes, increment = value.split("+")
    return {"minutes": int(minutes), "increment": int(increment)}


class ReversiGame(ClockedGame):
    """Two players alternate discs; seat order and ``round_no`` fix the colours (seat 0 is
    black in round 0, colours swap every round). ``clock`` = "minutes+increment"."""

    shared_view = True
    """Everything in Reversi is public: every recipient gets the same view and move."""

    def __init__(self, options: JSON, players: list[str], round_no: int, now: float) -> None:
        if len(players) != 2:
            raise ValueError("Reversi needs exactly two players")
        self.options = options
        self.position = Position.start(int(options["size"]))
        self._seat(players, round_no, now, clock_of(options.get("clock")))
        black, white = self._order
        self.by_colour = {BLACK: black, WHITE: white}
        self.moves: list[tuple[int, int]] = []
        self.before: list[Position] = []
        """The position before each move of :attr:`moves` (take-backs go back to one)."""
        self.flipped = 0
        """The discs the last move turned over (a bit set), for the boards."""

    # -- queries --------------------------------------------------------------
    def turn(self) -> str | None:
        return None if self.result is not None else self.by_colour[self.position.to_move]

    def _passed(self) -> int | None:
        """The colour that had to pass after the last move, if one did."""
        if not self.before or self.result is not None:
            return None
        mover = self.before[-1].to_move
        return 3 - mover if self.position.to_move == mover else None

    def view(self, recipient: str | None) -> JSON:
        """Everything is public, so every recipient gets the same view."""
        pos = self.position
        black, white = pos.counts()
        view: JSON = {
            "size": pos.size,
            "board": pos.rows(),
            "moves": [list(m) for m in self.moves],
            "next": COLOUR_NAMES[pos.to_move],
            "colors": dict(self.colors),
            "counts": {"black": black, "white": white},
            "legal": [] if self.result is not None else [list(c) for c in pos.legal_cells()],
        }
        if self.moves:
            view["last"] = list(self.moves[-1])
            view["flipped"] = [list(c) for c in cells_of(self.flipped, pos.geometry)]
        passed = self._passed()
        if passed is not None:
            view["passed"] = COLOUR_NAMES[passed]
        if self.pending is not None:
            view["pending"] = dict(self.pending)
        if self.remaining is not None:
            view["clock"] = {
                "remaining": dict(self.remaining),
                "increment": self.increment,
                "running": self.turn(),
                "since": self.turn_started,
            }
        return view

    def visible_move(self, by: str, move: JSON, recipient: str | None) -> JSON:
        return move

    def _moves_played(self) -> list[tuple[int, int]]:
        return self.moves

    # -- actions --------------------------------------------------------------
    def _check(self, player: str, move: JSON) -> tuple[int, int, int]:
        """The move's cell and the discs it flips, or GameError (nothing changed)."""
        self._require_playing(player)
        x, y = move.get("x"), move.get("y")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
            raise GameError("bad-message", "A Reversi move is {x: int, y: int}.")
        assert isinstance(x, int) and isinstance(y, int)
        if self.turn() != player:
            raise GameError("not-your-turn", "Wait for your opponent's move.")
        pos = self.position
        if not pos.on_board(x, y):
            raise GameError(
                "illegal-move",
                f"That cell is off the {pos.size}×{pos.size} board "
                f"({board_span(pos.size, pos.size)}).",
            )
        if pos.at(x, y):
            raise GameError("illegal-move", f"{cell_name(x, y)} already holds a disc.")
        flipped = pos.flips(x, y)
        if not flipped:
            raise GameError("illegal-move", f"A disc on {cell_name(x, y)} would turn over no disc.")
        return x, y, flipped

    def apply(self, player: str, move: JSON, now: float, prepared: Any = None) -> Played:
        x, y, flipped = self._check(player, move)
        self._charge_clock(player, now)
        self.before.append(self.position)
        self.position = self.position.play(x, y)
        self.moves.append((x, y))
        self.flipped = flipped
        self.pending = None
        self._note("move", player, x, y, round(now - self.started_at, 3))
        out: JSON = {
            "x": x,
            "y": y,
            "flipped": [list(c) for c in cells_of(flipped, self.position.geometry)],
        }
        notices: list[JSON] = []
        if self.position.over():
            self._finish_by_discs()
        elif self.position.to_move == self.before[-1].to_move:
            passer = self._other(player)
            out["pass"] = passer
            notices.append({"type": "pass", "player": passer})
        return Played(move=out, notices=notices)

    def _discs(self) -> JSON:
        black, white = self.position.counts()
        return {"black": black, "white": white}

    def _finish_by_discs(self) -> None:
        black, white = self.position.counts()
        winner = None if black == white else self.by_colour[BLACK if black > white else WHITE]
        self.result = {"winner": winner, "reason": ReversiEnd.DISCS.value, "discs": self._discs()}
        self.pending = None

    def _finish(self, winner: str | None, reason: str, **extra: Any) -> None:
        self.result = Outcome(reason, winner, {**extra, "discs": self._discs()}).to_map()
        self.pending = None

    def refused(self, player: str, move: JSON, now: float) -> None:
        """Refused Reversi moves are not counted."""

    def _can_take_back(self, player: str) -> bool:
        return self._last_own(player) is not None

    def _last_own(self, player: str) -> int | None:
        """The index in :attr:`moves` of ``player``'s latest disc."""
        colour = BLACK if self.colors[player] == "black" else WHITE
        return next(
            (i for i in range(len(self.before) - 1, -1, -1) if self.before[i].to_move == colour),
            None,
        )

    def _take_back(self, requester: str, now: float) -> None:
        """Back to before the requester's latest disc (and every reply after it)."""
        index = self._last_own(requester)
        if index is None:  # (cannot happen: the request checked it)
            return
        self.position = self.before[index]
        del self.before[index:], self.moves[index:]
        self.flipped = self._replayed_flips()
        self.turn_started = now

    def _replayed_flips(self) -> int:
        """What the (new) last move turned over."""
        if not self.moves:
            return 0
        x, y = self.moves[-1]
        return self.before[-1].flips(x, y)

    def add_player(self, player: str, now: float) -> bool:
        return False


def from_state(state: JSON) -> ReversiGame:
    """The game :meth:`ReversiGame.state` described: its moves played again from the start."""
    black, white = state["order"]
    game = ReversiGame(state["options"], [black, white], 0, float(state["started_at"]))
    for x, y in state["moves"]:
        game.before.append(game.position)
        game.position = game.position.play(int(x), int(y))
        game.moves.append((int(x), int(y)))
    game.flipped = game._replayed_flips()
    game._restore(state)
    return game
