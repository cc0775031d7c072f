"""Reversi for the clients: the board model (discs, legal-move hints for the side to
move, the last move and what it turned over, the counts; a click -> a disc), the rest
from the description."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.client.messages import Request
from gridhall.client.room import RoomCopy
from gridhall.client.views.base import GameView
from gridhall.client.views.common import Look, Message, ReplayFrame
from gridhall.protocol.cells import cell_name
from gridhall.protocol.games.reversi import REVERSI
from gridhall.protocol.i18n import gettext as _

if TYPE_CHECKING:
    from gridhall.client.replays import ReplayPlayer

FELT = "#2e7d4f"
FELT_LAST = "#4f9d6a"
FELT_FLIPPED = "#3c8c5c"
HINT = "#a8d5b5"
BLACK_DISC = "#101010"
WHITE_DISC = "#f4f4f4"
CURSOR_BG = "#3d8bfd"
DISC_GLYPHS = {
    ("b", False): "●",
    ("w", False): "○",
    ("b", True): "◉",
    ("w", True): "◎",
}
"""Black is filled, white hollow (told apart without colour); the last disc is ringed."""
HINT_GLYPH = "·"
EMPTY_GLYPH = " "
COLOURS = {"b": "black", "w": "white"}


def _cells(items: object) -> set[tuple[int, int]]:
    """A view's list of ``[x, y]`` as a set (anything malformed left out)."""
    out: set[tuple[int, int]] = set()
    for item in items if isinstance(items, list) else []:
        if isinstance(item, list | tuple) and len(item) == 2:
            x, y = item
            if isinstance(x, int) and isinstance(y, int):
                out.add((x, y))
    return out


@dataclass
class ReversiBoard:
    """One Reversi view made easy to draw."""

    size: int
    discs: dict[tuple[int, int], str] = field(default_factory=dict)
    """(x, y) -> ``b`` or ``w``."""
    legal: set[tuple[int, int]] = field(default_factory=set)
    flipped: set[tuple[int, int]] = field(default_factory=set)
    last: tuple[int, int] | None = None
    counts: dict[str, int] = field(default_factory=dict)
    next: str | None = None

    @classmethod
    def from_view(cls, view: Message) -> ReversiBoard:
        size = view.get("size")
        size = size if isinstance(size, int) and not isinstance(size, bool) else 8
        board = cls(size=size, next=view.get("next"))
        rows = view.get("board")
        if isinstance(rows, str):
            for i, ch in enumerate(rows[: size * size]):
                if ch in COLOURS:
                    board.discs[(i % size, i // size)] = ch
        board.legal = _cells(view.get("legal"))
        board.flipped = _cells(view.get("flipped"))
        last = _cells([view.get("last")])
        board.last = next(iter(last)) if last else None
        counts = view.get("counts")
        if isinstance(counts, dict):
            board.counts = {k: v for k, v in counts.items() if isinstance(v, int)}
        return board

    def coord(self, x: int, y: int) -> str:
        """``D3``-style name of a cell (as the server writes it)."""
        return cell_name(x, y)

    def what(self, x: int, y: int) -> str:
        """What is on a cell: ``black``, ``white``, ``legal`` (a move for the side to
        move) or ``empty``; the boards label and draw cells by it."""
        disc = self.discs.get((x, y))
        if disc is not None:
            return COLOURS[disc]
        return "legal" if (x, y) in self.legal else "empty"

    def look(
        self, x: int, y: int, cursor: tuple[int, int] | None = None, hints: bool = True
    ) -> Look:
        """A cell: a disc (ringed when just placed), a hint dot, or the felt."""
        if (x, y) == cursor:
            bg = CURSOR_BG
        elif (x, y) == self.last:
            bg = FELT_LAST
        elif (x, y) in self.flipped:
            bg = FELT_FLIPPED
        else:
            bg = FELT
        disc = self.discs.get((x, y))
        if disc is not None:
            glyph = DISC_GLYPHS[disc, (x, y) == self.last]
            return Look(glyph, BLACK_DISC if disc == "b" else WHITE_DISC, bg, bold=True)
        if hints and (x, y) in self.legal:
            return Look(HINT_GLYPH, HINT, bg, bold=True)
        return Look(EMPTY_GLYPH, HINT, bg)

    def click(self, state: p.State, me: str | None, x: int, y: int) -> Request | None:
        """A disc on a legal cell, on our turn only (the server would refuse the rest)."""
        if state.status != "playing" or state.turn is None or state.turn != me:
            return None
        if (x, y) not in self.legal:
            return None
        return p.Move(move={"x": x, "y": y})


class ReversiView(GameView):
    """Two players, black moves first; passes played by the server; offers; clocks."""

    description = REVERSI

    def board(self, room: RoomCopy) -> ReversiBoard:
        """The board (hints only while the game runs); before a game exists the room
        options give its size."""
        state = room.state
        board = ReversiBoard.from_view({**state.options, **state.view} if state else {})
        if state is None or state.status != "playing":
            board.legal = set()  # the last view's moves, no longer anyone's to make
        return board

    def click(self, room: RoomCopy, me: str | None, x: int, y: int) -> Request | None:
        """A click on cell (x, y): a disc, if it is our turn and the cell is a legal move."""
        return self.board(room).click(room.state, me, x, y) if room.state else None

    def replay_frames(self, player: ReplayPlayer) -> list[ReplayFrame]:
        """One board, captioned with the disc counts of the shown step."""
        view = player.view()
        counts = ReversiBoard.from_view(view).counts
        title = _(
            "black {black} · white {white}",
            black=counts.get("black", 0),
            white=counts.get("white", 0),
        )
        return [ReplayFrame(view, title=title)]


VIEW = ReversiView
