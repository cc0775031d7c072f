"""Display-free decisions of the Tk client, so tests can check them without X.

Board looks and text come from :mod:`client.views` (shared with the terminal
client); this module adds what only a pixel UI needs: where cells sit on a
canvas of any size, which intent a click means, and which bars and buttons
the room screen shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridhall.client.session import RoomCopy
from gridhall.client.views import gomoku, linkmatch, minesweeper
from gridhall.client.views.common import Message, clock, names, result_text
from gridhall.client.views.linkmatch import LinkBoard
from gridhall.client.views.minesweeper import MinesBoard, next_mark

Intent = tuple[str, dict[str, Any]]
"""A request for the server: message type and fields."""

MIN_CELL = 12
MAX_CELL = 96


@dataclass(frozen=True)
class Geometry:
    """Square cells laid out in a canvas, centred, with ``margin`` cells of frame
    around the grid (labels on Gomoku, the link ring on Link-match)."""

    cols: int
    rows: int
    cell: float
    left: float
    top: float

    @classmethod
    def fit(cls, cols: int, rows: int, width: int, height: int, margin: float = 0.0) -> Geometry:
        """The largest cells that fit ``width`` x ``height`` pixels."""
        cols, rows = max(cols, 1), max(rows, 1)
        span_x, span_y = cols + 2 * margin, rows + 2 * margin
        cell = min(width / span_x, height / span_y)
        cell = max(MIN_CELL, min(MAX_CELL, cell))
        left = (width - cols * cell) / 2
        top = (height - rows * cell) / 2
        return cls(cols, rows, cell, left, top)

    def cell_at(self, px: float, py: float, ring: int = 0) -> tuple[int, int] | None:
        """The cell under a pixel (cells up to ``ring`` outside the grid count)."""
        x = int((px - self.left) // self.cell)
        y = int((py - self.top) // self.cell)
        if -ring <= x < self.cols + ring and -ring <= y < self.rows + ring:
            return x, y
        return None

    def box(self, x: float, y: float) -> tuple[float, float, float, float]:
        """Pixel rectangle of a cell (x0, y0, x1, y1)."""
        x0 = self.left + x * self.cell
        y0 = self.top + y * self.cell
        return x0, y0, x0 + self.cell, y0 + self.cell

    def center(self, x: float, y: float) -> tuple[float, float]:
        return self.left + (x + 0.5) * self.cell, self.top + (y + 0.5) * self.cell


# ---- clicks -> intents -------------------------------------------------------------


def gomoku_click(state: Message, me: str | None, x: int, y: int) -> Intent | None:
    """A stone on an empty point, on our turn only (the server would refuse the rest)."""
    if state.get("status") != "playing" or state.get("turn") != me:
        return None
    board = gomoku.GomokuBoard.from_view(state.get("view") or {})
    if not (0 <= x < board.size and 0 <= y < board.size) or (x, y) in board.stones:
        return None
    return "move", {"move": {"x": x, "y": y}}


def mines_click(view: Message, x: int, y: int, button: str) -> Intent | None:
    """``left`` reveals (or chords a satisfied number), ``right`` cycles
    flag -> ? -> none (or quick-flags around a number), ``middle`` chords."""
    board = MinesBoard.from_view(view)
    if not (0 <= x < board.width and 0 <= y < board.height):
        return None
    ch = board.char(x, y)
    move: dict[str, Any] | None = None
    if button == "left":
        if ch in "#?":
            move = {"action": "reveal", "x": x, "y": y}
        elif board.satisfied(x, y):
            move = {"action": "chord", "x": x, "y": y}
    elif button == "right":
        if ch in "#F?":
            move = {"action": "mark", "x": x, "y": y, "mark": next_mark(ch)}
        elif ch in "12345678":
            move = {"action": "flag-around", "x": x, "y": y}
    elif button == "middle" and ch in "12345678":
        move = {"action": "chord", "x": x, "y": y}
    return ("move", {"move": move}) if move else None


class LinkSelection:
    """The first tile picked; a second click on a tile asks for the link."""

    def __init__(self) -> None:
        self.selected: tuple[int, int] | None = None

    def click(self, view: Message, x: int, y: int) -> Intent | None:
        board = LinkBoard.from_view(view)
        if not board.kind(x, y) or self.selected == (x, y):
            self.selected = None
            return None
        if self.selected is None:
            self.selected = (x, y)
            return None
        a, self.selected = self.selected, None
        return "move", {"move": {"action": "link", "a": list(a), "b": [x, y]}}

    def forget_if_gone(self, view: Message) -> None:
        """Drop a selection whose tile vanished (linked, shuffled or a new game)."""
        if self.selected and not LinkBoard.from_view(view).kind(*self.selected):
            self.selected = None


# ---- the room screen's bars and buttons ----------------------------------------------


def seated(state: Message, me: str | None) -> bool:
    return any(p.get("player") == me for p in state.get("players") or [])


@dataclass(frozen=True)
class Banner:
    """The game-over bar: headline and which consent buttons to show."""

    text: str
    again: bool
    agree: bool
    decline: bool


def banner(copy: RoomCopy, me: str | None) -> Banner | None:
    """None while no game has ended; else the result and the play-again handshake."""
    state = copy.state
    if state.get("status") != "over":
        return None
    who = names(state)
    text = result_text(state, me)
    asked = [who.get(p, "?") for p in copy.again if p != me]
    mine = me in copy.again
    if mine:
        text += "  Waiting for the others to agree…"
    elif asked:
        text += f"  {', '.join(asked)} want{'s' if len(asked) == 1 else ''} another game."
    if copy.declined:
        text += f"  {', '.join(who.get(p, '?') for p in copy.declined)} declined."
    sit = seated(state, me)
    return Banner(
        text=text,
        again=sit and not asked and not mine,
        agree=sit and bool(asked) and not mine,
        decline=sit and bool(asked) and not mine,
    )


@dataclass(frozen=True)
class OfferBar:
    text: str
    can_answer: bool


def offer_bar(state: Message, me: str | None) -> OfferBar | None:
    """A pending Gomoku draw / take-back offer, and whether we may answer it."""
    if state.get("game") != "gomoku" or state.get("status") != "playing":
        return None
    text = gomoku.offer_text(state, me)
    if not text:
        return None
    pending = (state.get("view") or {}).get("pending") or {}
    return OfferBar(text, can_answer=pending.get("from") != me and seated(state, me))


ACTIONS: dict[str, list[tuple[str, str]]] = {
    "gomoku": [("draw", "Offer draw"), ("takeback", "Take back")],
    "minesweeper": [("hint", "Hint")],
    "linkmatch": [("start", "Start"), ("hint", "Hint"), ("shuffle", "Shuffle")],
}
COMMON_ACTIONS = [("resign", "Resign"), ("leave", "Leave room")]


def action_states(state: Message, me: str | None) -> dict[str, tuple[bool, bool]]:
    """Each action button's (visible, enabled)."""
    game = str(state.get("game"))
    playing = state.get("status") == "playing"
    sit = seated(state, me)
    out: dict[str, tuple[bool, bool]] = {}
    for key, _ in ACTIONS.get(game, []) + COMMON_ACTIONS:
        if key == "leave":
            out[key] = (True, True)
        elif key == "start":
            out[key] = (state.get("status") == "waiting" and state.get("creator") == me, True)
        else:
            out[key] = (sit, playing)
    return out


def action_intent(key: str, state: Message) -> Intent | None:
    """The request an action button sends."""
    simple = {
        "resign": "resign",
        "leave": "leave-room",
        "start": "start",
        "again": "play-again",
        "agree": "agree-again",
        "decline": "decline-again",
    }
    if key in simple:
        return simple[key], {}
    if key in ("draw", "takeback"):
        return "offer", {"kind": key}
    if key in ("hint", "shuffle"):
        return "move", {"move": {"action": key}}
    if key in ("accept", "refuse"):
        pending = (state.get("view") or {}).get("pending") or {}
        if pending:
            return "answer", {"kind": pending.get("kind"), "accept": key == "accept"}
    return None


def live_state(state: Message, seconds_since: float) -> Message:
    """The state with clocks run forward by the time since it arrived (the server
    only sends ``elapsed`` as of its latest event)."""
    view = state.get("view")
    if state.get("status") != "playing" or not isinstance(view, dict):
        return state
    view = dict(view)
    starts_in = view.get("starts_in")
    if isinstance(starts_in, int | float) and starts_in > 0:
        left = starts_in - seconds_since
        view["starts_in"] = max(0.0, left)
        if left < 0 and isinstance(view.get("elapsed"), int | float):
            view["elapsed"] = float(view["elapsed"]) - left
    elif isinstance(view.get("elapsed"), int | float) and (
        state.get("game") != "minesweeper" or view.get("revealed")
    ):
        view["elapsed"] = float(view["elapsed"]) + seconds_since
    return {**state, "view": view}


def status_line(copy: RoomCopy, me: str | None, connected: bool) -> str:
    """The line under the board: the game's own status, plus watching/offline notes."""
    state = copy.state
    game = state.get("game")
    if game == "gomoku":
        line = gomoku.status_text(state, me)
    elif game == "minesweeper":
        line = minesweeper.status_text(state, me, copy.last_actions)
    elif game == "linkmatch":
        line = linkmatch.status_text(state, me)
    else:
        line = str(state.get("status") or "")
    if state.get("game") == "gomoku":
        clk = ((state.get("view") or {}).get("clock") or {}).get("remaining") or {}
        if clk:
            who = names(state)
            line += " · " + ", ".join(f"{who.get(p, '?')} {clock(s)}" for p, s in clk.items())
    line = line.replace("⏱", "◷")  # the stopwatch is missing from common fonts
    if not seated(state, me):
        line = "Watching · " + line
    if not connected:
        line = "Reconnecting… · " + line
    return line


def player_roles(state: Message) -> dict[str, str]:
    """The note next to each player: colour, progress or cells opened."""
    view = state.get("view") or {}
    game = state.get("game")
    if game == "gomoku":
        return {str(p): str(c) for p, c in (view.get("colors") or {}).items()}
    if game == "linkmatch":
        standing = view.get("standing") or {}
        roles = {}
        for p, n in (view.get("progress") or {}).items():
            how = standing.get(p)
            roles[str(p)] = f"{n} left" + (f" ({how})" if how not in (None, "racing") else "")
        return roles
    if game == "minesweeper":
        return minesweeper.roles(state)
    return {}
