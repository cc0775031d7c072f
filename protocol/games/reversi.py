"""Reversi (Othello) as every client shows it: options, actions, status line, results."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import msgspec

from gridhall.protocol.i18n import N_

from .clocked import (
    CLOCKS_LEFT,
    LEVELS,
    OFFERS,
    OPPONENT,
    RATED,
    ROLES,
    TURN,
    VERSUS,
    ChessClock,
    Colour,
    Pending,
)
from .data import Data, GameTypes, Point, Result
from .describe import Choice, Game, Live, Preset, Text


class ReversiOptions(Data, kw_only=True):
    size: int = 8
    clock: str | None = None
    """``minutes+increment``, one of the form's choices (``"5+3"``)."""
    ai: str | None = None
    rated: bool | None = None


class Counts(Data, kw_only=True):
    black: int
    white: int


class ReversiView(Data, kw_only=True):
    size: int
    board: str
    """``size * size`` characters, top row first: ``.`` empty, ``b`` black, ``w`` white."""
    moves: list[Point]
    next: Colour
    colors: dict[str, Colour]
    counts: Counts
    legal: list[Point]
    """The cells the side to move may play (empty once over)."""
    last: Point | None = None
    flipped: list[Point] | None = None
    """The discs the last move turned over."""
    passed: Colour | None = None
    """The colour that had to pass after the last move."""
    pending: Pending | None = None
    clock: ChessClock | None = None


class ReversiMove(Data, kw_only=True):
    x: int
    y: int
    flipped: list[Point] | None = None
    """(as the room echoes it) the discs it turned over."""
    passer: str | None = msgspec.field(name="pass", default=None)
    """(as the room echoes it) the player who then has to pass."""


class ReversiResult(Result, kw_only=True):
    discs: Counts | None = None
    loser: str | None = None
    removed: str | None = None


class ReversiRecord(Data, kw_only=True):
    options: ReversiOptions
    colors: dict[str, Colour]
    log: list[tuple[Any, ...]]
    """``("move", player, x, y, seconds)``, or an offer taken or an ending, in order."""
    log_omitted: int
    moves: list[Point]


class PassNotice(Data, kw_only=True):
    """``data`` of a ``pass`` notice: who has no legal move."""

    player: str


TYPES = GameTypes(
    ReversiOptions, ReversiView, ReversiMove, ReversiResult, ReversiRecord, PassNotice
)


class ReversiEnd(StrEnum):
    """Reversi's own way to end, beside the common ones (resign, timeout, agreed-draw,
    disconnect, removed)."""

    DISCS = "discs"
    """Neither side can move: the one with more discs wins (equal counts draw)."""


CLOCKS = (
    (None, N_("no clock")),
    ("1+0", N_("1 min")),
    ("5+3", N_("5 min + 3 s a move")),
    ("10+5", N_("10 min + 5 s a move")),
    ("15+10", N_("15 min + 10 s a move")),
)
"""The clocks a room may ask for, as ``minutes+increment``."""
SIZES = ((8, N_("8×8")), (6, N_("6×6")), (10, N_("10×10")))
COUNTS = {"black": ["first", "view.counts.black", 0], "white": ["first", "view.counts.white", 0]}
FINAL = {"black": ["first", "result.discs.black", 0], "white": ["first", "result.discs.white", 0]}

REVERSI = Game(
    name="reversi",
    title=N_("Reversi"),
    ratings="rated",
    data=TYPES,
    form=(
        Choice("size", N_("Board"), SIZES, 8),
        Choice("clock", N_("Clock"), CLOCKS, None),
        OPPONENT,
        RATED,
    ),
    presets=(
        Preset(N_("8×8"), {"size": 8}),
        Preset(N_("6×6"), {"size": 6}),
        Preset(N_("10×10"), {"size": 10}),
        Preset(N_("vs computer (easy)"), {"size": 8, "ai": "easy"}),
        Preset(N_("vs computer (hard)"), {"size": 8, "ai": "hard"}),
        Preset(N_("8×8, 5+3 clock"), {"size": 8, "clock": "5+3"}),
    ),
    actions=OFFERS,
    live=(Live("chess", "clock"),),
    status=(
        *TURN,
        Text(N_("black {black} · white {white}"), when=("view.counts",), facts=COUNTS),
        Text(N_("last {cell}"), when=("$cell",), facts={"cell": ["cell", "view.last"]}),
        Text(
            N_("{name} passed"),
            when=("view.passed", "playing"),
            facts={"name": ["word", "colors", "view.passed"]},
        ),
        CLOCKS_LEFT,
    ),
    results=(
        Text(
            N_("Draw: {black} discs each."),
            when=("result.reason=discs", "!?result.winner"),
            facts=FINAL,
        ),
        Text(
            N_("You win: black {black}, white {white}!"),
            when=("result.reason=discs", "result.winner=@me"),
            facts=FINAL,
        ),
        Text(
            N_("{winner} wins: black {black}, white {white}."),
            when=("result.reason=discs",),
            facts={**FINAL, "winner": ["name", "result.winner", N_("The opponent")]},
        ),
    ),
    notices={
        "pass": (
            Text(
                N_("{name} has no legal move and passes."),
                facts={"name": ["name", "data.player", N_("Someone")]},
            ),
        ),
    },
    roles=ROLES,
    summary=(
        Text(N_("{size}×{size}"), facts={"size": ["first", "options.size", 8]}),
        Text("{clock}", when=("options.clock",), facts={"clock": "options.clock"}),
        *VERSUS,
    ),
    gesture=N_("Tap or click a marked cell to place a disc."),
    sides=(("size", 8),),
    lists=(("moves", "cells"), ("board", "cells"), ("legal", "cells"), ("flipped", "cells")),
    words={
        "levels": LEVELS,
        "reasons": {str(ReversiEnd.DISCS): N_("more discs")},
    },
)
"""Reversi's description."""
DESCRIPTION = REVERSI
