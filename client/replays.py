"""A replay for the Python clients: where it stands (step k of N), autoplay, the
analysis, and the boards to draw at the shown step.

The server sends a finished game as its start view and one step per action, each a
view in the ``moved`` delta form (PROTOCOL.md "History, replays, ratings");
:class:`gridhall.protocol.replay.Replay` turns them into the view after any step.
Display-free for the terminal and Tk clients. What a replay shows of a game beyond its
live board (move numbers, who opened which cell, every racer's board) is the game's
view's (:meth:`~gridhall.client.views.base.GameView.replay_frames`): each frame is drawn
by the game's own live board widget, fed :func:`frame_room`, with the game's decoration.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gridhall.client.bounds import view_problem
from gridhall.client.history import finished_state
from gridhall.client.room import RoomCopy
from gridhall.client.views.common import Message, ReplayFrame, player_color

__all__ = ["SPEEDS", "ReplayError", "ReplayFrame", "ReplayPlayer", "frame_room", "point", "points"]
from gridhall.protocol.cells import cell_name
from gridhall.protocol.delta import DeltaError
from gridhall.protocol.i18n import _
from gridhall.protocol.replay import Replay

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Autoplay speeds, in steps a second."""
Point = tuple[int, int]


def point(value: object) -> Point | None:
    if (
        isinstance(value, list | tuple)
        and len(value) >= 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
    ):
        return int(value[0]), int(value[1])
    return None


def points(value: object) -> list[Point]:
    if not isinstance(value, list):
        return []
    return [pt for pt in map(point, value) if pt is not None]


def _steps(answer: Message) -> list[Message]:
    """An answer's steps, each a map (anything else would not fold)."""
    steps = answer.get("steps")
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []


class ReplayError(ValueError):
    """A ``replay`` answer this client cannot show (a board beyond the protocol)."""


class ReplayPlayer:
    """One replay on screen: the position (0 = before the first action, N = the end),
    autoplay on or off at one of :data:`SPEEDS`, and the analysis if any."""

    def __init__(self, answer: Message) -> None:
        self.data = answer
        self.game = str(answer.get("game") or "")
        game_id, options, players = (answer.get(k) for k in ("game_id", "options", "players"))
        self.game_id = game_id if isinstance(game_id, int) else 0
        self.options: Message = dict(options) if isinstance(options, dict) else {}
        self.players: list[Message] = (
            [pl for pl in players if isinstance(pl, dict)] if isinstance(players, list) else []
        )
        start = answer.get("start")
        start = start if isinstance(start, dict) else {}
        problem = view_problem(self.game, {**self.options, **start})
        if problem is not None:
            raise ReplayError(problem)
        self.replay = Replay(start, _steps(answer), total=None)
        self.index = 0
        self.playing = False
        self.speed = SPEEDS.index(1.0)
        self.notes: dict[int, Message] = {}
        """Ply (1-based) -> the analysis' note on that move."""
        self.analysis_status: str | None = None
        self.memo: dict[str, Any] = {}
        """What a game's replay frames work out once for the whole replay (who opened
        which cell), by the game's own key; emptied when more steps come."""

    # ---- position ---------------------------------------------------------------------
    @property
    def count(self) -> int:
        """N: the number of steps (actions) loaded; a long game's later pages are
        added with :meth:`extend` as they come."""
        return self.replay.loaded

    def extend(self, answer: Message) -> None:
        """The next page of a long game's steps (a ``replay`` answer with ``from``)."""
        self.replay.extend(_steps(answer))
        self.memo.clear()

    def go(self, index: int) -> bool:
        """Show the board after ``index`` actions (clamped); True if that moved."""
        index = max(0, min(self.count, index))
        moved, self.index = index != self.index, index
        if self.index == self.count:
            self.playing = False
        return moved

    def forward(self) -> bool:
        return self.go(self.index + 1)

    def back(self) -> bool:
        return self.go(self.index - 1)

    def counter(self) -> str:
        """ "k / N", the step shown and how many there are."""
        return f"{self.index} / {self.count}"

    def view(self) -> Message:
        """The shown frame's view, over the game's options (ReplayError if it is beyond
        what the protocol allows: a client never draws such a board)."""
        view = {**self.options, **self.frame(self.index)}
        problem = view_problem(self.game, view)
        if problem is not None:
            raise ReplayError(problem)
        return view

    def frame(self, k: int) -> Message:
        """Frame ``k``'s view; ReplayError if the steps do not fold (a broken answer)."""
        try:
            return self.replay.view(k)
        except (DeltaError, TypeError, ValueError, KeyError, IndexError) as exc:
            raise ReplayError(
                _("This replay cannot be shown: {problem}", problem=str(exc)[:200])
            ) from exc

    def step(self, k: int | None = None) -> Message:
        """The step that led to frame ``k`` (default: the shown one); {} at the start."""
        return self.replay.step(self.index if k is None else k) or {}

    # ---- autoplay ---------------------------------------------------------------------
    def toggle(self) -> bool:
        """Start or stop autoplay (from the start again when at the end)."""
        if not self.playing and self.index >= self.count:
            self.index = 0
        self.playing = not self.playing and self.count > 0
        return self.playing

    def faster(self, up: bool) -> float:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + (1 if up else -1)))
        return SPEEDS[self.speed]

    @property
    def interval(self) -> float:
        """Seconds between two autoplay steps."""
        return 1.0 / SPEEDS[self.speed]

    # ---- who is who -------------------------------------------------------------------
    def names(self) -> dict[str, str]:
        return {str(pl.get("player")): str(pl.get("name") or "?") for pl in self.players}

    def colors(self) -> dict[str, str]:
        return {str(pl.get("player")): player_color(pl) for pl in self.players}

    def by_name(self) -> str:
        """Who made the shown step ("" at the start)."""
        by = self.step().get("by")
        return self.names().get(str(by), str(by)) if by is not None else ""

    # ---- analysis --------------------------------------------------------------------------
    def take_analysis(self, answer: Message) -> bool:
        """Fold in an ``analysis`` answer for this game; True if it was ours."""
        if answer.get("game_id") != self.game_id:
            return False
        self.analysis_status = str(answer.get("status") or "")
        moves = answer.get("moves")
        for note in moves if isinstance(moves, list) else []:
            if isinstance(note, dict) and isinstance(note.get("n"), int):
                self.notes[int(note["n"])] = note
        return True

    def note(self) -> Message | None:
        """The analysis of the move that made the shown frame, if any."""
        return self.notes.get(self.index)

    def note_text(self) -> str:
        """The shown move's analysis in words ("" if not analysed)."""
        note = self.note()
        if note is None:
            return ""
        best = point(note.get("best"))
        where = cell_name(*best) if best else "-"
        score = note.get("eval")
        mark = note.get("mark")
        if mark == "lost-win":
            said = _(
                "Move {n} let a won position go; the engine's best move: {cell}.",
                n=self.index,
                cell=where,
            )
        elif mark == "missed-vcf":
            said = _(
                "Move {n} missed a forced win; the engine's best move: {cell}.",
                n=self.index,
                cell=where,
            )
        elif mark == "blunder":
            said = _(
                "Move {n} let the opponent force a win; {cell} would have stopped it.",
                n=self.index,
                cell=where,
            )
        else:
            said = _("Move {n}: the engine's best move: {cell}.", n=self.index, cell=where)
        if isinstance(score, int | float):
            said += " " + _("Evaluation: {score}", score=int(score))
        return said

    def marked(self) -> list[int]:
        """The plies the analysis marked (lost a win, missed a forced win, a blunder)."""
        return sorted(n for n, note in self.notes.items() if note.get("mark"))

    def next_marked(self) -> bool:
        """Go to the next move the analysis marked (after the last: the first again)."""
        marked = self.marked()
        if not marked:
            return False
        return self.go(next((n for n in marked if n > self.index), marked[0]))


def frame_room(player: ReplayPlayer, frame: ReplayFrame) -> RoomCopy:
    """A stand-in room holding one replay frame, so a live board can draw it: over at
    the end (with the result), playing before (nothing is drawn as won)."""
    state = finished_state(player.data, frame.view)
    if player.index != player.count:
        state = replace(state, status="playing", result=None)
    return RoomCopy(room="", seq=0, state=state)
