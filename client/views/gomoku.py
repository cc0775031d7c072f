"""Gomoku for the clients: board model (stones, grid lines, last move, labels, a click
-> a stone), create-room form, status line with live clocks, roles and actions."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import ClassVar

from gridhall import protocol as p
from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.views.base import Action, GameView
from gridhall.client.views.common import Look, Message, clock, names
from gridhall.client.views.form import Choice, Form, Preset
from gridhall.protocol import Outcome
from gridhall.protocol.cells import cell_name

WOOD = "#c99a4b"
LINE = "#6b4a1e"
BLACK_STONE = "#101010"
WHITE_STONE = "#f4f4f4"
LAST_BG = "#e3b866"
CURSOR_BG = "#3d8bfd"
STONE_GLYPHS = {("black", False): "●", ("white", False): "○",
                ("black", True): "◉", ("white", True): "◎"}  # fmt: skip
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


CLOCKS = ((None, "no clock"), ("5+3", "5 min + 3 s a move"), ("10+5", "10 min + 5 s a move"),
          ("15+10", "15 min + 10 s a move"), ("30+20", "30 min + 20 s a move"))  # fmt: skip


class GomokuView(GameView):
    """Two players, black moves first; offers of a draw or a take-back; optional clocks."""

    name = "gomoku"
    title = "Gomoku"
    presets: ClassVar[tuple[Preset, ...]] = (
        Preset("15×15 freestyle", {"size": 15, "rule": "freestyle"}),
        Preset("15×15 standard (exactly five)", {"size": 15, "rule": "standard"}),
        Preset("15×15 renju", {"size": 15, "rule": "renju"}),
        Preset("19×19 freestyle", {"size": 19, "rule": "freestyle"}),
        Preset("vs computer (easy)", {"size": 15, "rule": "freestyle", "ai": "easy"}),
        Preset("vs computer (hard)", {"size": 15, "rule": "freestyle", "ai": "hard"}),
        Preset("15×15 freestyle, 10+5 clock", {"size": 15, "rule": "freestyle", "clock": "10+5"}),
    )
    form: ClassVar[Form] = (
        Choice("size", "Board", ((15, "15×15"), (19, "19×19")), 15),
        Choice("rule", "Rule", (("freestyle", "freestyle: five or more"),
                                ("standard", "standard: exactly five"),
                                ("renju", "renju (15×15 only)")), "freestyle"),
        Choice("clock", "Clock", CLOCKS, None),
        Choice("ai", "Opponent", ((None, "a person"), ("easy", "computer (easy)"),
                                  ("hard", "computer (hard)")), None),
    )
    actions: ClassVar[tuple[Action, ...]] = (
        Action("draw", "Offer draw", "d", "offer a draw", lambda s: p.Offer(kind="draw")),
        Action("takeback", "Take back", "t", "ask to take back your last move",
               lambda s: p.Offer(kind="takeback")),
    )

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

    def options_text(self, options: Message) -> str:
        size = options.get("size", 15)
        parts = [f"{size}×{size} {options.get('rule', 'freestyle')}"]
        clk = options.get("clock")
        if isinstance(clk, dict):
            parts.append(f"{clk.get('minutes', 0):g}+{clk.get('increment', 0):g}")
        elif clk:
            parts.append(str(clk))
        if options.get("ai"):
            parts.append(f"AI {options['ai']}")
        return ", ".join(parts)

    def roles(self, state: p.State) -> dict[str, str]:
        return {str(pl): str(c) for pl, c in (state.view.get("colors") or {}).items()}

    def clocks(self, state: p.State, now: float) -> dict[str, float]:
        """Each player's time left at ``now``: the running player's clock counts down
        from ``since`` (the unix time their turn began); the other's stands."""
        clk = state.view.get("clock")
        if not isinstance(clk, dict):
            return {}
        running, since = clk.get("running"), clk.get("since")
        out: dict[str, float] = {}
        for player, seconds in (clk.get("remaining") or {}).items():
            left = float(seconds)
            if player == running and state.status == "playing" and isinstance(since, int | float):
                left -= max(0.0, now - float(since))
            out[str(player)] = max(0.0, left)
        return out

    def status(self, room: RoomCopy, me: str | None, now: float) -> str:
        """Whose move, the move count, the last move, the rule and the clocks."""
        state = room.state
        if state is None:
            return ""
        board = GomokuBoard.from_view(state.view)
        who = names(state)
        parts: list[str] = []
        if state.status == "waiting":
            parts.append("Waiting for an opponent to join…")
        elif state.status == "playing":
            if state.turn == me:
                parts.append(f"Your move ({board.next})")
            else:
                parts.append(f"{who.get(str(state.turn), 'Opponent')} to move ({board.next})")
        else:
            parts.append("Game over")
        parts.append(f"move {len(board.stones) + (1 if state.status == 'playing' else 0)}")
        if board.last is not None:
            parts.append(f"last {board.coord(*board.last)}")
        rule = state.view.get("rule") or state.options.get("rule")
        if rule:
            parts.append(str(rule))
        clocks = self.clocks(state, now)
        if clocks:
            parts.append(", ".join(f"{who.get(pl, '?')} {clock(s)}" for pl, s in clocks.items()))
        return " · ".join(parts)
