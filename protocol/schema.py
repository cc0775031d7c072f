"""Messages <-> wire maps, with every field checked by msgspec.

Requests are msgspec Structs (:class:`~.messages.ClientMessage`) and events frozen
dataclasses; :func:`from_map` turns a decoded map into either, or raises
ProtocolError(bad-message) naming the first field (in declaration order) that is wrong,
with the sentence the protocol has always used (``Field 'name' is empty.``).

msgspec does the checking, in C, against a mirror Struct of each message (its wire
keys, each field optional so a missing one is ours to name); only a map it refuses
is walked field by field, to find and word the first fault. Bounds are ``Annotated``
:class:`msgspec.Meta`; :class:`~.fields.Clean` text is trimmed and refused with
control characters before its length is checked; an event's field marked ``always``
in its metadata is sent as ``null`` rather than left out, ``key`` names a wire key
that is a Python keyword (``from``).
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Annotated, Any, Literal, NamedTuple, Union

import msgspec
from msgspec import UNSET, UnsetType
from msgspec import inspect as mi

from .errors import ErrorCode, ProtocolError
from .fields import Clean, Loose

_NONE = type(None)


def _bad(name: str, why: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, f"Field '{name}' {why}.")


# ---- one field ---------------------------------------------------------------------------


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
"""C0 and C1 control characters and DEL."""


def clean_text(name: str, value: str, rule: Clean) -> str:
    """Typed text trimmed, refused with control characters, then held to its length."""
    value = value.strip()
    if _CONTROL.search(value):
        raise _bad(name, "must not contain control characters")
    if rule.min_len is not None and len(value) < rule.min_len:
        raise _bad(name, _too_short(rule.min_len))
    if rule.max_len is not None and len(value) > rule.max_len:
        raise _bad(name, f"must have at most {rule.max_len} characters")
    return value


def _too_short(lo: int) -> str:
    return "is empty" if lo == 1 else f"must have at least {lo} characters"


_KINDS: dict[type, str] = {
    mi.StrType: "must be a string",
    mi.IntType: "must be an integer",
    mi.FloatType: "must be a number",
    mi.BoolType: "must be true or false",
    mi.DictType: "must be a map with string keys",
    mi.ListType: "must be a list",
}
_SHAPES: dict[type, str] = {mi.StrType: "a string", mi.DictType: "a map"}
"""The members a union of several may hold (besides None), as the error calls them."""
_RANGE = re.compile(r"Expected `(int|float)` [<>]=")


@cache
def _members(hint: Any) -> list[mi.Type]:
    """The types a value of ``hint`` may be, besides None."""
    info = mi.type_info(hint)
    found = info.types if isinstance(info, mi.UnionType) else (info,)
    return [t for t in found if not isinstance(t, mi.NoneType)]


def _why(hint: Any, error: str) -> str:
    """The protocol's sentence for msgspec's ``error`` about a value of type ``hint``."""
    members = _members(hint)
    sized = [t for t in members if isinstance(t, mi.StrType | mi.ListType)]
    if "of length >=" in error and sized and sized[0].min_length is not None:
        return _too_short(sized[0].min_length)
    if "of length <=" in error and sized:
        noun = "characters" if isinstance(sized[0], mi.StrType) else "items"
        return f"must have at most {sized[0].max_length} {noun}"
    numbers = [t for t in members if isinstance(t, mi.IntType | mi.FloatType)]
    if _RANGE.match(error) and numbers:
        return f"must be between {numbers[0].ge} and {numbers[0].le}"
    if len(members) > 1:
        return "must be " + " or ".join(_SHAPES.get(type(t), "?") for t in members)
    only = members[0]
    if isinstance(only, mi.LiteralType):
        return "must be one of " + ", ".join(repr(v) for v in _literal(hint))
    return _KINDS.get(type(only), "is not allowed")


def _literal(hint: Any) -> tuple[Any, ...]:
    """A ``Literal``'s values in their declared order (msgspec sorts them)."""
    if typing.get_origin(hint) is Literal:
        return typing.get_args(hint)
    return next((v for a in typing.get_args(hint) if (v := _literal(a))), ())


def check(name: str, value: Any, hint: Any, rule: Clean | None = None) -> Any:
    """``value`` checked against ``hint`` (and cleaned by ``rule``); ProtocolError else."""
    try:
        value = msgspec.convert(value, hint)
    except msgspec.ValidationError as exc:
        raise _bad(name, _why(hint, str(exc))) from None
    return clean_text(name, value, rule) if rule is not None and isinstance(value, str) else value


# ---- a message's plan --------------------------------------------------------------------


class Slot(NamedTuple):
    """One field as the wire sees it."""

    attr: str
    key: str
    hint: Any
    """What the value is checked against (loosened: see :func:`_loose`)."""
    clean: Clean | None
    required: bool
    optional: bool
    """Left out of the wire map when None."""


class Plan(NamedTuple):
    slots: tuple[Slot, ...]
    mirror: type[msgspec.Struct]
    """Every slot as an optional field under its wire key: msgspec checks a map in one call."""
    cleaned: tuple[Slot, ...]
    build: Callable[..., Any]


def _marker(hint: Any, kind: type) -> Any:
    """The first ``kind`` in ``hint``'s ``Annotated`` metadata (or a union member's)."""
    if typing.get_origin(hint) is Annotated:
        return next((m for m in hint.__metadata__ if isinstance(m, kind)), None)
    if typing.get_origin(hint) in (Union, types.UnionType):
        return next((m for m in map(lambda a: _marker(a, kind), typing.get_args(hint)) if m), None)
    return None


def _loose(hint: Any) -> Any:
    """The hint a field is checked against: a :class:`~.fields.Loose` one's own, and an
    event's lists and maps only as lists and maps with string keys (their items are the
    client's to read as data)."""
    origin = typing.get_origin(hint)
    if origin is Annotated:
        loose = _marker(hint, Loose)
        return hint if loose is None else loose.hint
    if origin in (Union, types.UnionType):
        return Union[tuple(_loose(a) for a in typing.get_args(hint))]  # noqa: UP007
    if origin is list or hint is list:
        return list[Any]
    if origin is dict or hint is dict:
        return dict[str, Any]
    return hint


def _fields(cls: type) -> list[tuple[str, str, Any, bool, bool]]:
    """(attribute, wire key, hint, required, left out when None) of a message class."""
    hints = typing.get_type_hints(cls, include_extras=True)
    if issubclass(cls, msgspec.Struct):
        return [
            (f.name, f.encode_name, hints[f.name], f.required, f.default is None)
            for f in msgspec.structs.fields(cls)
        ]
    return [
        (
            f.name,
            str(f.metadata.get("key", f.name)),
            hints[f.name],
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
            f.default is None and not f.metadata.get("always"),
        )
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]  # a dataclass here
    ]


@cache
def plan(cls: type) -> Plan:
    """How ``cls`` goes to and from the wire, worked out once per message class."""
    slots = tuple(
        Slot(attr, key, _loose(hint), _marker(hint, Clean), required, optional)
        for attr, key, hint, required, optional in _fields(cls)
    )
    mirror = msgspec.defstruct(
        f"{cls.__name__}Wire",
        [(s.attr, s.hint | UnsetType, msgspec.field(default=UNSET, name=s.key)) for s in slots],
        kw_only=True,
    )
    return Plan(slots, mirror, tuple(s for s in slots if s.clean is not None), cls)


# ---- maps <-> messages -------------------------------------------------------------------


def from_map(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """Build message ``cls`` from a decoded map, checking every field."""
    how = plan(typing.cast(type, cls))
    try:
        wire = msgspec.convert(data, how.mirror)
    except msgspec.ValidationError:
        _first_fault(how, data)
        raise  # pragma: no cover - a field msgspec refused passes alone: a schema bug
    kwargs: dict[str, Any] = {}
    for slot in how.slots:
        value = getattr(wire, slot.attr)
        if value is UNSET:
            if slot.required:
                raise _bad(slot.key, "is missing")
            continue
        if slot.clean is not None and isinstance(value, str):
            value = clean_text(slot.key, value, slot.clean)
        kwargs[slot.attr] = value
    return how.build(**kwargs)


def _first_fault(how: Plan, data: Mapping[str, Any]) -> None:
    """Raise the error of the first field (in declaration order) that is wrong."""
    for slot in how.slots:
        if slot.key not in data:
            if slot.required:
                raise _bad(slot.key, "is missing")
            continue
        check(slot.key, data[slot.key], slot.hint, slot.clean)


def cleaned(msg: Any) -> Any:
    """A request msgspec decoded, its typed text cleaned (:class:`~.fields.Clean`);
    ProtocolError when that text is refused."""
    cls: type = type(msg)
    how = plan(cls)
    changes = {}
    for slot in how.cleaned:
        value = getattr(msg, slot.attr)
        if isinstance(value, str):
            changes[slot.attr] = clean_text(slot.key, value, slot.clean)  # type: ignore[arg-type]
    return msgspec.structs.replace(msg, **changes) if changes else msg


@cache
def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, wire key, left out when None) for each field of ``cls``: plain
    tuples, as :func:`to_map` runs for every event the server sends."""
    return tuple((s.attr, s.key, s.optional) for s in plan(cls).slots)


def to_map(msg: Any) -> dict[str, Any]:
    """The wire map of a message: ``type`` first, optional fields left out when None."""
    cls: type = type(msg)
    return _mapper(cls)(msg)


@cache
def _mapper(cls: type) -> Callable[[Any], dict[str, Any]]:
    """:func:`to_map` for ``cls``, written out once (field by field, as ``dataclasses``
    writes an ``__init__``): no loop over the layout for every event the server sends."""
    lines = ["def to_map(msg):", f"    out = {{'type': {cls.TYPE!r}}}"]  # type: ignore[attr-defined]
    for name, key, optional in _layout(cls):
        if not name.isidentifier():
            raise TypeError(f"{cls.__name__}: a field named {name!r}")
        if optional:
            lines += [f"    v = msg.{name}", "    if v is not None:", f"        out[{key!r}] = v"]
        else:
            lines.append(f"    out[{key!r}] = msg.{name}")
    lines.append("    return out")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {}, namespace)  # noqa: S102 (our own field names and keys)
    made: Callable[[Any], dict[str, Any]] = namespace["to_map"]
    made.__qualname__ = f"to_map[{cls.__name__}]"
    return made


def evolve(msg: Any, **changes: Any) -> Any:
    """A copy of message ``msg`` with some fields changed: ``dataclasses.replace``
    without its per-field reflection and checks (one per recipient group on the
    path of every move). The caller names real fields; nothing is validated."""
    if isinstance(msg, msgspec.Struct):
        return msgspec.structs.replace(msg, **changes)
    new = object.__new__(type(msg))
    state = new.__dict__
    state.update(msg.__dict__)
    state.update(changes)
    return new
