"""Co-op Minesweeper as every client shows it: options, actions, status line, results."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from gridhall.protocol.i18n import N_, Nn_

from .data import Data, GameTypes, Point, Result
from .describe import Action, Choice, Each, Game, Live, Number, Preset, Text, Toggle

Preset_ = Literal["beginner", "intermediate", "expert"]
Act = Literal["reveal", "chord", "mark", "flag-around", "hint"]


class MinesweeperOptions(Data, kw_only=True):
    preset: Preset_ | None
    width: int
    height: int
    mines: int
    first_click: Literal["opening", "safe"]
    no_guess: bool
    max_adjacent: int | None
    lives: int
    max_players: int
    hint_penalty: float


class LastAction(Data, kw_only=True):
    """A player's latest action on the board."""

    action: str
    x: int | None
    y: int | None


class PlayerStats(Data, kw_only=True):
    revealed: int
    flagged: int
    mines_hit: int


class MineHint(Data, kw_only=True):
    """A hint: a safe cell, the best guess (its ``risk``), or a coin flip (``other``)."""

    x: int
    y: int
    safe: bool | None = None
    risk: float | None = None
    coin_flip: bool | None = None
    other: Point | None = None


class MinesweeperView(Data, kw_only=True):
    width: int
    height: int
    mines: int
    rows: list[str]
    """One text per row: a count, or a hidden, flagged, questioned or exploded cell."""
    flags: int
    revealed: int
    elapsed: float
    lives: int
    lives_left: int
    exploded: list[Point]
    last: dict[str, LastAction]
    stats: dict[str, PlayerStats]
    left: list[str]
    hint: MineHint | None


class MinesweeperMove(Data, kw_only=True):
    action: Act
    x: int | None = None
    y: int | None = None
    mark: Literal["flag", "question", "none"] | None = None


class FinalStats(Data, kw_only=True):
    revealed: int
    flags: int
    """Flags on mines."""
    mines_hit: int


class MinesweeperResult(Result, kw_only=True):
    stats: dict[str, FinalStats]
    time: float
    """The team's time, hint penalties included."""
    by: str | None = None
    """Who hit the last mine."""


class MinesweeperRecord(Data, kw_only=True):
    options: MinesweeperOptions
    players: list[str]
    seed: int
    layout: list[Point]
    first_click: Point | None
    actions: list[tuple[Any, ...]]
    """``[player, action, x, y, mark, seconds]`` in order."""
    actions_omitted: int
    result: MinesweeperResult | None
    generation: str | None


class MinesweeperNotice(Data, kw_only=True):
    """A hint that found nothing (``hint`` notices; no other notices have data)."""

    found: bool | None = None
    why: str | None = None


TYPES = GameTypes(
    MinesweeperOptions,
    MinesweeperView,
    MinesweeperMove,
    MinesweeperResult,
    MinesweeperRecord,
    MinesweeperNotice,
)

CUSTOM = {"preset": None}
"""Width, height and mines apply only to a custom board (no preset)."""
PRESETS = {"beginner": N_("beginner"), "intermediate": N_("intermediate"), "expert": N_("expert")}
WHO = ["name", "@key", "?"]
WHERE = ["cell", "@value"]


def _did(action: str, msgid: str) -> Text:
    return Text(msgid, when=(f"@value.action={action}",), facts={"name": WHO, "cell": WHERE})


class MinesEnd(StrEnum):
    """Co-op Minesweeper's own ways to end (everyone left: ``resign``)."""

    CLEARED = "cleared"
    """Every safe cell is open: the team wins."""
    MINE = "mine"
    """The last life was lost on a mine."""


MINESWEEPER = Game(
    name="minesweeper",
    title=N_("Minesweeper"),
    coop=True,
    ratings="records",
    data=TYPES,
    form=(
        Choice(
            "preset",
            N_("Board"),
            (
                ("beginner", N_("beginner 9×9, 10 mines")),
                ("intermediate", N_("intermediate 16×16, 40 mines")),
                ("expert", N_("expert 30×16, 99 mines")),
                (None, N_("custom size…")),
            ),
            "intermediate",
        ),
        Number("width", N_("Width"), 1, 200, 16, when=CUSTOM),
        Number("height", N_("Height"), 1, 200, 16, when=CUSTOM),
        Number("mines", N_("Mines"), 1, 200 * 200 - 9, 40, when=CUSTOM),
        Toggle("no_guess", N_("No guessing needed"), False),
        Number("lives", N_("Lives"), 1, 99, 1),
        Choice(
            "first_click",
            N_("First click"),
            (("opening", N_("opens an area")), ("safe", N_("is only safe"))),
            "opening",
        ),
        Number("max_adjacent", N_("Most mines around a cell"), 1, 8, None, form=False),
        Number("max_players", N_("Players"), 1, 8, 8, form=False),
        Number("hint_penalty", N_("Hint penalty (s)"), 0, 3600, 20, form=False, real=True),
    ),
    presets=(
        Preset(N_("beginner 9×9, 10 mines"), {"preset": "beginner"}),
        Preset(N_("intermediate 16×16, 40 mines"), {"preset": "intermediate"}),
        Preset(N_("expert 30×16, 99 mines"), {"preset": "expert"}),
        Preset(N_("expert, no guessing"), {"preset": "expert", "no_guess": True}),
        Preset(
            N_("custom 40×20, 120 mines, 3 lives"),
            {"preset": None, "width": 40, "height": 20, "mines": 120, "lives": 3},
        ),
    ),
    actions=(
        Action(
            "hint",
            N_("Hint"),
            "h",
            N_("hint: a safe cell, the best guess, or says it is a coin flip (adds time)"),
            {"type": "move", "move": {"action": "hint"}},
        ),
    ),
    live=(Live("elapsed", "elapsed", when=("view.revealed",)),),
    status=(
        Text.counted(
            Nn_("⚑ {n} mine left", "⚑ {n} mines left"),
            facts={"n": ["sub", "view.mines", "view.flags"]},
        ),
        Text(N_("⏱ {time}"), facts={"time": ["clock", ["first", "view.elapsed", 0]]}),
        Text(
            N_("{open}/{total} open"),
            facts={
                "open": ["first", "view.revealed", 0],
                "total": ["sub", ["mul", "view.width", "view.height"], "view.mines"],
            },
        ),
        Text(
            N_("♥ {left}/{lives}"),
            when=("$more",),
            facts={
                "left": ["first", "view.lives_left", "view.lives"],
                "lives": "view.lives",
                "more": ["sub", ["first", "view.lives", 1], 1],
            },
        ),
        Text(
            N_("hint: {cell} is safe"),
            when=("$cell", "view.hint.safe"),
            facts={"cell": ["cell", "view.hint"]},
        ),
        Text(
            N_("hint: {cell} or {other} is a coin flip: one is a mine, and nothing can tell which"),
            when=("$cell", "$other", "view.hint.coin_flip"),
            facts={"cell": ["cell", "view.hint"], "other": ["cell", "view.hint.other"]},
        ),
        Text(
            N_("hint: {cell} is a coin flip, a mine one time in two: no hidden cell is safer"),
            when=("$cell", "!$other", "view.hint.coin_flip"),
            facts={"cell": ["cell", "view.hint"], "other": ["cell", "view.hint.other"]},
        ),
        Text(
            N_("the hint cost {penalty} s"),
            when=("view.hint.coin_flip", "$penalty"),
            facts={"penalty": "options.hint_penalty"},
        ),
        Text(
            N_("hint: {cell} is the best guess"),
            when=("$cell", "!view.hint.safe", "!view.hint.coin_flip"),
            facts={"cell": ["cell", "view.hint"]},
        ),
        Text(
            "{items}",
            each=Each(
                "view.last",
                (
                    Text(
                        N_("{name} hit a mine at {cell}"),
                        when=("$hit", "$cell"),
                        facts={
                            "name": WHO,
                            "cell": WHERE,
                            "hit": ["has", "view.exploded", "@value"],
                        },
                    ),
                    _did("reveal", N_("{name} opened {cell}")),
                    _did("chord", N_("{name} chorded {cell}")),
                    _did("mark", N_("{name} marked {cell}")),
                    _did("flag-around", N_("{name} flagged around {cell}")),
                    Text(N_("{name} played {cell}"), facts={"name": WHO, "cell": WHERE}),
                ),
                sep=" · ",
                skip_me=True,
                last=3,
            ),
        ),
    ),
    results=(
        Text(N_("Board cleared — everyone wins!"), when=("result.reason=cleared",)),
        Text(N_("Everyone left the game."), when=("result.reason=resign",)),
        Text(
            N_("Everyone lost the connection; the game is over."),
            when=("result.reason=disconnect",),
        ),
        Text(
            N_("Boom! {name} hit a mine."),
            when=("result.by",),
            facts={"name": ["name", "result.by", N_("Someone")]},
        ),
        Text(N_("Boom! A mine."), when=("result.reason=mine",)),
    ),
    roles=(
        Text(
            "{items}",
            each=Each(
                "view.stats",
                (
                    Text(
                        N_("{n} opened, {hit} hit"),
                        when=("@value.mines_hit",),
                        facts={"n": ["first", "@value.revealed", 0], "hit": "@value.mines_hit"},
                    ),
                    Text(N_("{n} opened"), facts={"n": ["first", "@value.revealed", 0]}),
                ),
            ),
        ),
        Text("{items}", each=Each("view.left", (Text(N_("left the game")),))),
    ),
    summary=(
        Text(
            "{preset}",
            when=("options.preset",),
            facts={"preset": ["first", ["word", "presets", "options.preset"], "options.preset"]},
        ),
        Text(
            N_("{width}×{height}, {mines} mines"),
            when=("!options.preset",),
            facts={
                "width": ["first", "options.width", 16],
                "height": ["first", "options.height", 16],
                "mines": ["first", "options.mines", 40],
            },
        ),
        Text(N_("no guessing"), when=("options.no_guess",)),
        Text(
            N_("{n} lives"),
            when=("$more",),
            facts={"n": "options.lives", "more": ["sub", ["first", "options.lives", 1], 1]},
        ),
    ),
    gesture=N_(
        "Tap / left-click reveals (a satisfied number chords); long-press / right-click "
        "flags → ? → none (on a number: flag around); middle-click chords."
    ),
    sides=(("width", 0), ("height", 0)),
    lists=(("rows", "rows"),),
    words={
        "presets": PRESETS,
        "reasons": {MinesEnd.CLEARED: N_("board cleared"), MinesEnd.MINE: N_("a mine")},
    },
)
DESCRIPTION = MINESWEEPER
