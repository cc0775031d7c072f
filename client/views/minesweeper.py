"""Co-op Minesweeper for the clients: board model (classic number colours, marks,
mines, others' last clicks, a click -> reveal / mark / chord), create-room form,
status line with a running clock, roles and actions, and what a replay adds to the
board (each cell in the colour of who opened or flagged it, who hit which mine)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.views.base import Button, GameView
from gridhall.client.views.common import Look, Message, ReplayFrame, player_color
from gridhall.protocol.cells import cell_name
from gridhall.protocol.games.minesweeper import MINESWEEPER

if TYPE_CHECKING:
    from gridhall.client.replays import ReplayPlayer

Point = tuple[int, int]
OPENED = frozenset("012345678F?")
"""Cells a player's action opens or marks (not the mines the end shows)."""

NUMBER_COLORS = {
    "1": "#1f4fff",
    "2": "#1a8f1a",
    "3": "#e02020",
    "4": "#101080",
    "5": "#8a1010",
    "6": "#108a8a",
    "7": "#202020",
    "8": "#6a6a6a",
}
HIDDEN_BG = "#4c5a78"
HIDDEN_FG = "#7e8cab"
OPEN_BG = "#c9c9c9"
CURSOR_BG = "#f2c94c"
HINT_SAFE_BG = "#3fae5a"
HINT_RISKY_BG = "#e08a2c"

LOOKS = {
    "#": Look("·", HIDDEN_FG, HIDDEN_BG),
    "F": Look("⚑", "#ff3030", HIDDEN_BG, bold=True),
    "?": Look("?", "#ffe066", HIDDEN_BG, bold=True),
    "0": Look(" ", OPEN_BG, OPEN_BG),
    "*": Look("✱", "#000000", OPEN_BG, bold=True),
    "X": Look("✱", "#000000", "#ff2a2a", bold=True),
    "W": Look("✗", "#ff2a2a", "#ffd0a0", bold=True),
}


@dataclass
class MinesBoard:
    """One Minesweeper view made easy to draw."""

    width: int
    height: int
    mines: int
    rows: list[str]
    flags: int = 0
    revealed: int = 0
    elapsed: float = 0.0
    marks: dict[tuple[int, int], str] = field(default_factory=dict)
    """Cells other players touched last: position -> their colour."""
    hint: tuple[int, int, bool] | None = None
    """A suggested cell (x, y, certainly safe?) from a ``hint`` request."""
    lives: int = 1
    lives_left: int = 1
    last: dict[str, Message] = field(default_factory=dict)

    @classmethod
    def from_view(cls, view: Message) -> MinesBoard:
        width, height = int(view.get("width") or 0), int(view.get("height") or 0)
        rows = [str(r) for r in view.get("rows") or []]
        rows = [r.ljust(width, "#")[:width] for r in rows] + ["#" * width] * (height - len(rows))
        hint = view.get("hint")
        return cls(
            width=width,
            height=height,
            mines=int(view.get("mines") or 0),
            rows=rows,
            flags=int(view.get("flags") or 0),
            revealed=int(view.get("revealed") or 0),
            elapsed=float(view.get("elapsed") or 0.0),
            hint=(int(hint["x"]), int(hint["y"]), bool(hint.get("safe")))
            if isinstance(hint, dict) and "x" in hint and "y" in hint
            else None,
            lives=int(view.get("lives") or 1),
            lives_left=int(view.get("lives_left") or view.get("lives") or 1),
            last={str(k): v for k, v in (view.get("last") or {}).items() if isinstance(v, dict)},
        )

    def char(self, x: int, y: int) -> str:
        return self.rows[y][x]

    @staticmethod
    def coord(x: int, y: int) -> str:
        """``C5``-style name of a cell, as on the board's labels."""
        return cell_name(x, y)

    def look(self, x: int, y: int, cursor: tuple[int, int] | None = None) -> Look:
        """A cell: hidden, marked, a revealed count, or (after the end) a mine."""
        ch = self.char(x, y)
        base = LOOKS.get(ch) or Look(ch, NUMBER_COLORS.get(ch, "#000000"), OPEN_BG, bold=True)
        bg = base.bg
        if self.hint and self.hint[:2] == (x, y) and ch in "#?":
            bg = HINT_SAFE_BG if self.hint[2] else HINT_RISKY_BG
        if (x, y) == cursor:
            bg = CURSOR_BG
        mark = self.marks.get((x, y))
        return Look(base.glyph, base.fg, bg, base.bold, underline=mark is not None)

    def mark_color(self, x: int, y: int) -> str | None:
        return self.marks.get((x, y))

    def satisfied(self, x: int, y: int) -> bool:
        """A revealed number with exactly that many flags (or set-off mines) around:
        chording it is what the player means by clicking it."""
        ch = self.char(x, y)
        if ch not in "12345678":
            return False
        around = [
            self.char(nx, ny)
            for ny in range(max(0, y - 1), min(self.height, y + 2))
            for nx in range(max(0, x - 1), min(self.width, x + 2))
            if (nx, ny) != (x, y)
        ]
        return sum(c in "FX" for c in around) == int(ch)

    def mines_left(self) -> int:
        return self.mines - self.flags

    def click(self, x: int, y: int, button: Button) -> Request | None:
        """``primary`` reveals (or chords a satisfied number), ``secondary`` cycles
        flag -> ? -> none (or flags all around a number), ``chord`` opens around a
        number; anything else would be refused, so it is not sent."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        ch = self.char(x, y)
        move: dict[str, Any] | None = None
        if button == "primary":
            if ch in "#?":
                move = {"action": "reveal", "x": x, "y": y}
            elif self.satisfied(x, y):
                move = {"action": "chord", "x": x, "y": y}
        elif button == "secondary":
            if ch in "#F?":
                move = {"action": "mark", "x": x, "y": y, "mark": next_mark(ch)}
            elif ch in "12345678":
                move = {"action": "flag-around", "x": x, "y": y}
        elif button == "chord" and ch in "12345678":
            move = {"action": "chord", "x": x, "y": y}
        return p.Move(move=move) if move else None

    def flag_around(self, x: int, y: int) -> Request | None:
        """Quick flag: every hidden cell around a revealed number."""
        if 0 <= x < self.width and 0 <= y < self.height and self.char(x, y) in "12345678":
            return p.Move(move={"action": "flag-around", "x": x, "y": y})
        return None

    def with_others(self, state: p.State, last_actions: dict[str, Message], me: str | None) -> None:
        """Remember where other players acted last, in their colours."""
        colors = {str(pl.get("player")): player_color(pl) for pl in state.players}
        for player, move in (self.last or last_actions).items():
            if player == me:
                continue
            x, y = move.get("x"), move.get("y")
            if isinstance(x, int) and isinstance(y, int):
                self.marks[(x, y)] = colors.get(player, "#ffffff")


def next_mark(ch: str) -> str:
    """Right-click cycles hidden -> flag -> question -> hidden."""
    return {"#": "flag", "F": "question", "?": "none"}.get(ch, "flag")


@dataclass(frozen=True)
class ReplayOwners:
    """What a replay adds to a Minesweeper board: each opened or flagged cell's player
    colour, and at the end each hit mine in the colour of who hit it."""

    owners: dict[Point, str] = field(default_factory=dict)
    hits: dict[Point, str] = field(default_factory=dict)


class Owners:
    """Who opened or flagged each cell, at any step: every step's changes, found once
    by comparing each frame's rows with the one before (a cell that changed belongs to
    whoever made the step; a cleared flag to nobody), with the whole map kept every
    :attr:`EVERY` steps, so any step costs one copy and a few changes."""

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


def replay_owners(player: ReplayPlayer) -> ReplayOwners:
    """The owners and hits of ``player``'s shown step (the owners of every step are
    worked out once per replay, in ``player.memo``)."""
    from gridhall.client.replays import point

    view = player.view()
    colors = player.colors()
    hits: dict[Point, str] = {}
    hits_seen = view.get("hit")
    for hit in hits_seen if isinstance(hits_seen, list) else []:
        pt = point(hit)
        if pt is not None and isinstance(hit, list) and len(hit) >= 3:
            hits[pt] = colors.get(str(hit[2]), "#ff2a2a")
    owners = player.memo.get("owners")
    if not isinstance(owners, Owners):
        owners = player.memo["owners"] = Owners(player)
    return ReplayOwners(owners.at(player.index), hits)


class MinesweeperView(GameView):
    """Everybody clears one shared board; the clock runs from the first reveal."""

    description = MINESWEEPER

    def board(self, room: RoomCopy, me: str | None) -> MinesBoard:
        """The board with the other players' last clicks marked in their colours."""
        state = room.state
        if state is None:
            return MinesBoard.from_view({})
        board = MinesBoard.from_view({**state.options, **state.view})
        board.with_others(state, room.last_actions, me)
        return board

    def click(
        self, room: RoomCopy, me: str | None, x: int, y: int, button: Button
    ) -> Request | None:
        """A click on cell (x, y) while the game runs (see :meth:`MinesBoard.click`)."""
        if room.state is None or room.state.status != "playing":
            return None
        return self.board(room, me).click(x, y, button)

    def replay_frames(self, player: ReplayPlayer) -> list[ReplayFrame]:
        """The field, each player's cells in their colour, the hits at the end."""
        return [ReplayFrame(player.view(), decoration=replay_owners(player))]

    def flag_around(self, room: RoomCopy, me: str | None, x: int, y: int) -> Request | None:
        if room.state is None or room.state.status != "playing":
            return None
        return self.board(room, me).flag_around(x, y)


VIEW = MinesweeperView
