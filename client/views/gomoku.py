"""Gomoku board and status as data: stones, grid lines, last move, labels."""

from __future__ import annotations

from dataclasses import dataclass, field

from gridhall.client.views.common import Look, Message, names

WOOD = "#c99a4b"
LINE = "#6b4a1e"
BLACK_STONE = "#101010"
WHITE_STONE = "#f4f4f4"
LAST_BG = "#e3b866"
CURSOR_BG = "#3d8bfd"
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""Column letters skip ``I`` (as on Go boards) so it is never read as ``1``."""


def star_points(size: int) -> set[tuple[int, int]]:
    """The dotted reference points of a Go-style board."""
    if size < 9:
        return set()
    edge = 3
    mid = size // 2
    coords = (edge, mid, size - 1 - edge)
    return {(x, y) for x in coords for y in coords}


@dataclass
class GomokuBoard:
    """One Gomoku view made easy to draw."""

    size: int
    stones: dict[tuple[int, int], str] = field(default_factory=dict)
    last: tuple[int, int] | None = None
    next: str | None = None
    colors: dict[str, str] = field(default_factory=dict)
    pending: Message | None = None

    @classmethod
    def from_view(cls, view: Message) -> GomokuBoard:
        size = int(view.get("size") or 15)
        board = cls(size=size, next=view.get("next"), colors=dict(view.get("colors") or {}))
        board.pending = view.get("pending") or None
        for i, mv in enumerate(view.get("moves") or []):
            x, y = int(mv[0]), int(mv[1])
            board.stones[(x, y)] = "black" if i % 2 == 0 else "white"
            board.last = (x, y)
        return board

    @staticmethod
    def column_label(x: int) -> str:
        return COLUMNS[x] if x < len(COLUMNS) else str(x)

    @staticmethod
    def row_label(y: int) -> str:
        return str(y + 1)

    def coord(self, x: int, y: int) -> str:
        """``H8``-style name of a point, as players say it aloud."""
        return f"{self.column_label(x)}{self.row_label(y)}"

    def look(self, x: int, y: int, cursor: tuple[int, int] | None = None) -> Look:
        """A point: a stone, or the grid line crossing (edges and star points)."""
        bg = CURSOR_BG if (x, y) == cursor else (LAST_BG if (x, y) == self.last else WOOD)
        stone = self.stones.get((x, y))
        if stone:
            glyph = "◉" if (x, y) == self.last else "●"
            return Look(glyph, BLACK_STONE if stone == "black" else WHITE_STONE, bg, bold=True)
        n = self.size - 1
        if (x, y) in star_points(self.size):
            glyph = "•"
        else:
            top, bottom, left, right = y == 0, y == n, x == 0, x == n
            glyph = {
                (True, False, True, False): "┌",
                (True, False, False, True): "┐",
                (False, True, True, False): "└",
                (False, True, False, True): "┘",
                (True, False, False, False): "┬",
                (False, True, False, False): "┴",
                (False, False, True, False): "├",
                (False, False, False, True): "┤",
            }.get((top, bottom, left, right), "┼")
        return Look(glyph, LINE, bg)

    def joint(self, x: int, y: int) -> Look:
        """The line segment drawn between point ``x`` and ``x + 1`` on row ``y``."""
        return Look("─", LINE, WOOD)

    def roles(self) -> dict[str, str]:
        return dict(self.colors)


def status_text(state: Message, me: str | None) -> str:
    """The status line: whose move, the move count, and any pending offer."""
    view = state.get("view") or {}
    board = GomokuBoard.from_view(view)
    who = names(state)
    status = state.get("status")
    parts: list[str] = []
    if status == "waiting":
        parts.append("Waiting for an opponent to join…")
    elif status == "playing":
        turn = state.get("turn")
        if turn == me:
            parts.append(f"Your move ({board.next})")
        else:
            parts.append(f"{who.get(str(turn), 'Opponent')} to move ({board.next})")
    else:
        parts.append("Game over")
    parts.append(f"move {len(board.stones) + (1 if status == 'playing' else 0)}")
    if board.last is not None:
        parts.append(f"last {board.coord(*board.last)}")
    rule = view.get("rule") or (state.get("options") or {}).get("rule")
    if rule:
        parts.append(str(rule))
    return " · ".join(parts)


def offer_text(state: Message, me: str | None) -> str | None:
    """A line about a pending draw / take-back offer, or None."""
    pending = (state.get("view") or {}).get("pending")
    if not pending:
        return None
    what = "a draw" if pending.get("kind") == "draw" else "to take back the last move"
    if pending.get("from") == me:
        return f"You asked for {what}; waiting for an answer."
    return f"{names(state).get(str(pending.get('from')), 'Your opponent')} asks for {what}."
