"""Gomoku as every client shows it: options, actions, status line, results."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

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
from .describe import Choice, Game, Live, Number, Preset, Text

Rule = Literal["freestyle", "standard", "renju"]


class GomokuClock(Data, kw_only=True):
    """A clock option as the server parsed it (``"10+5"`` on the create form)."""

    minutes: float
    increment: float = 0


class GomokuOptions(Data, kw_only=True):
    size: int = 15
    rule: Rule = "freestyle"
    clock: GomokuClock | None = None
    ai: str | None = None
    """A level (``easy``, ``hard``) or an external engine (``engine:NAME``)."""
    move_limit: int | None = None
    rated: bool | None = None


class GomokuView(Data, kw_only=True):
    size: int
    rule: Rule
    moves: list[Point]
    next: Colour
    colors: dict[str, Colour]
    last: Point | None = None
    pending: Pending | None = None
    clock: ChessClock | None = None
    line: list[Point] | None = None
    """The winning row, once there is one."""


class GomokuMove(Data, kw_only=True):
    x: int
    y: int


class GomokuResult(Result, kw_only=True):
    line: list[Point] | None = None
    loser: str | None = None
    removed: str | None = None


class GomokuRecord(Data, kw_only=True):
    options: GomokuOptions
    colors: dict[str, Colour]
    log: list[tuple[Any, ...]]
    """``("move", player, x, y, seconds)``, or an offer taken or an ending, in order."""
    log_omitted: int
    moves: list[Point]


TYPES = GameTypes(GomokuOptions, GomokuView, GomokuMove, GomokuResult, GomokuRecord)

CLOCKS = (
    (None, N_("no clock")),
    ("5+3", N_("5 min + 3 s a move")),
    ("10+5", N_("10 min + 5 s a move")),
    ("15+10", N_("15 min + 10 s a move")),
    ("30+20", N_("30 min + 20 s a move")),
)


class GomokuEnd(StrEnum):
    """Gomoku's own ways to end (beside :class:`~gridhall.protocol.Termination`'s)."""

    FIVE = "five"
    """Five (or, by the rule, more) in a row."""
    DRAW = "draw"
    """The board is full, or the room's move limit was reached."""
    FORBIDDEN = "forbidden"
    """(contract) A renju foul that ends the game; gridhall refuses fouls instead."""


REASONS = {
    GomokuEnd.FIVE: N_("five in a row"),
    GomokuEnd.DRAW: N_("the board is full"),
    GomokuEnd.FORBIDDEN: N_("a forbidden move"),
}
RULES = {"freestyle": N_("freestyle"), "standard": N_("standard"), "renju": N_("renju")}

GOMOKU = Game(
    name="gomoku",
    title=N_("Gomoku"),
    ratings="rated",
    analysis=True,
    data=TYPES,
    form=(
        Choice("size", N_("Board"), ((15, N_("15×15")), (19, N_("19×19"))), 15),
        Choice(
            "rule",
            N_("Rule"),
            (
                ("freestyle", N_("freestyle: five or more")),
                ("standard", N_("standard: exactly five")),
                ("renju", N_("renju (15×15 only)")),
            ),
            "freestyle",
        ),
        Choice("clock", N_("Clock"), CLOCKS, None),
        OPPONENT,
        Number("move_limit", N_("Move limit"), 10, 361, None, form=False),
        RATED,
    ),
    presets=(
        Preset(N_("15×15 freestyle"), {"size": 15, "rule": "freestyle"}),
        Preset(N_("15×15 standard (exactly five)"), {"size": 15, "rule": "standard"}),
        Preset(N_("15×15 renju"), {"size": 15, "rule": "renju"}),
        Preset(N_("19×19 freestyle"), {"size": 19, "rule": "freestyle"}),
        Preset(N_("vs computer (easy)"), {"size": 15, "rule": "freestyle", "ai": "easy"}),
        Preset(N_("vs computer (hard)"), {"size": 15, "rule": "freestyle", "ai": "hard"}),
        Preset(
            N_("15×15 freestyle, 10+5 clock"), {"size": 15, "rule": "freestyle", "clock": "10+5"}
        ),
    ),
    actions=OFFERS,
    live=(Live("chess", "clock"),),
    status=(
        *TURN,
        Text(N_("move {n}"), when=("playing",), facts={"n": ["add", ["count", "view.moves"], 1]}),
        Text(N_("move {n}"), when=("over",), facts={"n": ["count", "view.moves"]}),
        Text(N_("last {cell}"), when=("$cell",), facts={"cell": ["cell", ["last", "view.moves"]]}),
        Text(
            "{rule}",
            when=("$rule",),
            facts={"rule": ["word", "rules", ["first", "view.rule", "options.rule"]]},
        ),
        CLOCKS_LEFT,
    ),
    roles=ROLES,
    summary=(
        Text(
            N_("{size}×{size} {rule}"),
            facts={
                "size": ["first", "options.size", 15],
                "rule": ["word", "rules", ["first", "options.rule", "'freestyle"]],
            },
        ),
        Text(
            "{minutes}+{increment}",
            when=("?options.clock.minutes",),
            facts={
                "minutes": "options.clock.minutes",
                "increment": ["first", "options.clock.increment", 0],
            },
        ),
        Text(
            "{clock}",
            when=("options.clock", "!?options.clock.minutes"),
            facts={"clock": "options.clock"},
        ),
        *VERSUS,
    ),
    gesture=N_("Tap or click a point to place a stone."),
    sides=(("size", 15),),
    lists=(("moves", "cells"),),
    words={
        "rules": RULES,
        "levels": LEVELS,
        "reasons": {str(k): v for k, v in REASONS.items()},
    },
)
DESCRIPTION = GOMOKU
