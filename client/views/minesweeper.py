"""Minesweeper cells and status as data (classic number colours, marks, mines)."""

from __future__ import annotations

from dataclasses import dataclass, field

from gridhall.client.views.common import Look, Message, clock, names, player_color

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

    def with_others(self, state: Message, last_actions: dict[str, Message], me: str | None) -> None:
        """Remember where other players acted last, in their colours."""
        colors = {str(p.get("player")): player_color(p) for p in state.get("players") or []}
        for player, move in (self.last or last_actions).items():
            if player == me:
                continue
            x, y = move.get("x"), move.get("y")
            if isinstance(x, int) and isinstance(y, int):
                self.marks[(x, y)] = colors.get(player, "#ffffff")


def next_mark(ch: str) -> str:
    """Right-click cycles hidden -> flag -> question -> hidden."""
    return {"#": "flag", "F": "question", "?": "none"}.get(ch, "flag")


def roles(state: Message) -> dict[str, str]:
    """The players pane's note per player: cells opened, or that they left."""
    view = state.get("view") or {}
    left = set(view.get("left") or [])
    stats = view.get("stats") or {}
    notes = {}
    for player, s in stats.items():
        hit = f", {s.get('mines_hit')} hit" if s.get("mines_hit") else ""
        notes[str(player)] = f"{s.get('revealed', 0)} opened{hit}"
    for player in left:
        notes[str(player)] = "left the game"
    return notes


def status_text(state: Message, me: str | None, last_actions: dict[str, Message]) -> str:
    """Mines left, time, revealed cells, and who did what last."""
    board = MinesBoard.from_view(state.get("view") or {})
    parts = [
        f"⚑ {board.mines_left()} mines left",
        f"⏱ {clock(board.elapsed)}",
        f"{board.revealed}/{board.width * board.height - board.mines} open",
    ]
    if board.lives > 1:
        parts.append(f"♥ {board.lives_left}/{board.lives}")
    if board.hint:
        x, y, safe = board.hint
        parts.append(f"hint: {x},{y} {'is safe' if safe else 'is the best guess'}")
    who = names(state)
    for player, move in list((board.last or last_actions).items())[-3:]:
        if player == me:
            continue
        verb = {"reveal": "opened", "chord": "chorded", "mark": "marked"}.get(
            str(move.get("action")), "played"
        )
        parts.append(f"{who.get(player, '?')} {verb} {move.get('x')},{move.get('y')}")
    return " · ".join(parts)
