"""The field types client messages are declared with (msgspec, checked in C).

A request's fields are ``Annotated`` types: :class:`msgspec.Meta` bounds that msgspec
checks while it decodes, and :class:`Clean` for text a person typed (names, chat),
which is trimmed and refused with control characters before its length is checked
(so msgspec leaves its length alone). :data:`Plain` is what a game's ``move`` may hold
on the fast path (:data:`Data`); :class:`Loose` names the looser type a field is checked
against when the fast path refuses a frame, so a frame the old checks took is still taken.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from msgspec import Meta

MAX_ID = 2**31 - 1


@dataclass(frozen=True)
class Clean:
    """Text a person typed: trimmed, no control characters, then ``min_len..max_len``."""

    min_len: int | None = None
    max_len: int | None = None


@dataclass(frozen=True)
class Loose:
    """The type a field is checked against on the slow path (what the wire allowed before
    the fast path's tighter type); the decoded value is kept as it came."""

    hint: Any


Leaf = str | int | float | bool | None
Plain = Leaf | list[Leaf | list[Leaf]] | dict[str, Leaf]
"""A move's values as the games take them (``x``, ``action``, ``a: [x, y]``)."""
if TYPE_CHECKING:
    Data = dict[str, Any]  # what code builds and reads; msgspec reads the one below
else:
    Data = Annotated[dict[str, Plain], Loose(dict[str, Any])]
"""A map with string keys (a game's move, room options, a device): anything deeper than
:data:`Plain` (or bytes) goes the slow way and reaches the game or the server, which
refuses what it does not know. No field of a request is ``Any`` on the fast path, so
msgspec never hands back a MessagePack ext (a timestamp) or a map with other keys."""

RequestId = Annotated[int, Meta(ge=0, le=MAX_ID)] | None
Name = Annotated[str, Clean(1, 32)]
"""A person's name: trimmed, 1 to 32 characters."""
Secret = Annotated[str, Meta(min_length=1, max_length=64)]
Id32 = Annotated[str, Meta(min_length=1, max_length=32)]
GameField = Annotated[str, Meta(min_length=1, max_length=32)]
Since = Annotated[int, Meta(ge=0, le=2**53)]
