"""How a game declares its data: options, view, move, result, record and notices as
msgspec Structs (:class:`GameTypes`), held by its description (``Game.data``).

The server builds these as plain maps (the wire is MessagePack maps either way); the
types say what each map holds, so mypy-checked code and msgspec (in C) can read them,
tests check every game's real maps against them, and the description language's paths
(``view.clock.remaining``) are checked against them (:mod:`.paths`).

A field that is sometimes left out of the map is ``X | None = None``: absent and null
read the same to every client (a path to either is None).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

Point = tuple[int, int]
"""A cell, ``[x, y]`` on the wire."""


class Data(msgspec.Struct, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """A game's map as a Struct: keys it does not declare are refused when checked
    (:func:`check`), so a type cannot silently fall behind its game."""


class Result(Data, kw_only=True):
    """The ``result`` map every game sends (:class:`~gridhall.protocol.Outcome`):
    the winner (None: nobody, or everybody in co-op) and the reason; games add details."""

    reason: str
    winner: str | None = None


@dataclass(frozen=True)
class GameTypes:
    """One game's declared data, by where the description language finds it."""

    options: type[Data]
    """``options``: the room's options as the server parsed them (``state.options``)."""
    view: type[Data]
    """``view``: what one recipient sees (``state.view``, ``moved.view``)."""
    move: type[Data]
    """A ``move`` request's map, as the game takes it."""
    result: type[Result]
    """``result``: the finished game (``state.result``, ``game-over.result``)."""
    record: type[Data]
    """What the store keeps of a finished game (``Game.record()``)."""
    notice: type[Data] | None = None
    """``data`` of the game's own ``notice`` events."""


def check(value: Any, kind: type[Data]) -> Data:
    """``value`` (a map the game built) read as ``kind``; msgspec.ValidationError names
    the path that does not fit, or the key the type does not declare."""
    return msgspec.convert(value, kind)
