"""A Gomoku game between two seated players: turns, fives, renju fouls, the move limit.

The seats, clock, offers, log and snapshot are a :class:`ClockedGame`'s; :func:`from_state`
makes a game again from its ``state``."""

from __future__ import annotations

from typing import Any

from gridhall.protocol import Outcome
from gridhall.protocol.cells import board_span, cell_name
from gridhall.protocol.games.gomoku import GomokuEnd

from ..base import JSON, GameError, Played
from ..clocked import ClockedGame
from .rules import BLACK, WHITE, Board, Rule

COLOUR_NAMES = {BLACK: "black", 2: "white"}


def _foul(board: Board, x: int, y: int) -> str | None:
    """The renju foul black would commit at (x, y), if any."""
    from .renju import foul  # imported late: only renju games need it

    black = board.moves[0::2]
    white = board.moves[1::2]
    return foul(black, white, (x, y), board.size)


class GomokuGame(ClockedGame):
    """Two players alternate stones; seat order and ``round_no`` fix the colours.

    Colours swap every round (seat 0 is black in round 0). Optional clock:
    ``clock`` = {"minutes", "increment"}; the side to move loses on time.
    """

    def __init__(self, options: JSON, players: list[str], round_no: int, now: float) -> None:
        if len(players) != 2:
            raise ValueError("Gomoku needs exactly two players")
        self.options = options
        self.rule: Rule = options["rule"]
        self.board = Board(options["size"])
        limit: int | None = options.get("move_limit")
        cells = self.board.size * self.board.size
        self._last_move = cells if limit is None else min(cells, limit)
        """Stones on the board that end the game in a draw: it is full, or at the move limit."""
        self._seat(players, round_no, now, options.get("clock"))

    # -- queries --------------------------------------------------------------
    def turn(self) -> str | None:
        if self.result is not None:
            return None
        return self._order[len(self.board.moves) % 2]

    shared_view = True
    """Everything in Gomoku is public: every recipient gets the same view and move."""

    def view(self, recipient: str | None) -> JSON:
        """Everything in Gomoku is public, so every recipient gets the same view.

        ``moves`` holds the board's own ``(x, y)`` tuples (sent as arrays): a move
        adds no object the garbage collector keeps walking, and no pair is copied."""
        board = self.board
        moves = board.moves
        view: JSON = {
            "size": board.size,
            "rule": self.rule,
            "moves": list(moves),
            "next": COLOUR_NAMES[WHITE if len(moves) % 2 else BLACK],  # ``board.to_move``
            "colors": dict(self.colors),
        }
        if moves:
            view["last"] = list(moves[-1])
        if self.pending is not None:
            view["pending"] = dict(self.pending)
        if self.remaining is not None:
            view["clock"] = {
                "remaining": dict(self.remaining),
                "increment": self.increment,
                "running": self.turn(),
                "since": self.turn_started,
            }
        if self.result is not None and "line" in self.result:
            view["line"] = self.result["line"]
        return view

    def _moves_played(self) -> list[tuple[int, int]]:
        return self.board.moves

    # -- actions --------------------------------------------------------------
    def apply(self, player: str, move: JSON, now: float, prepared: Any = None) -> Played:
        """Play ``player``'s stone. Every check reads the board directly (type() is
        int: a bool is not a coordinate): this runs on every move a server judges."""
        if self.result is not None or player not in self.colors:
            self._require_playing(player)  # the refusal that fits
        x: Any = move.get("x")
        y: Any = move.get("y")
        if type(x) is not int or type(y) is not int:
            if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y)):
                raise GameError("bad-message", "A Gomoku move is {x: int, y: int}.")
            x, y = int(x), int(y)  # an int subclass (never from the codec)
        board = self.board
        if self._order[len(board.moves) % 2] != player:
            raise GameError("not-your-turn", "Wait for your opponent's move.")
        size = board.size
        if not (0 <= x < size and 0 <= y < size):
            raise GameError(
                "illegal-move",
                f"That point is off the {size}×{size} board ({board_span(size, size)}).",
            )
        if board.cells[y * size + x]:
            raise GameError("illegal-move", f"{cell_name(x, y)} already holds a stone.")
        if self.rule == "renju" and board.to_move == BLACK:
            foul = _foul(board, x, y)
            if foul is not None:
                raise GameError(
                    "illegal-move", f"{cell_name(x, y)} is forbidden for black under renju: {foul}."
                )
        self._charge_clock(player, now)
        board.place(x, y)
        self._note("move", player, x, y, round(now - self.started_at, 3))
        self.pending = None
        if board.wins_at(x, y, self.rule):
            self._finish(player, GomokuEnd.FIVE, line=self._line(x, y))
        elif len(board.moves) >= self._last_move:  # the board is full, or the move limit
            self._finish(None, GomokuEnd.DRAW)
        return Played(move={"x": x, "y": y})

    def _line(self, x: int, y: int) -> list[list[int]]:
        """The stones of the winning row through (x, y), for clients to highlight."""
        from .rules import DIRECTIONS

        colour = self.board.at(x, y)
        for dx, dy in DIRECTIONS:
            if self.board.run_length(x, y, dx, dy) >= 5:
                cells = [[x, y]]
                for sign in (1, -1):
                    cx, cy = x + sign * dx, y + sign * dy
                    while self.board.on_board(cx, cy) and self.board.at(cx, cy) == colour:
                        cells.append([cx, cy])
                        cx, cy = cx + sign * dx, cy + sign * dy
                return sorted(cells)
        return []

    def _finish(self, winner: str | None, reason: str, **extra: Any) -> None:
        self.result = Outcome(reason, winner, extra).to_map()
        self.pending = None

    def _can_take_back(self, player: str) -> bool:
        first = 0 if self.colors[player] == "black" else 1
        return len(self.board.moves[first::2]) > 0

    def _take_back(self, requester: str, now: float) -> None:
        """Undo the requester's last stone and the reply after it, if any."""
        if self.turn() == requester:  # the opponent already replied
            self.board.undo()
        self.board.undo()
        self.turn_started = now


def from_state(state: JSON) -> GomokuGame:
    """The game :meth:`GomokuGame.state` described."""
    black, white = state["order"]
    game = GomokuGame(state["options"], [black, white], 0, float(state["started_at"]))
    for x, y in state["moves"]:
        game.board.place(int(x), int(y))
    game._restore(state)
    return game
