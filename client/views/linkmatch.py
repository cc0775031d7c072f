"""Link-match tiles, selection, hint and link path as data."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from gridhall.client.views.common import Look, Message, clock, names

GLYPHS = "♠♣♥♦★●■▲◆♪☀☂☯⚑✿❄✚✦◐◑⊕⊗⊙⌘♞♜♛♚☘⬟⬢◈▼◇○□ABCDEFGHJKLMNPQRSTUVWXYZ23456789abdefghmnqrt"
PALETTE = (
    "#ff5555", "#50fa7b", "#f1fa8c", "#bd93f9", "#ff79c6", "#8be9fd",
    "#ffb86c", "#5af78e", "#57c7ff", "#ff6e67", "#caa9fa", "#e6db74",
)  # fmt: skip
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
    frozenset("lr"): "─", frozenset("ud"): "│", frozenset("rd"): "┌", frozenset("ld"): "┐",
    frozenset("ru"): "└", frozenset("lu"): "┘", frozenset("l"): "╴", frozenset("r"): "╶",
    frozenset("u"): "╵", frozenset("d"): "╷",
}  # fmt: skip


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


def status_text(state: Message, me: str | None) -> str:
    """Tiles left, the clock (with hint penalties), and every racer's progress."""
    view = state.get("view") or {}
    board = LinkBoard.from_view(view)
    limit = view.get("time_limit") or (state.get("options") or {}).get("time_limit")
    parts = [f"{board.remaining} tiles left"] if "remaining" in view else []
    if state.get("status") == "waiting":
        parts.insert(0, "Waiting for the creator to start")
    if board.starts_in:
        parts.insert(0, f"Starting in {int(board.starts_in + 0.99)}…")
    timer = f"⏱ {clock(board.elapsed)}"
    if isinstance(limit, int | float) and limit:
        timer += f" / {clock(limit)}"
    if view.get("penalty"):
        timer += f" (+{int(view['penalty'])}s hints)"
    parts.append(timer)
    who = names(state)
    standing = view.get("standing") or {}
    others = []
    for player, left in board.progress.items():
        if player == me:
            continue
        how = standing.get(player)
        others.append(
            f"{who.get(player, '?')} {left}" + (f" ({how})" if how not in (None, "racing") else "")
        )
    if others:
        parts.append("others: " + ", ".join(others))
    return " · ".join(parts)


NOTICES = {
    "race-start": "Go! The race is on.",
    "time-up": "{name} ran out of time.",
    "shuffled": "No moves were left: the board was shuffled.",
}


def notice_text(event: str, data: Message, who: dict[str, str]) -> str:
    """A sentence for a game ``notice`` (``race-start``, ``time-up`` …)."""
    name = who.get(str(data.get("player")), "Someone")
    template = NOTICES.get(event)
    return template.format(name=name) if template else event.replace("-", " ").capitalize()
