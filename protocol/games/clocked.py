"""What the two-player games on a chess clock (black and white, offers of a draw or a
take-back) say the same way: their clock and offer data, the offer actions, the status
lines of whose turn it is and of the clocks, the colours shown as roles, the opponent
and rated options and their summary. Each such game's module (``<game>.py``) builds its
description from these pieces and its own."""

from __future__ import annotations

from typing import Literal

import msgspec

from gridhall.protocol.i18n import N_

from .data import Data
from .describe import Action, Choice, Each, Text, Toggle

Colour = Literal["black", "white"]


class ChessClock(Data, kw_only=True):
    """Each player's time left as of ``since`` (unix seconds), the mover's running."""

    remaining: dict[str, float]
    increment: float
    running: str | None
    since: float


class Pending(Data, kw_only=True):
    """An offer waiting for the opponent's answer."""

    kind: Literal["draw", "takeback"]
    sender: str = msgspec.field(name="from")


OPPONENT = Choice(
    "ai",
    N_("Opponent"),
    (
        (None, N_("a person")),
        ("easy", N_("computer (easy)")),
        ("hard", N_("computer (hard)")),
    ),
    None,
)
"""The form's choice of a person or a computer level as the opponent."""
RATED = Toggle("rated", N_("Rated (the game changes ratings)"), False)

OFFERS = (
    Action("draw", N_("Offer draw"), "d", N_("offer a draw"), {"type": "offer", "kind": "draw"}),
    Action(
        "takeback",
        N_("Take back"),
        "t",
        N_("ask to take back your last move"),
        {"type": "offer", "kind": "takeback"},
    ),
)
"""The offers a player may make (a draw, taking back the last move)."""

TURN = (
    Text(N_("Waiting for an opponent to join…"), when=("waiting",)),
    Text(
        N_("Your move ({color})"),
        when=("my_turn",),
        facts={"color": ["word", "colors", "view.next"]},
    ),
    Text(
        N_("{name} to move ({color})"),
        when=("playing", "!my_turn"),
        facts={
            "name": ["name", "turn", N_("Opponent")],
            "color": ["word", "colors", "view.next"],
        },
    ),
    Text(N_("Game over"), when=("over",)),
)
"""The status line's start: who is to move, in which colour, or that it is over."""

CLOCKS_LEFT = Text(
    "{items}",
    each=Each(
        "view.clock.remaining",
        (
            Text(
                N_("{name} {time}"),
                facts={"name": ["name", "@key", "?"], "time": ["clock", "@value"]},
            ),
        ),
    ),
)
"""The status line's end: each player's time left."""

ROLES = (
    Text(
        "{items}",
        each=Each("view.colors", (Text("{color}", facts={"color": ["word", "colors", "@value"]}),)),
    ),
)
"""Each seat's colour."""

VERSUS = (
    Text(
        N_("vs computer ({level})"),
        when=("options.ai",),
        facts={"level": ["word", "levels", "options.ai"]},
    ),
    Text(N_("rated"), when=("options.rated",)),
)
"""The summary's end: the computer opponent, and whether the game is rated."""

LEVELS = {"easy": N_("easy"), "hard": N_("hard")}
"""The computer's levels as words."""
