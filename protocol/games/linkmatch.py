"""Race-mode Link-match as every client shows it: options, actions, status, results."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from gridhall.protocol.i18n import N_, Nn_

from .data import Data, GameTypes, Point, Result
from .describe import Action, Choice, Each, Game, Live, Number, Preset, Text, Toggle

Standing = Literal["racing", "cleared", "time", "resigned", "removed"]


class LinkmatchOptions(Data, kw_only=True):
    width: int
    height: int
    kinds: int
    time_limit: int
    gravity: Literal["none", "down"]
    hint_penalty: float
    countdown: float
    rated: bool | None = None
    """Present (true) only in a rated room."""


class LinkmatchView(Data, kw_only=True):
    """Every racer's progress; a racer's own board only in their own view."""

    width: int
    height: int
    kinds: int
    gravity: Literal["none", "down"]
    time_limit: int
    progress: dict[str, int]
    """Tiles left, per racer."""
    finished: dict[str, float | None]
    standing: dict[str, Standing]
    elapsed: float
    starts_in: float | None = None
    rows: list[list[int]] | None = None
    remaining: int | None = None
    penalty: float | None = None
    wrong: int | None = None
    hints: int | None = None
    path: list[Point] | None = None
    """The last link's path, corners included."""
    hint: list[Point] | None = None
    shuffled: bool | None = None


class LinkmatchMove(Data, kw_only=True):
    action: Literal["link", "hint", "shuffle"]
    a: Point | None = None
    b: Point | None = None


class RaceStats(Data, kw_only=True):
    hints: int
    wrong: int
    shuffles: int
    penalty: float


class LinkmatchResult(Result, kw_only=True):
    times: dict[str, float]
    remaining: dict[str, int]
    stats: dict[str, RaceStats]
    ranking: list[str] | None = None
    """Best first; absent when the host removed a racer (nobody is ranked)."""
    decided_by: Literal["tiles", "first", "seat"] | None = None
    removed: str | None = None


class LinkmatchRecord(Data, kw_only=True):
    game: Literal["linkmatch"]
    options: LinkmatchOptions
    seed: int
    players: list[str]
    board: list[list[int]]
    actions: dict[str, list[dict[str, Any]]]
    """Each racer's actions (``{n, t, action, ...}``) in order."""
    actions_omitted: dict[str, int]
    result: LinkmatchResult | None


class LinkmatchNotice(Data, kw_only=True):
    """``race-start`` (nothing), ``time-up`` and ``shuffled`` (``player``), ``cleared``
    (``player``, ``time``)."""

    player: str | None = None
    time: float | None = None


TYPES = GameTypes(
    LinkmatchOptions,
    LinkmatchView,
    LinkmatchMove,
    LinkmatchResult,
    LinkmatchRecord,
    LinkmatchNotice,
)

STANDING = {
    "cleared": N_("cleared"),
    "time": N_("out of time"),
    "resigned": N_("resigned"),
    "removed": N_("removed by the host"),
}
"""How a racer who is out went out (the view's ``standing``), in words."""
HOW = [
    "first",
    ["word", "standing", ["at", "view.standing", "@key"]],
    ["at", "view.standing", "@key"],
]
OUT = ("$how", "!$how=racing")
WINNER = ["you", "result.winner", N_("the opponent")]
LEFT_W = ["first", ["at", "result.remaining", "result.winner"], "'?"]

RUNNER_UP = ["first", ["at", "result.ranking", 1]]
RUNNER_NAME = ["you", RUNNER_UP, N_("the opponent")]
LEFT_R = ["first", ["at", "result.remaining", RUNNER_UP], "'?"]

STARTING = Text(
    N_("Starting in {n}…"), when=("view.starts_in",), facts={"n": ["ceil", "view.starts_in"]}
)
PRESS_START = Text(N_("Press Start (g) when everyone is in"), when=("waiting", "host"))
"""To the host (at first the room's creator), who alone may start the race."""
WAITING_FOR = Text(
    N_("Waiting for {name} to start the race"),
    when=("waiting", "!host"),
    facts={"name": ["name", "host", N_("the room's host")]},
)


class RaceEnd(StrEnum):
    """A Link-match race's own ways to end (every racer resigned: ``resign``)."""

    CLEARED = "cleared"
    """A racer cleared their board: they win."""
    TIME = "time"
    """Time ran out and nobody cleared; the fewest tiles left wins."""


LINKMATCH = Game(
    name="linkmatch",
    title=N_("Link-match"),
    ratings="rated",
    data=TYPES,
    form=(
        Number("width", N_("Width"), 2, 30, 16),
        Number("height", N_("Height"), 2, 16, 9),
        Number("kinds", N_("Tile kinds"), 1, 240, 36),
        Number("time_limit", N_("Time limit (s)"), 10, 3600, 600),
        Choice(
            "gravity",
            N_("Gravity"),
            (("none", N_("none: tiles stay")), ("down", N_("down: tiles fall"))),
            "none",
        ),
        Number("hint_penalty", N_("Hint penalty (s)"), 0, 600, 10, form=False, real=True),
        Number("countdown", N_("Countdown (s)"), 0, 10, 3, form=False, real=True),
        Toggle("rated", N_("Rated (the game changes ratings)"), False),
    ),
    presets=(
        Preset(N_("16×9, 36 kinds, 10 min"), {"width": 16, "height": 9, "kinds": 36}),
        Preset(N_("12×7 quick, 5 min"), {"width": 12, "height": 7, "kinds": 21, "time_limit": 300}),
        Preset(N_("8×6 tiny, 3 min"), {"width": 8, "height": 6, "kinds": 12, "time_limit": 180}),
        Preset(N_("16×9 with gravity"), {"width": 16, "height": 9, "kinds": 36, "gravity": "down"}),
    ),
    actions=(
        Action(
            "start",
            N_("Start"),
            "g",
            N_("start the race (the room's host)"),
            {"type": "start"},
            shown=("waiting", "host"),
            enabled=("always",),
        ),
        Action(
            "hint",
            N_("Hint"),
            "h",
            N_("hint: a pair that links (costs time)"),
            {"type": "move", "move": {"action": "hint"}},
            enabled=("racing",),
        ),
        Action(
            "shuffle",
            N_("Shuffle"),
            "s",
            N_("shuffle your remaining tiles"),
            {"type": "move", "move": {"action": "shuffle"}},
            enabled=("racing",),
        ),
    ),
    live=(Live("countdown", "starts_in"), Live("elapsed", "elapsed", when=("in_race",))),
    status=(
        STARTING,
        PRESS_START,
        WAITING_FOR,
        Text.counted(
            Nn_("{n} tile left", "{n} tiles left"),
            when=("?view.remaining",),
            facts={"n": "view.remaining"},
        ),
        Text(
            N_("⏱ {time} / {limit} (+{penalty}s hints)"),
            when=("$limit", "view.penalty"),
            facts={
                "time": ["clock", ["first", "view.elapsed", 0]],
                "limit": ["clock", ["first", "view.time_limit", "options.time_limit"]],
                "penalty": ["int", "view.penalty"],
            },
        ),
        Text(
            N_("⏱ {time} / {limit}"),
            when=("$limit", "!view.penalty"),
            facts={
                "time": ["clock", ["first", "view.elapsed", 0]],
                "limit": ["clock", ["first", "view.time_limit", "options.time_limit"]],
            },
        ),
        Text(
            N_("⏱ {time}"),
            when=("!$limit",),
            facts={
                "time": ["clock", ["first", "view.elapsed", 0]],
                "limit": ["first", "view.time_limit", "options.time_limit"],
            },
        ),
        Text(
            N_("others: {items}"),
            each=Each(
                "view.progress",
                (
                    Text(
                        N_("{name} {n} ({how})"),
                        when=OUT,
                        facts={"name": ["name", "@key", "?"], "n": "@value", "how": HOW},
                    ),
                    Text(N_("{name} {n}"), facts={"name": ["name", "@key", "?"], "n": "@value"}),
                ),
                skip_me=True,
            ),
        ),
    ),
    board=(
        PRESS_START,
        WAITING_FOR,
        Text(
            N_("Watching the race: each racer's board is private"),
            when=("playing", "!?view.rows"),
        ),
        STARTING,
    ),
    results=(
        Text(
            N_("You cleared the board first and win the race!"),
            when=("result.reason=cleared", "result.winner=@me"),
        ),
        Text(
            N_("{name} cleared the board first and wins the race ({time})."),
            when=("result.reason=cleared", "result.winner", "$time"),
            facts={
                "name": ["name", "result.winner", N_("The opponent")],
                "time": ["clock", ["at", "result.times", "result.winner"]],
            },
        ),
        Text(
            N_("{name} cleared the board first and wins the race."),
            when=("result.reason=cleared", "result.winner"),
            facts={"name": ["name", "result.winner", N_("The opponent")]},
        ),
        Text(
            N_("Time is up: you win with the fewest tiles left ({left}; {runner} {other})."),
            when=("result.reason=time", "result.decided_by=tiles", "result.winner=@me"),
            facts={"left": LEFT_W, "runner": RUNNER_NAME, "other": LEFT_R},
        ),
        Text(
            N_("Time is up: {winner} wins with the fewest tiles left ({left}; {runner} {other})."),
            when=("result.reason=time", "result.decided_by=tiles"),
            facts={"winner": WINNER, "left": LEFT_W, "runner": RUNNER_NAME, "other": LEFT_R},
        ),
        Text(
            N_(
                "Time is up: you win: both you and {runner} had {left} tiles left, and you "
                "got there first."
            ),
            when=("result.reason=time", "result.decided_by=first", "result.winner=@me"),
            facts={"left": LEFT_W, "runner": RUNNER_NAME},
        ),
        Text(
            N_(
                "Time is up: {winner} wins: both {winner} and {runner} had {left} tiles left, "
                "and {winner} got there first."
            ),
            when=("result.reason=time", "result.decided_by=first"),
            facts={"winner": WINNER, "left": LEFT_W, "runner": RUNNER_NAME},
        ),
        Text(
            N_("Time is up: you win: nobody linked a pair, so the first seat wins."),
            when=("result.reason=time", "result.decided_by=seat", "result.winner=@me"),
        ),
        Text(
            N_("Time is up: {winner} wins: nobody linked a pair, so the first seat wins."),
            when=("result.reason=time", "result.decided_by=seat"),
            facts={"winner": WINNER},
        ),
        Text(
            N_("Time is up: you win with {left} tiles left."),
            when=("result.reason=time", "result.winner=@me"),
            facts={"left": LEFT_W},
        ),
        Text(
            N_("Time is up: {winner} wins with {left} tiles left."),
            when=("result.reason=time", "result.winner"),
            facts={"winner": WINNER, "left": LEFT_W},
        ),
        Text(N_("Everyone left the race."), when=("result.reason=resign", "!result.winner")),
    ),
    notices={
        "race-start": (Text(N_("Go! The race is on.")),),
        "time-up": (
            Text(
                N_("{name} ran out of time."),
                facts={"name": ["name", "data.player", N_("Someone")]},
            ),
        ),
        "shuffled": (
            Text(
                N_("No moves were left for {name}: the board was shuffled."),
                facts={"name": ["name", "data.player", N_("Someone")]},
            ),
        ),
        "cleared": (
            Text(
                N_("{name} cleared the board in {time}."),
                facts={
                    "name": ["name", "data.player", N_("Someone")],
                    "time": ["first", ["clock", "data.time"], "'?"],
                },
            ),
        ),
    },
    roles=(
        Text(
            "{items}",
            each=Each(
                "view.progress",
                (
                    Text(N_("{n} left ({how})"), when=OUT, facts={"n": "@value", "how": HOW}),
                    Text(N_("{n} left"), facts={"n": "@value"}),
                ),
            ),
        ),
    ),
    summary=(
        Text(
            N_("{width}×{height}, {kinds} kinds"),
            facts={
                "width": ["first", "options.width", 16],
                "height": ["first", "options.height", 9],
                "kinds": ["first", "options.kinds", 36],
            },
        ),
        Text(N_("gravity"), when=("options.gravity=down",)),
        Text(N_("rated"), when=("options.rated",)),
    ),
    ranking=Text(
        "{items}",
        each=Each(
            "result.ranking",
            (
                Text(
                    N_("{name}: cleared in {time}"),
                    when=("$left=0",),
                    facts={
                        "name": ["name", "@value", "?"],
                        "left": ["at", "result.remaining", "@value"],
                        "time": ["clock", ["at", "result.times", "@value"]],
                    },
                ),
                Text(
                    N_("{name}: {left} tiles left"),
                    facts={
                        "name": ["name", "@value", "?"],
                        "left": ["first", ["at", "result.remaining", "@value"], "'?"],
                    },
                ),
            ),
        ),
    ),
    gesture=N_("Tap a tile, then its twin: the link may turn twice, around the edge too."),
    sides=(("width", 0), ("height", 0)),
    lists=(("rows", "rows"), ("path", "path"), ("hint", "path")),
    words={
        "standing": STANDING,
        "reasons": {RaceEnd.CLEARED: N_("board cleared"), RaceEnd.TIME: N_("time")},
    },
)
DESCRIPTION = LINKMATCH
