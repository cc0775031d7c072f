"""A replay for the Python clients: where it stands (step k of N), autoplay, and each
game's frame made easy to draw (the live boards' models plus what a replay adds).

The server sends a finished game as its start view and one step per action, each a
view in the ``moved`` delta form (PROTOCOL.md "History, replays, ratings");
:class:`gridhall.protocol.replay.Replay` turns them into the view after any step.
Here, display-free for the terminal and Tk clients:

- Gomoku: every stone's move number, the winning five, and an analysed move's mark
  with the engine's best move;
- Minesweeper: each cell in the colour of the player who opened or flagged it (found
  by comparing each frame with the one before), and at the end the mines and who hit one;
- Link-match: every racer's board, the step's link path on the board of who made it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gridhall.client.bounds import view_problem
from gridhall.client.history import seat
from gridhall.client.views.common import Message, player_color
from gridhall.client.views.gomoku import GomokuBoard
from gridhall.client.views.linkmatch import LinkBoard
from gridhall.client.views.minesweeper import MinesBoard
from gridhall.protocol.cells import cell_name
from gridhall.protocol.delta import DeltaError
from gridhall.protocol.i18n import _
from gridhall.protocol.replay import Replay

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
"""Autoplay speeds, in steps a second."""
Point = tuple[int, int]
OPENED = frozenset("012345678F?")
"""Minesweeper cells a player's action opens or marks (not the mines the end shows)."""


def _point(value: object) -> Point | None:
    if (
        isinstance(value, list | tuple)
        and len(value) >= 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value[:2])
    ):
        return int(value[0]), int(value[1])
    return None


def _points(value: object) -> list[Point]:
    if not isinstance(value, list):
        return []
    return [pt for pt in map(_point, value) if pt is not None]


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
        self._owners: Owners | None = None

    # ---- position ---------------------------------------------------------------------
    @property
    def count(self) -> int:
        """N: the number of steps (actions) loaded; a long game's later pages are
        added with :meth:`extend` as they come."""
        return self.replay.loaded

    def extend(self, answer: Message) -> None:
        """The next page of a long game's steps (a ``replay`` answer with ``from``)."""
        self.replay.extend(_steps(answer))
        self._owners = None

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

    # ---- analysis (Gomoku) -------------------------------------------------------------
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
        best = _point(note.get("best"))
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

    # ---- Minesweeper: who opened what ---------------------------------------------------
    def owners(self) -> dict[Point, str]:
        """Cell -> colour of the player who opened or flagged it, up to the shown step."""
        if self._owners is None:
            self._owners = Owners(self)
        return self._owners.at(self.index)


class Owners:
    """Who opened or flagged each Minesweeper cell, at any step: every step's changes,
    found once by comparing each frame's rows with the one before (a cell that changed
    belongs to whoever made the step; a cleared flag to nobody), with the whole map
    kept every :attr:`EVERY` steps, so any step costs one copy and a few changes."""

    EVERY = 64

    def __init__(self, player: ReplayPlayer) -> None:
        colors = player.colors()
        owners: dict[Point, str] = {}
        self.changes: list[list[tuple[Point, str | None]]] = [[]]
        self.kept: dict[int, dict[Point, str]] = {0: {}}
        before = [str(r) for r in player.frame(0).get("rows") or []]
        for k in range(1, player.count + 1):
            color = colors.get(str(player.step(k).get("by")), "#ffffff")
            rows = [str(r) for r in player.frame(k).get("rows") or []]
            changed: list[tuple[Point, str | None]] = []
            for y, (old, new) in enumerate(zip(before, rows, strict=False)):
                if old == new:
                    continue
                for x, (a, b) in enumerate(zip(old, new, strict=False)):
                    if a == b:
                        continue
                    if b == "#" and (x, y) in owners:
                        changed.append(((x, y), None))
                        del owners[(x, y)]
                    elif b in OPENED and ((x, y) not in owners or a in "F?"):
                        changed.append(((x, y), color))  # mines the end shows: nobody's
                        owners[(x, y)] = color
            self.changes.append(changed)
            if k % self.EVERY == 0:
                self.kept[k] = dict(owners)
            before = rows

    def at(self, k: int) -> dict[Point, str]:
        k = max(0, min(len(self.changes) - 1, k))
        base = k - k % self.EVERY
        owners = dict(self.kept[base])
        for j in range(base + 1, k + 1):
            for cell, color in self.changes[j]:
                if color is None:
                    owners.pop(cell, None)
                else:
                    owners[cell] = color
        return owners


# ---- the frames, per game --------------------------------------------------------------


@dataclass
class GomokuFrame:
    """The stones with their move numbers, the winning five, the analysed best move."""

    board: GomokuBoard
    numbers: dict[Point, int] = field(default_factory=dict)
    line: set[Point] = field(default_factory=set)
    best: Point | None = None
    marked: bool = False
    """The move shown was marked by the analysis (lost a win, missed a forced win)."""


def gomoku_frame(player: ReplayPlayer) -> GomokuFrame:
    view = player.view()
    board = GomokuBoard.from_view(view)
    moves = _points(view.get("moves"))
    numbers = {pt: i + 1 for i, pt in enumerate(moves)}
    line = set(_points(view.get("line")))
    if not line and player.index == player.count:
        result = player.data.get("result")
        details = result.get("details") if isinstance(result, dict) else None
        line = set(_points((details or {}).get("line") if isinstance(details, dict) else None))
    note = player.note() or {}
    best = _point(note.get("best"))
    return GomokuFrame(
        board,
        numbers,
        line,
        best if best not in board.stones or note.get("mark") else None,
        bool(note.get("mark")),
    )


@dataclass
class MinesFrame:
    """The field, who opened or flagged each cell, and at the end who hit a mine."""

    board: MinesBoard
    owners: dict[Point, str] = field(default_factory=dict)
    hits: dict[Point, str] = field(default_factory=dict)


def mines_frame(player: ReplayPlayer) -> MinesFrame:
    view = player.view()
    colors = player.colors()
    hits: dict[Point, str] = {}
    hits_seen = view.get("hit")
    for hit in hits_seen if isinstance(hits_seen, list) else []:
        pt = _point(hit)
        if pt is not None and isinstance(hit, list) and len(hit) >= 3:
            hits[pt] = colors.get(str(hit[2]), "#ff2a2a")
    return MinesFrame(MinesBoard.from_view(view), player.owners(), hits)


@dataclass
class RacerFrame:
    """One racer's board in a Link-match replay, the step's path on it if theirs."""

    player: str
    name: str
    color: str
    board: LinkBoard
    path: bool = False


def link_frames(player: ReplayPlayer) -> list[RacerFrame]:
    """Every racer's board at the shown step, in seat order."""
    view = player.view()
    step = player.step()
    boards = view.get("boards")
    if not isinstance(boards, dict):  # an older answer: the one board there is
        boards = {str(step.get("by") or ""): view.get("rows") or []}
    path = _points(step.get("path") or (view.get("path") if step.get("label") else None))
    names, colors = player.names(), player.colors()
    order = [str(pl.get("player")) for pl in sorted(player.players, key=seat)]
    order += [str(pid) for pid in boards if str(pid) not in order]
    frames = []
    for pid in order:
        rows = boards.get(pid)
        if not isinstance(rows, list):
            continue
        mine = str(step.get("by")) == pid and bool(path)
        board = LinkBoard.from_view({**view, "rows": rows, "path": path if mine else []})
        frames.append(RacerFrame(pid, names.get(pid, pid), colors.get(pid, "#ffffff"), board, mine))
    return frames
