"""Race-mode Link-match for the clients: board model (tiles, selection, hint, the
link's path, two clicks -> a link), create-room form, status line with the racer's
clock and the others' progress, notices, roles and actions, and a replay's boards
(every racer's, the step's link path on the board of who made it)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.views.base import GameView
from gridhall.client.views.common import Look, Message, ReplayFrame
from gridhall.protocol.games.linkmatch import LINKMATCH

if TYPE_CHECKING:
    from gridhall.client.replays import ReplayPlayer

GLYPHS = "♠♣♥♦★●■▲◆♪☀☂☯⚑✿❄✚✦◐◑⊕⊗⊙⌘♞♜♛♚☘⬟⬢◈▼◇○□ABCDEFGHJKLMNPQRSTUVWXYZ23456789abdefghmnqrt"
PALETTE = (
    "#ff5555",
    "#50fa7b",
    "#f1fa8c",
    "#bd93f9",
    "#ff79c6",
    "#8be9fd",
    "#ffb86c",
    "#5af78e",
    "#57c7ff",
    "#ff6e67",
    "#caa9fa",
    "#e6db74",
)
TILE_BG = "#2b2f3a"
SELECT_BG = "#44506a"
HINT_BG = "#6b5a12"
PATH_FG = "#ffd866"
CURSOR_BG = "#3d6bb3"


def kind_look(kind: int) -> Look:
    """Each kind: its own glyph, and a colour that changes between neighbours."""
    glyph = GLYPHS[(kind - 1) % len(GLYPHS)]
    return Look(glyph, PALETTE[(kind - 1) % len(PALETTE)], TILE_BG, bold=True)


def _dirs(path: list[tuple[int, int]]) -> dict[tuple[int, int], set[str]]:
    """For each cell a link path passes through, which sides the line leaves by."""
    cells: dict[tuple[int, int], set[str]] = {}
    for (x0, y0), (x1, y1) in itertools.pairwise(path):
        dx = (x1 > x0) - (x1 < x0)
        dy = (y1 > y0) - (y1 < y0)
        x, y = x0, y0
        while (x, y) != (x1, y1):
            nx, ny = x + dx, y + dy
            out = {(1, 0): "r", (-1, 0): "l", (0, 1): "d", (0, -1): "u"}[(dx, dy)]
            back = {"r": "l", "l": "r", "d": "u", "u": "d"}[out]
            cells.setdefault((x, y), set()).add(out)
            cells.setdefault((nx, ny), set()).add(back)
            x, y = nx, ny
            if abs(x) > 1000 or abs(y) > 1000:
                break
    return cells


PATH_CHARS = {
    frozenset("lr"): "─",
    frozenset("ud"): "│",
    frozenset("rd"): "┌",
    frozenset("ld"): "┐",
    frozenset("ru"): "└",
    frozenset("lu"): "┘",
    frozenset("l"): "╴",
    frozenset("r"): "╶",
    frozenset("u"): "╵",
    frozenset("d"): "╷",
}


@dataclass
class LinkBoard:
    """One Link-match view made easy to draw; cells are three columns wide so the
    selected tile can be framed as ``[x]``."""

    width: int
    height: int
    rows: list[list[int]]
    remaining: int = 0
    path: list[tuple[int, int]] = field(default_factory=list)
    hint: list[tuple[int, int]] = field(default_factory=list)
    progress: dict[str, int] = field(default_factory=dict)
    elapsed: float = 0.0
    starts_in: float | None = None

    @classmethod
    def from_view(cls, view: Message) -> LinkBoard:
        def pts(value: object) -> list[tuple[int, int]]:
            if not isinstance(value, list):
                return []
            return [(int(p[0]), int(p[1])) for p in value if isinstance(p, list | tuple)]

        return cls(
            width=int(view.get("width") or 0),
            height=int(view.get("height") or 0),
            rows=[list(r) for r in view.get("rows") or []],
            remaining=int(view.get("remaining") or 0),
            path=pts(view.get("path")),
            hint=pts(view.get("hint")),
            progress={str(k): int(v) for k, v in (view.get("progress") or {}).items()},
            elapsed=float(view.get("elapsed") or 0.0),
            starts_in=view.get("starts_in"),
        )

    def kind(self, x: int, y: int) -> int:
        if 0 <= y < len(self.rows) and 0 <= x < len(self.rows[y]):
            return int(self.rows[y][x])
        return 0

    def look(
        self,
        x: int,
        y: int,
        *,
        selected: tuple[int, int] | None = None,
        cursor: tuple[int, int] | None = None,
        show_path: bool = False,
    ) -> Look:
        """A three-column cell (x, y may be on the ring just outside the board)."""
        kind = self.kind(x, y)
        bg: str | None = TILE_BG if kind else None
        if (x, y) in self.hint and kind:
            bg = HINT_BG
        if (x, y) == cursor:
            bg = CURSOR_BG
        if show_path and not kind:
            sides = _dirs(self.path).get((x, y))
            if sides:
                mid = PATH_CHARS.get(frozenset(sides), "┼")
                glyph = ("─" if "l" in sides else " ") + mid + ("─" if "r" in sides else " ")
                return Look(glyph, PATH_FG, bg, bold=True)
        if not kind:
            return Look("   ", "#555555", bg)
        tile = kind_look(kind)
        if (x, y) == selected:
            return Look(f"[{tile.glyph}]", tile.fg, SELECT_BG, bold=True)
        return Look(f" {tile.glyph} ", tile.fg, bg, bold=True)


class LinkSelection:
    """The first tile picked; a second click on another tile asks for the link."""

    def __init__(self) -> None:
        self.selected: tuple[int, int] | None = None

    def click(self, board: LinkBoard, x: int, y: int) -> Request | None:
        if not board.kind(x, y) or self.selected == (x, y):
            self.selected = None
            return None
        if self.selected is None:
            self.selected = (x, y)
            return None
        a, self.selected = self.selected, None
        return p.Move(move={"action": "link", "a": list(a), "b": [x, y]})

    def forget_if_gone(self, board: LinkBoard) -> None:
        """Drop a selection whose tile vanished (linked, shuffled or a new game)."""
        if self.selected and not board.kind(*self.selected):
            self.selected = None


class LinkMatchView(GameView):
    """Everyone races on the same board; the creator starts the race."""

    description = LINKMATCH

    def board(self, room: RoomCopy, me: str | None, now: float) -> LinkBoard:
        """Our board with the countdown and clock run on to ``now``."""
        state = room.state
        options = state.options if state is not None else {}
        return LinkBoard.from_view({**options, **self.live_view(room, me, now)})

    def replay_frames(self, player: ReplayPlayer) -> list[ReplayFrame]:
        """Every racer's board at the shown step, in seat order, the step's link path
        on the board of who made it (an older answer's one board if it has no
        ``boards``)."""
        from gridhall.client.history import seat
        from gridhall.client.replays import points

        view = player.view()
        step = player.step()
        boards = view.get("boards")
        if not isinstance(boards, dict):
            boards = {str(step.get("by") or ""): view.get("rows") or []}
        path = points(step.get("path") or (view.get("path") if step.get("label") else None))
        names, colors = player.names(), player.colors()
        order = [str(pl.get("player")) for pl in sorted(player.players, key=seat)]
        order += [str(pid) for pid in boards if str(pid) not in order]
        frames = []
        for pid in order:
            rows = boards.get(pid)
            if not isinstance(rows, list):
                continue
            mine = str(step.get("by")) == pid and bool(path)
            shown = {**view, "rows": rows, "path": [list(pt) for pt in path] if mine else []}
            shown.pop("boards", None)
            frames.append(
                ReplayFrame(shown, pid, names.get(pid, pid), colors.get(pid, "#ffffff"), mine)
            )
        return frames

    def click(
        self, room: RoomCopy, me: str | None, selection: LinkSelection, x: int, y: int, now: float
    ) -> Request | None:
        """A click on tile (x, y): the first selects it, the second asks for the link.
        Only racers have tiles, and only once the race runs."""
        state = room.state
        if state is None or state.status != "playing" or "rows" not in state.view:
            return None
        return selection.click(self.board(room, me, now), x, y)


VIEW = LinkMatchView
