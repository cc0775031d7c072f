"""The Minesweeper field in the terminal: hidden cells shaded, numbers in the
classic colours, the others' last clicks underlined in their colours, and
lettered columns and numbered rows (the names hints and messages use); in a replay
each opened or flagged cell striped in its player's colour, the hits in theirs."""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType

from gridhall.client.tui.boards.base import LABEL, Board, Runs, styled
from gridhall.client.views.base import Button
from gridhall.client.views.common import Look
from gridhall.client.views.minesweeper import MinesBoard, MinesweeperView, ReplayOwners
from gridhall.protocol.cells import column_name, row_name
from gridhall.protocol.i18n import N_


class MinesWidget(Board):
    """Hidden cells shaded, numbers in classic colours, others' last clicks underlined."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "mark", N_("Flag/?")),
        Binding("c", "chord_key", N_("Chord")),
        Binding("a", "flag_around", N_("Flag around"), show=False),
    ]
    KEYS_HELP: ClassVar[list[tuple[str, str]]] = [
        (N_("enter  space  left click"), N_("reveal (on a satisfied number: chord)")),
        (N_("f  right click"), N_("flag → question mark → clear")),
        (N_("c  middle  left+right"), N_("chord: open around a satisfied number")),
        (N_("a  right click a number"), N_("flag all hidden cells around it")),
    ]
    game = MinesweeperView()

    def grid_size(self) -> tuple[int, int]:
        return int(self.view.get("width") or 0), int(self.view.get("height") or 0)

    def label_width(self) -> int:
        """Columns left of the field: the row numbers and a space."""
        return len(str(self.grid_size()[1])) + 1

    def text_size(self) -> tuple[int, int]:
        w, h = self.grid_size()
        return self.label_width() + 2 * w + 1, h + 1

    def cell_at(self, col: int, row: int) -> tuple[int, int] | None:
        w, h = self.grid_size()
        x, y = (col - self.label_width()) // 2, row - 1
        if col >= self.label_width() and 0 <= x < w and 0 <= y < h:
            return x, y
        return None

    def click(self, x: int, y: int, button: Button) -> None:
        if self.room is not None:
            self.act(self.game.click(self.room, self.me, x, y, button))

    def action_mark(self) -> None:
        self.click(*self.cursor, "secondary")

    def action_chord_key(self) -> None:
        self.click(*self.cursor, "chord")

    def action_flag_around(self) -> None:
        if self.room is not None:
            self.act(self.game.flag_around(self.room, self.me, *self.cursor))

    def render(self) -> Text:
        if self.room is None:
            return Text()
        board = self.game.board(self.room, self.me)
        owners = self.frame.decoration if self.frame is not None else None
        if isinstance(owners, ReplayOwners):
            return replay_text(board, owners)
        cursor = self.cursor if self.has_focus else None
        gutter = self.label_width()
        text = Text(" " * gutter, style=LABEL, no_wrap=True)
        for x in range(board.width):
            text.append(f"{column_name(x):<2}", LABEL)
        text.append("\n")
        for y in range(board.height):
            text.append(f"{row_name(y):>{gutter - 1}} ", LABEL)
            for x in range(board.width):
                look = board.look(x, y, cursor)
                mark = board.mark_color(x, y)
                text.append(look.glyph, styled(look))
                text.append(" ", Style(bgcolor=mark or look.bg))
            if y < board.height - 1:
                text.append("\n")
        return text


@lru_cache(maxsize=512)
def look_style(look: Look) -> Style:
    """One Style per look (a big field has thousands of cells and few looks)."""
    return styled(look)


@lru_cache(maxsize=512)
def style(fg: str | None, bg: str | None, bold: bool = False) -> Style:
    return Style(color=fg, bgcolor=bg, bold=bold)


def replay_text(board: MinesBoard, frame: ReplayOwners) -> Text:
    """Each opened or flagged cell with a stripe in its player's colour; hits in theirs."""
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


BOARD = MinesWidget
