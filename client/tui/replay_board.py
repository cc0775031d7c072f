"""A replay's frame as Rich text: Gomoku with numbered stones, the winning five and
the engine's best move; Minesweeper in the players' colours with the mines and hits
at the end; every Link-match racer's board side by side with the step's path."""

from __future__ import annotations

from functools import lru_cache

from rich.columns import Columns
from rich.console import RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.text import Span, Text

from gridhall.client.plain import plain
from gridhall.client.replays import (
    GomokuFrame,
    MinesFrame,
    RacerFrame,
    ReplayPlayer,
    gomoku_frame,
    link_frames,
    mines_frame,
)
from gridhall.client.tui.boards.base import LABEL, styled
from gridhall.client.views.common import Look
from gridhall.client.views.gomoku import BLACK_STONE, LINE, WHITE_STONE, WOOD
from gridhall.protocol.cells import column_name, row_name
from gridhall.protocol.i18n import _

LINE_BG = "#d43c3c"
"""The winning five."""
BEST_BG = "#2e9e4f"
"""The engine's best move at an analysed, marked move."""
MARKED_BG = "#e08a2c"
"""The stone of a move the analysis marked."""


@lru_cache(maxsize=512)
def look_style(look: Look) -> Style:
    """One Style per look (a big field has thousands of cells and few looks)."""
    return styled(look)


@lru_cache(maxsize=512)
def style(fg: str | None, bg: str | None, bold: bool = False) -> Style:
    return Style(color=fg, bgcolor=bg, bold=bold)


def render(player: ReplayPlayer) -> RenderableType:
    """The shown frame of ``player``'s replay, for its game."""
    if player.game == "gomoku":
        return gomoku_text(gomoku_frame(player))
    if player.game == "minesweeper":
        return mines_text(mines_frame(player))
    if player.game == "linkmatch":
        return link_panels(link_frames(player))
    return Text(_("This client cannot show {game} yet.", game=plain(player.game)))


def gomoku_text(frame: GomokuFrame) -> Text:
    """Three columns a point: a stone shows its move number; empty points the grid."""
    board = frame.board
    n = board.size - 1
    labels = "   " + "".join(f"{column_name(x):^3}" for x in range(board.size))
    text = Text(labels + "\n", style=LABEL, no_wrap=True)
    for y in range(board.size):
        text.append(f"{row_name(y):>2} ", LABEL)
        for x in range(board.size):
            pt = (x, y)
            stone = board.stones.get(pt)
            if stone is not None:
                number = frame.numbers.get(pt, 0)
                black = stone == "black"
                bg = BLACK_STONE if black else WHITE_STONE
                if pt in frame.line:
                    bg = LINE_BG
                elif pt == board.last and frame.marked:
                    bg = MARKED_BG
                fg = WHITE_STONE if black or pt in frame.line else BLACK_STONE
                text.append(
                    f"{number:^3}" if number < 1000 else "###",
                    Style(color=fg, bgcolor=bg, bold=True, underline=pt == board.last),
                )
                continue
            if pt == frame.best:
                text.append(" ✚ ", Style(color="#ffffff", bgcolor=BEST_BG, bold=True))
                continue
            mid = board.look(x, y).glyph
            left = "─" if x > 0 else " "
            right = "─" if x < n else " "
            text.append(left + mid + right, Style(color=LINE, bgcolor=WOOD))
        text.append(f" {row_name(y)}\n", LABEL)
    text.append(labels, LABEL)
    return text


class Runs:
    """Text built as runs of one style (a 100 x 100 field is 20,000 pieces, but far
    fewer runs: one ``Span`` per run instead of one ``Text.append`` per piece)."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.spans: list[Span] = []
        self.at = 0
        self._start = 0
        self._style: Style | None = None

    def add(self, piece: str, style: Style) -> None:
        if style is not self._style:
            self._close()
            self._start, self._style = self.at, style
        self.parts.append(piece)
        self.at += len(piece)

    def _close(self) -> None:
        if self._style is not None and self.at > self._start:
            self.spans.append(Span(self._start, self.at, self._style))

    def text(self) -> Text:
        self._close()
        self._style = None
        return Text("".join(self.parts), spans=self.spans, no_wrap=True)


def mines_text(frame: MinesFrame) -> Text:
    """Each opened or flagged cell with a stripe in its player's colour; hits in theirs."""
    board = frame.board
    gutter = len(str(board.height)) + 1
    out = Runs()
    out.add(" " * gutter, LABEL)
    for x in range(board.width):
        out.add(f"{column_name(x):<2}", LABEL)
    out.add("\n", LABEL)
    for y in range(board.height):
        out.add(f"{row_name(y):>{gutter - 1}} ", LABEL)
        for x in range(board.width):
            look = board.look(x, y)
            owner = frame.owners.get((x, y))
            hit = frame.hits.get((x, y))
            if hit is not None:
                cell = style("#000000", hit, True)
            elif owner is not None and board.char(x, y) == "F":
                cell = style(owner, look.bg, True)
            else:
                cell = look_style(look)
            out.add(look.glyph, cell)
            out.add(" ", style(None, hit or owner or look.bg))
        if y < board.height - 1:
            out.add("\n", LABEL)
    return out.text()


def racer_text(frame: RacerFrame) -> Text:
    board = frame.board
    text = Text(no_wrap=True)
    for y in range(-1, board.height + 1):
        for x in range(-1, board.width + 1):
            look = board.look(x, y, show_path=frame.path)
            text.append(look.glyph, styled(look))
        if y < board.height:
            text.append("\n")
    return text


def link_panels(frames: list[RacerFrame]) -> RenderableType:
    """Every racer's board in a frame titled with their name (data, never markup)."""
    panels = [
        Panel(
            racer_text(f),
            title=Text(plain(f.name), style=f.color),
            border_style=f.color if f.path else "#555555",
            expand=False,
        )
        for f in frames
    ]
    return Columns(panels) if panels else Text(_("No boards in this game."))
