"""A Gomoku game between two seated players: turns, fives, offers, clocks.

Take-backs can keep a game going forever, so its log keeps its first
:data:`MAX_LOG` entries (counting the rest), and :meth:`GomokuGame.state` /
:func:`from_state` let a room snapshot it mid-game (a bounded journal)."""

from __future__ import annotations

from typing import Any

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.cells import board_span, cell_name
from gridhall.protocol.games.gomoku import GomokuEnd

from ..base import JSON, GameError, Played
from ..clocked import ClockedGame
from .rules import BLACK, Board, Rule

COLOUR_NAMES = {BLACK: "black", 2: "white"}
MAX_LOG = 10_000
"""Log entries a game keeps (a full board takes fewer); later ones are counted."""


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
        black, white = players if round_no % 2 == 0 else players[::-1]
        self.players = list(players)
        self.colors = {black: "black", white: "white"}
        self._order = (black, white)
        """Who moves when an even, then an odd number of stones is down."""
        self.result: JSON | None = None
        self.pending: JSON | None = None
        self.log: list[tuple[Any, ...]] = []
        """What happened, in order: tuples, which the garbage collector stops tracking."""
        self.log_omitted = 0
        """Entries past :data:`MAX_LOG`, not kept (the record says how many)."""
        self.started_at = now
        self.turn_started = now
        clock = options.get("clock")
        self.increment = float(clock["increment"]) if clock else 0.0
        self.remaining: dict[str, float] | None = (
            {p: clock["minutes"] * 60.0 for p in players} if clock else None
        )

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
        view: JSON = {
            "size": self.board.size,
            "rule": self.rule,
            "moves": list(self.board.moves),
            "next": COLOUR_NAMES[self.board.to_move],
            "colors": dict(self.colors),
        }
        if self.board.moves:
            view["last"] = list(self.board.moves[-1])
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

    def record(self) -> JSON:
        return {
            "options": self.options,
            "colors": self.colors,
            "log": self.log,
            "log_omitted": self.log_omitted,
            "moves": [[x, y] for x, y in self.board.moves],
        }

    def state(self) -> JSON:
        """Everything this game is, as plain data (:func:`from_state` makes it again)."""
        return {
            "options": self.options,
            "players": list(self.players),
            "order": list(self._order),
            "moves": [[x, y] for x, y in self.board.moves],
            "result": self.result,
            "pending": self.pending,
            "log": [list(e) for e in self.log],
            "log_omitted": self.log_omitted,
            "started_at": self.started_at,
            "turn_started": self.turn_started,
            "remaining": None if self.remaining is None else dict(self.remaining),
        }

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

    def apply(self, player: str, move: JSON, now: float, prepared: Any = None) -> Played:
        """Play ``player``'s stone. Every check reads the board directly (type() is
        int: a bool is not a coordinate): this runs on every move a server judges."""
        self._require_playing(player)
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
        elif board.full() or self._move_limit_reached():
            self._finish(None, GomokuEnd.DRAW)
        return Played(move={"x": x, "y": y})

    def _move_limit_reached(self) -> bool:
        limit: int | None = self.options.get("move_limit")
        return limit is not None and len(self.board.moves) >= limit

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

    def _charge_clock(self, player: str, now: float) -> None:
        if self.remaining is not None:
            self.remaining[player] += self.increment - (now - self.turn_started)
        self.turn_started = now

    def _finish(self, winner: str | None, reason: str, **extra: Any) -> None:
        self.result = Outcome(reason, winner, extra).to_map()
        self.pending = None

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
        if self.pending is not None:
            raise GameError("illegal-move", "An offer is already waiting for an answer.")
        if kind == "takeback" and not self._own_moves(player):
            raise GameError("illegal-move", "You have no move to take back.")
        if kind not in ("draw", "takeback"):
            raise GameError("bad-message", "Offers are 'draw' or 'takeback'.")
        self.pending = {"kind": kind, "from": player}
        return {"kind": kind}

    def _own_moves(self, player: str) -> int:
        first = 0 if self.colors[player] == "black" else 1
        return len(self.board.moves[first::2])

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
    game.players = list(state["players"])
    for x, y in state["moves"]:
        game.board.place(int(x), int(y))
    game.result = state["result"]
    game.pending = state["pending"]
    game.log = [tuple(e) for e in state["log"]]
    game.log_omitted = int(state["log_omitted"])
    game.turn_started = float(state["turn_started"])
    remaining = state["remaining"]
    game.remaining = None if remaining is None else {p: float(t) for p, t in remaining.items()}
    return game
