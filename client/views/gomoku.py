"""Gomoku for the clients: board model (stones, grid lines, last move, labels, a click
-> a stone), create-room form, status line with live clocks, roles and actions, and
what a replay adds to the board (move numbers, the five, the analysis' marks)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.views.base import GameView, state_map
from gridhall.client.views.common import Look, Message, ReplayFrame
from gridhall.protocol import Outcome
from gridhall.protocol.cells import cell_name
from gridhall.protocol.games import render
from gridhall.protocol.games.gomoku import GOMOKU

if TYPE_CHECKING:
    from gridhall.client.replays import ReplayPlayer

Point = tuple[int, int]

WOOD = "#c99a4b"
LINE = "#6b4a1e"
BLACK_STONE = "#101010"
WHITE_STONE = "#f4f4f4"
LAST_BG = "#e3b866"
CURSOR_BG = "#3d8bfd"
STONE_GLYPHS = {
    ("black", False): "●",
    ("white", False): "○",
    ("black", True): "◉",
    ("white", True): "◎",
}
"""Black is filled, white hollow (told apart without colour); the last stone is ringed."""


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

    def coord(self, x: int, y: int) -> str:
        """``H8``-style name of a point, as players say it aloud (and the server writes)."""
        return cell_name(x, y)

    def look(self, x: int, y: int, cursor: tuple[int, int] | None = None) -> Look:
        """A point: a stone, or the grid line crossing (edges and star points)."""
        bg = CURSOR_BG if (x, y) == cursor else (LAST_BG if (x, y) == self.last else WOOD)
        stone = self.stones.get((x, y))
        if stone:
            glyph = STONE_GLYPHS[stone, (x, y) == self.last]
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

    def click(self, state: p.State, me: str | None, x: int, y: int) -> Request | None:
        """A stone on an empty point, on our turn only (the server would refuse the rest)."""
        if state.status != "playing" or state.turn is None or state.turn != me:
            return None
        if not (0 <= x < self.size and 0 <= y < self.size) or (x, y) in self.stones:
            return None
        return p.Move(move={"x": x, "y": y})


@dataclass(frozen=True)
class ReplayMarks:
    """What a replay adds to a Gomoku board: each stone's move number, the winning five,
    and at a move the analysis marked, that mark and the engine's best move."""

    numbers: dict[Point, int] = field(default_factory=dict)
    line: frozenset[Point] = frozenset()
    best: Point | None = None
    marked: bool = False
    """The move shown was marked by the analysis (lost a win, missed a forced win)."""


def replay_marks(player: ReplayPlayer) -> ReplayMarks:
    """The marks of ``player``'s shown step."""
    from gridhall.client.replays import point, points

    view = player.view()
    stones = GomokuBoard.from_view(view).stones
    numbers = {pt: i + 1 for i, pt in enumerate(points(view.get("moves")))}
    line = set(points(view.get("line")))
    if not line and player.index == player.count:
        result = player.data.get("result")
        details = result.get("details") if isinstance(result, dict) else None
        line = set(points((details or {}).get("line") if isinstance(details, dict) else None))
    note = player.note() or {}
    best = point(note.get("best"))
    marked = bool(note.get("mark"))
    return ReplayMarks(
        numbers, frozenset(line), best if best not in stones or marked else None, marked
    )


class GomokuView(GameView):
    """Two players, black moves first; offers of a draw or a take-back; optional clocks."""

    description = GOMOKU

    def board(self, room: RoomCopy) -> GomokuBoard:
        """The board; before a game exists the room options give its size."""
        state = room.state
        return GomokuBoard.from_view({**state.options, **state.view} if state else {})

    def click(self, room: RoomCopy, me: str | None, x: int, y: int) -> Request | None:
        """A click on point (x, y): a stone, if it is our turn and the point is free."""
        return self.board(room).click(room.state, me, x, y) if room.state else None

    def winning_line(self, state: p.State) -> list[tuple[int, int]]:
        """The stones of the winning five (the view's ``line``, else the result's)."""
        line = state.view.get("line")
        if not line and state.result:
            with contextlib.suppress(ValueError):
                line = Outcome.from_map(state.result).details.get("line")
        if not isinstance(line, list):
            return []
        return [(int(pt[0]), int(pt[1])) for pt in line if isinstance(pt, list | tuple)]

    def replay_frames(self, player: ReplayPlayer) -> list[ReplayFrame]:
        """The board, its stones numbered, the five and the analysis' marks."""
        return [ReplayFrame(player.view(), decoration=replay_marks(player))]

    def clocks(self, state: p.State, now: float) -> dict[str, float]:
        """Each player's time left at ``now``: the running player's clock counts down
        from ``since`` (the unix time their turn began); the other's stands."""
        view = render.live_view(self.desc, state_map(state), None, now, 0.0)
        clk = view.get("clock")
        remaining = clk.get("remaining") if isinstance(clk, dict) else None
        if not isinstance(remaining, dict):
            return {}
        return {str(pl): max(0.0, float(s)) for pl, s in remaining.items()}


VIEW = GomokuView
