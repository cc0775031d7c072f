"""Co-op Minesweeper: every seated player acts on one shared board.

Hidden state (the layout) never leaves this object except through
:meth:`MinesweeperGame.view` once the game is over; while it is on, the view is
built from ``_shown``, a per-cell buffer that only ever holds public symbols.
Time comes in as ``now`` on every call; views report the elapsed time as of the
latest call (clients run their own clock between events), plus hint penalties.

A game may never end (players toggling flags forever), so what it holds is
bounded: the action log keeps its first :data:`MAX_ACTIONS` entries and counts the
rest, and :meth:`MinesweeperGame.state` / :func:`from_state` let the room snapshot
it mid-game, so its journal stays bounded too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gridhall.protocol import Outcome, Termination
from gridhall.protocol.games.minesweeper import MinesEnd

from ..base import JSON, Game, GameError, Played
from ..jobs import Job
from .board import Board, Neighbourhood
from .jobs import board_of, find_hint, hint_job, layout_job, make_layout
from .moves import ACTIONS, MARKS, parse_move
from .moves import refuse as _refuse
from .options import parse_options
from .showing import record_of, state_of, view_of

__all__ = ["ACTIONS", "MARKS", "MAX_ACTIONS", "MinesweeperGame", "from_layout", "from_state"]

MAX_ACTIONS = 10_000
"""Actions a game's log (its record) keeps; later ones are only counted. A whole
game on the largest board takes fewer; a game that never ends stays bounded."""
HIDDEN = ord("#")


class MinesweeperGame(Game):
    """One co-op game; see the module docstring for what is public when."""

    def __init__(
        self, options: JSON, players: list[str], seed: int, now: float, board: Board | None = None
    ) -> None:
        self.options = options
        self.players: list[str] = list(players)
        self.result: JSON | None = None
        self.seed = seed
        self.width: int = options["width"]
        self.height: int = options["height"]
        self.mines: int = options["mines"] if board is None else len(board.mines)
        self.board = board
        self.nb = Neighbourhood(self.width, self.height)
        n = self.width * self.height
        self.revealed = bytearray(n)
        self.flagged = bytearray(n)
        self.questioned = bytearray(n)
        self.flag_owner: dict[int, str] = {}
        self.exploded: list[int] = []
        self.safe_left = n - self.mines
        self.lives_left: int = options["lives"]
        self.left: list[str] = []
        self.stats: dict[str, dict[str, int]] = {p: self._blank_stats() for p in players}
        self.last: dict[str, JSON] = {}
        self.hint: JSON | None = None
        self.created = now
        self.latest = now
        self.started: float | None = None
        self.ended: float | None = None
        self.penalty = 0.0
        self.first_click: list[int] | None = None
        self.generation_note: str | None = None
        self.actions: list[list[Any]] = []
        self.actions_omitted = 0
        """Actions past :data:`MAX_ACTIONS`, not logged (the record says how many)."""
        self._shown = bytearray([HIDDEN]) * n
        self._version = 0
        self._cached: tuple[int, JSON] | None = None
        self._notices: list[JSON] = []

    @staticmethod
    def _blank_stats() -> dict[str, int]:
        return {"revealed": 0, "mines_hit": 0}

    # -- the Game protocol ---------------------------------------------------
    def turn(self) -> str | None:
        return None

    def work_for(self, player: str, move: JSON, now: float) -> Job | None:
        """The heavy step ``move`` needs first, if any: the mine layout for the
        first reveal, or a hint's search. The room runs it off the event loop and
        passes the answer to :meth:`apply` as ``prepared``. Moves that will be
        refused need nothing (``apply`` refuses them)."""
        if self.result is not None or player not in self.players or player in self.left:
            return None
        try:
            action, cell, _ = self._parse(move)
        except GameError:
            return None
        if action == "hint" and self.board is not None:
            return hint_job(bytes(self._shown), self.width, self.mines, bytes(self.flagged))
        if (
            action == "reveal"
            and self.board is None
            and cell is not None
            and not self.flagged[cell]
        ):
            return layout_job(self.options, cell, self.seed, bytes(self.flagged))
        return None

    def apply(self, player: str, move: JSON, now: float, prepared: JSON | None = None) -> Played:
        """Check everything first, then change state: a refusal changes nothing.
        ``prepared`` is the answer to the job :meth:`work_for` asked for."""
        if self.result is not None:
            raise GameError("not-playing", "The game is over.")
        if player not in self.players:
            raise GameError("not-a-player", "Only seated players can act; you are watching.")
        if player in self.left:
            raise GameError("not-a-player", "You have left this game; you can only watch it.")
        action, cell, mark = self._parse(move)
        before = self.latest
        self.latest = max(self.latest, now)
        self._notices = []
        try:
            self._dispatch(player, action, cell, mark, now, prepared)
        except GameError:
            self.latest = before
            raise
        x = None if cell is None else cell % self.width
        y = None if cell is None else cell // self.width
        normalised: JSON = {"action": action}
        if cell is not None:
            normalised.update(x=x, y=y)
            self.last[player] = {"action": action, "x": x, "y": y}
        if mark is not None:
            normalised["mark"] = mark
        logged = "hint-none" if action == "hint" and self.hint is None else action
        self._log(player, logged, x, y, mark, now)
        if self.result is None and self.safe_left == 0:
            self._finish(MinesEnd.CLEARED, None, now)
        self._version += 1
        return Played(move=normalised, notices=self._notices)

    def _dispatch(
        self,
        player: str,
        action: str,
        cell: int | None,
        mark: str | None,
        now: float,
        prepared: JSON | None,
    ) -> None:
        """Run one parsed action; sub-actions refuse before they change anything."""
        if action == "hint":
            self._hint(prepared)
            return
        assert cell is not None
        if action == "reveal":
            self._reveal_action(player, cell, now, prepared)
        elif action == "chord":
            self._chord(player, cell)
        elif action == "flag-around":
            self._flag_around(player, cell)
        else:
            assert mark is not None
            self._mark(player, cell, mark)
        self.hint = None

    shared_view = True
    """Co-op: every recipient gets the same view and move."""

    def view(self, recipient: str | None) -> JSON:
        """The one view for everyone (co-op: all see the same board; ``showing.py``),
        made again only after a change."""
        if self._cached is not None and self._cached[0] == self._version:
            return dict(self._cached[1])
        view = view_of(self)
        self._cached = (self._version, view)
        return dict(view)

    def resign(self, player: str, now: float, reason: Termination = Termination.RESIGN) -> None:
        """``player`` leaves the co-op game; the last one out ends it."""
        if self.result is not None or player not in self.players or player in self.left:
            return
        self.latest = max(self.latest, now)
        self.left.append(player)
        self._log(player, reason.value, None, None, None, now)
        if len(self.left) == len(self.players):
            self._finish(reason, None, now)
        self._version += 1

    def request(self, player: str, kind: str, now: float) -> JSON:
        raise _refuse("Minesweeper has no draw or take-back requests.")

    def respond(self, player: str, kind: str, accept: bool, now: float) -> JSON:
        raise _refuse("Minesweeper has no draw or take-back requests.")

    def add_player(self, player: str, now: float) -> bool:
        """Seat a late joiner (or take back one who left) while seats remain."""
        if self.result is not None:
            return False
        if player in self.players:
            if player in self.left:
                self.left.remove(player)
                self._log(player, "rejoin", None, None, None, now)
                self._version += 1
            return True
        if len(self.players) >= self.options["max_players"]:
            return False
        self.players.append(player)
        self._log(player, "join", None, None, None, now)
        self.stats[player] = self._blank_stats()
        self.latest = max(self.latest, now)
        self._version += 1
        return True

    def shift(self, seconds: float) -> None:
        self.created += seconds
        self.latest += seconds
        if self.started is not None:
            self.started += seconds
        if self.ended is not None:
            self.ended += seconds

    def record(self) -> JSON:
        """What the history keeps (``showing.py``)."""
        return record_of(self)

    def state(self) -> JSON:
        """Everything this game is, as plain data (``showing.py``; :func:`from_state`
        makes it again): what a room's snapshot holds."""
        return state_of(self)

    # -- helpers -------------------------------------------------------------
    def _log(
        self, player: str, action: str, x: int | None, y: int | None, mark: str | None, now: float
    ) -> None:
        """Append to the action log the store keeps (times relative to creation)."""
        if len(self.actions) >= MAX_ACTIONS:
            self.actions_omitted += 1
            return
        self.actions.append([player, action, x, y, mark, round(now - self.created, 3)])

    def elapsed(self) -> float:
        """Seconds since the first reveal (frozen at the end) plus hint penalties."""
        base = 0.0
        if self.started is not None:
            end = self.ended if self.ended is not None else self.latest
            base = max(0.0, end - self.started)
        return round(base + self.penalty, 3)

    def _parse(self, move: JSON) -> tuple[str, int | None, str | None]:
        return parse_move(move, self.width, self.height)

    def _reveal_action(self, player: str, cell: int, now: float, prepared: JSON | None) -> None:
        if self.revealed[cell]:
            return
        if self.flagged[cell]:
            raise _refuse("That cell is flagged; remove the flag before revealing it.")
        opened = None
        if self.board is None:
            opened = self._place_mines(cell, prepared)
        if self.started is None:
            self.started = now
        self._open(player, cell, now, opened)

    def _place_mines(self, first: int, prepared: JSON | None) -> list[int]:
        """Mines go down at the first reveal, from the recorded seed (``prepared``
        is the same layout made in a worker, see :func:`.jobs.make_layout`).
        Returns the cells the first reveal opens."""
        layout = prepared
        if layout is None:
            job = layout_job(self.options, first, self.seed, bytes(self.flagged))
            layout = make_layout(*job.args)
        self.board = board_of(self.width, self.height, layout)
        self.generation_note = layout.get("note")
        self.first_click = [first % self.width, first // self.width]
        opened: list[int] = layout["opened"]
        return opened

    def _open(self, player: str, cell: int, now: float, opened: list[int] | None = None) -> None:
        """Reveal one unflagged cell (flooding zeros) or set off its mine.
        ``opened``: the flood, already worked out (the first reveal's)."""
        board = self.board
        assert board is not None
        if self.revealed[cell] or self.result is not None:
            return
        if board.is_mine(cell):
            self.revealed[cell] = 1
            self.questioned[cell] = 0
            self.exploded.append(cell)
            self._shown[cell] = ord("X")
            self.stats[player]["mines_hit"] += 1
            self.lives_left -= 1
            if self.lives_left == 0:
                self._finish(MinesEnd.MINE, player, now)
            return
        if opened is None:
            opened = board.flood(cell, self.revealed, self.flagged)
        else:
            revealed = self.revealed
            for c in opened:
                revealed[c] = 1
        shown, counts, questioned = self._shown, board.counts, self.questioned
        for c in opened:
            shown[c] = 48 + counts[c]
            questioned[c] = 0
        self.safe_left -= len(opened)
        self.stats[player]["revealed"] += len(opened)

    def _number_cell(self, cell: int, what: str) -> int:
        if not self.revealed[cell] or self._shown[cell] == ord("X"):
            raise _refuse(f"{what} works only on a revealed number.")
        return int(self._shown[cell]) - 48

    def _chord(self, player: str, cell: int) -> None:
        number = self._number_cell(cell, "Chord")
        around = self.nb[cell]
        marked = sum(1 for n in around if self.flagged[n] or self._shown[n] == ord("X"))
        if marked != number:
            raise _refuse(
                f"Chord needs exactly {number} flags around that number; it has {marked}."
            )
        for n in around:
            if not self.revealed[n] and not self.flagged[n]:
                self._open(player, n, self.latest)

    def _flag_around(self, player: str, cell: int) -> None:
        number = self._number_cell(cell, "Quick flag")
        around = self.nb[cell]
        hidden = [n for n in around if not self.revealed[n]]
        exploded = sum(1 for n in around if self._shown[n] == ord("X"))
        if len(hidden) + exploded != number:
            raise _refuse(
                f"Quick flag needs exactly {number} hidden cells around that "
                f"number; it has {len(hidden) + exploded}."
            )
        for n in hidden:
            if not self.flagged[n]:
                self._set_mark(player, n, "flag")

    def _mark(self, player: str, cell: int, mark: str) -> None:
        if self.revealed[cell]:
            raise _refuse("Only hidden cells can be marked.")
        self._set_mark(player, cell, mark)

    def _set_mark(self, player: str, cell: int, mark: str) -> None:
        self.flagged[cell] = mark == "flag"
        self.questioned[cell] = mark == "question"
        self._shown[cell] = ord({"flag": "F", "question": "?", "none": "#"}[mark])
        if mark == "flag":
            self.flag_owner[cell] = player
        else:
            self.flag_owner.pop(cell, None)

    def _flagged(self) -> list[int]:
        return [c for c, f in enumerate(self.flagged) if f]

    def _rows(self) -> list[str]:
        w = self.width
        return [self._shown[y * w : (y + 1) * w].decode("ascii") for y in range(self.height)]

    def _hint(self, prepared: JSON | None) -> None:
        """Advice from public information only: a proven-safe cell if any, else
        the lowest-risk guess (:func:`.jobs.find_hint`). Costs the team
        ``hint_penalty`` seconds, unless nothing was found: then ``hint`` stays
        empty and a ``hint`` notice says why."""
        w = self.width
        if self.board is None:
            cell = (
                (self.height // 2) * w + w // 2 if self.options["first_click"] == "opening" else 0
            )
            found: JSON = {"x": cell % w, "y": cell // w, "safe": True, "risk": 0.0}
        elif prepared is not None:
            found = prepared
        else:
            found = find_hint(self._rows(), self.mines, self._flagged())
        if "none" not in found:
            cell = found["y"] * w + found["x"]
            if self.revealed[cell]:  # the board moved on while the hint was thought about
                found = {"none": "the board changed while the hint was being worked out; ask again"}
        if "none" in found:
            self.hint = None
            self._notices.append({"type": "hint", "found": False, "why": found["none"]})
            return
        self.penalty += self.options["hint_penalty"]  # a coin flip too: it tells that much
        self.hint = {
            k: found[k] for k in ("x", "y", "safe", "risk", "coin_flip", "other") if k in found
        }

    def _finish(self, reason: str, by: str | None, now: float) -> None:
        self.ended = max(now, self.latest)
        board = self.board
        correct: dict[str, int] = {}
        if board is not None:
            for c, owner in self.flag_owner.items():
                if board.is_mine(c):
                    correct[owner] = correct.get(owner, 0) + 1
        details: JSON = {
            "stats": {
                p: {
                    "revealed": s["revealed"],
                    "flags": correct.get(p, 0),
                    "mines_hit": s["mines_hit"],
                }
                for p, s in self.stats.items()
            },
        }
        if by is not None:
            details["by"] = by
        details["time"] = self.elapsed()  # the team's time, hint penalties included
        self.result = Outcome(reason, None, details).to_map()
        self.hint = None


def from_layout(
    layout: Iterable[tuple[int, int]],
    first_click: tuple[int, int] | None,
    *,
    width: int,
    height: int,
    players: list[str],
    now: float = 0.0,
    options: JSON | None = None,
    seed: int = 0,
) -> MinesweeperGame:
    """A game on a given mine layout, for replays and tests; ``first_click``
    (if given) is revealed at once by the first player."""
    raw = {
        k: v for k, v in (options or {}).items() if k not in ("preset", "width", "height", "mines")
    }
    cells = [y * width + x for x, y in layout]
    if len(set(cells)) != len(cells) or any(
        not (0 <= x < width and 0 <= y < height) for x, y in layout
    ):
        raise ValueError("layout cells must be distinct and on the board")
    parsed = parse_options(raw)
    parsed.update(width=width, height=height, mines=len(cells))
    game = MinesweeperGame(parsed, players, seed, now, Board(width, height, cells))
    if first_click is not None:
        fx, fy = first_click
        game.first_click = [fx, fy]
        game.apply(players[0], {"action": "reveal", "x": fx, "y": fy}, now)
    return game


def from_state(state: JSON) -> MinesweeperGame:
    """The game :meth:`MinesweeperGame.state` described."""
    options = state["options"]
    board_data = state["board"]
    board = (
        None
        if board_data is None
        else Board(options["width"], options["height"], board_data["mines"], board_data["counts"])
    )
    game = MinesweeperGame(
        options, state["players"], int(state["seed"]), float(state["created"]), board
    )
    shown = bytearray(str(state["shown"]).encode("ascii"))
    if len(shown) != len(game._shown):
        raise ValueError("the saved board does not fit the options")
    game._shown = shown
    for c, ch in enumerate(shown):
        if ch == ord("F"):
            game.flagged[c] = 1
        elif ch == ord("?"):
            game.questioned[c] = 1
        elif ch != HIDDEN:
            game.revealed[c] = 1
    game.flag_owner = {int(c): str(p) for c, p in state["flag_owner"]}
    game.exploded = [int(c) for c in state["exploded"]]
    game.safe_left = int(state["safe_left"])
    game.lives_left = int(state["lives_left"])
    game.left = list(state["left"])
    game.stats = {p: dict(s) for p, s in state["stats"].items()}
    game.last = {p: dict(a) for p, a in state["last"].items()}
    game.hint = state["hint"]
    game.result = state["result"]
    game.latest = float(state["latest"])
    game.started = state["started"]
    game.ended = state["ended"]
    game.penalty = float(state["penalty"])
    game.first_click = state["first_click"]
    game.generation_note = state["generation"]
    game.actions = [list(a) for a in state["actions"]]
    game.actions_omitted = int(state["actions_omitted"])
    return game


def replay(record: JSON, until: int | None = None) -> MinesweeperGame:
    """Rebuild a game from :meth:`MinesweeperGame.record` (first ``until`` actions)."""
    game = replay_start(record)
    for entry in record["actions"][:until]:
        apply_logged(game, entry)
    return game


def apply_logged(game: MinesweeperGame, entry: list[Any]) -> None:
    """One entry of the record's action log, applied as the game first took it."""
    player, action, x, y, mark, t = entry
    if action in ("join", "rejoin"):
        game.add_player(player, t)
    elif action == "hint-none":  # a hint that found nothing changed nothing
        return
    elif action not in ACTIONS:
        game.resign(player, t, Termination(action))
    else:
        move: JSON = {"action": action}
        if x is not None:
            move.update(x=x, y=y)
        if mark is not None:
            move["mark"] = mark
        game.apply(player, move, t)


def replay_start(record: JSON) -> MinesweeperGame:
    """The game a :meth:`MinesweeperGame.record` started as: its first players, on the
    layout it had (none when nothing was revealed: mines were never placed)."""
    opts = record["options"]
    joined = {a[0] for a in record["actions"] if a[1] == "join"}
    players = [p for p in record["players"] if p not in joined]
    if record["layout"] or record["first_click"]:
        game = from_layout(
            [(x, y) for x, y in record["layout"]],
            None,
            width=opts["width"],
            height=opts["height"],
            options=opts,
            seed=record["seed"],
            players=players,
        )
        game.first_click = record["first_click"]
    else:  # nothing was revealed: mines were never placed
        game = MinesweeperGame(opts, players, record["seed"], 0.0)
    return game
