"""Player names and colours as the server keeps them.

The wire accepts a ``name`` of 1..32 characters, trimmed, with no control
characters (the contract); the server then makes it safe to show next to
others': Unicode NFC, format characters (zero-width, bidi controls, BOM, soft
hyphen) removed, every run of whitespace one space, at most :data:`MAX_NAME`
characters (longer ones are cut, not refused). A name must keep at least one
letter, digit, mark of punctuation or symbol. Names of computer players are
reserved. Within a room names are unique by :func:`name_key` (case, width and
spacing insensitive, and confusable names count as one: ``Alice`` and ``Аlice``
with a Cyrillic А have one UTS #39 skeleton, see ``server/core/skeleton.py``): a joiner
whose name is taken gets a suffix `` (2)``, `` (3)``...

A ``color`` is a name from :data:`PALETTE` (any case) or ``#rrggbb``; it is
kept lower-case.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from gridhall.protocol import ErrorCode, ProtocolError

from .skeleton import skeleton

MAX_NAME = 24
COMPUTER = "Computer"
PALETTE = (
    "aqua",
    "black",
    "blue",
    "brown",
    "coral",
    "cyan",
    "fuchsia",
    "gold",
    "gray",
    "green",
    "grey",
    "indigo",
    "lime",
    "magenta",
    "maroon",
    "navy",
    "olive",
    "orange",
    "pink",
    "purple",
    "red",
    "silver",
    "teal",
    "turquoise",
    "violet",
    "white",
    "yellow",
)
_HEX = re.compile(r"#[0-9a-f]{6}")
_VISIBLE = ("L", "N", "P", "S")
"""Major categories of which a name needs at least one character."""


def _bad(message: str, rid: int | None = None) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, message, rid)


def clean_name(raw: str, rid: int | None = None) -> str:
    """The name as the server keeps it; ProtocolError(bad-message) if nothing
    showable is left or it is a computer player's."""
    text = unicodedata.normalize("NFC", raw)
    kept: list[str] = []
    for ch in text:
        category = unicodedata.category(ch)
        if category == "Cf":
            continue  # zero-width and direction controls: invisible, so dropped
        if ch.isspace() or category in ("Zs", "Zl", "Zp"):
            kept.append(" ")
        elif category in ("Cc", "Cs", "Co", "Cn"):
            raise _bad(
                "A name must not contain control, private-use or unassigned characters.", rid
            )
        else:
            kept.append(ch)
    name = " ".join("".join(kept).split())[:MAX_NAME].rstrip()
    if not any(unicodedata.category(ch)[0] in _VISIBLE for ch in name):
        raise _bad("A name needs at least one visible letter, digit or sign.", rid)
    if is_reserved(name):
        raise _bad(
            f"Names starting with {COMPUTER!r} are kept for computer players; pick another.", rid
        )
    return name


def name_key(name: str) -> str:
    """What two names must differ in: case, width and spacing do not count, and
    look-alike characters of other scripts count as the ones they look like."""
    return "".join(skeleton(unicodedata.normalize("NFKC", name).casefold()).split())


def is_reserved(name: str) -> bool:
    """A computer player's name ("Computer", "Computer (hard)", any case or width)."""
    key = name_key(name)
    return key == name_key(COMPUTER) or key.startswith(name_key(COMPUTER) + "(")


def computer_name(level: str) -> str:
    """``Computer (hard)``; an external engine by its name: ``Computer (rapfi)``."""
    return f"{COMPUTER} ({level.removeprefix('engine:')})"


def unique_name(name: str, taken: Iterable[str]) -> str:
    """``name``, or with the first free suffix `` (n)`` (still at most MAX_NAME)."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        n += 1


def clean_color(raw: str, rid: int | None = None) -> str:
    """A palette name or ``#rrggbb``, lower-case; ProtocolError(bad-message) otherwise."""
    color = raw.strip().lower()
    if color in PALETTE or _HEX.fullmatch(color):
        return color
    raise _bad("A colour is #rrggbb or one of " + ", ".join(PALETTE) + ".", rid)
