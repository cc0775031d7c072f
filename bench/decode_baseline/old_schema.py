"""Field checking for message dataclasses, driven by their type hints.

Messages are frozen dataclasses; this module turns a decoded map into one, or
raises ProtocolError(bad-message) naming the field. Supported hints: str, int,
float, bool, ``dict[str, Any]``, ``list[Any]``, ``Literal[...]``, ``X | None`` and
``str | dict[str, Any]`` (a string or a map: the member the value is).
Per-field limits live in ``field(metadata=...)``: ``min_len``/``max_len`` for
strings and lists, ``min``/``max`` for numbers, ``key`` for a wire name that is a
Python keyword (``from``), ``clean`` to trim and refuse control characters, ``always``
for an optional field sent as ``null`` rather than left out.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any, Literal, Union

from gridhall.protocol.errors import ErrorCode, ProtocolError

_NONE = type(None)


def wire_key(f: dataclasses.Field[Any]) -> str:
    """The key a field has on the wire."""
    return str(f.metadata.get("key", f.name))


@cache
def hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _bad(name: str, why: str) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, f"Field '{name}' {why}.")


@cache
def _shape(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """``hint``'s origin and arguments, worked out once per hint (every frame asks)."""
    return typing.get_origin(hint), typing.get_args(hint)


def check_value(name: str, value: Any, hint: Any, meta: typing.Mapping[str, Any]) -> Any:
    """Return ``value`` checked (and cleaned) against ``hint``; raise ProtocolError."""
    origin, args = _shape(hint)
    if origin in (Union, types.UnionType):
        if value is None and _NONE in args:
            return None
        inner = [a for a in args if a is not _NONE]
        if len(inner) == 1:
            return check_value(name, value, inner[0], meta)
        return _one_of(name, value, inner, meta)
    if origin is Literal:
        allowed = args
        if isinstance(value, bool) or value not in allowed:
            raise _bad(name, "must be one of " + ", ".join(repr(a) for a in allowed))
        return value
    if hint is str:
        if not isinstance(value, str):
            raise _bad(name, "must be a string")
        if meta.get("clean"):
            value = value.strip()
            if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in value):
                raise _bad(name, "must not contain control characters")
        _check_len(name, value, meta)
        return value
    if hint is bool:
        if not isinstance(value, bool):
            raise _bad(name, "must be true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(name, "must be an integer")
        _check_range(name, value, meta)
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _bad(name, "must be a number")
        _check_range(name, value, meta)
        return float(value)
    if origin is dict or hint is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise _bad(name, "must be a map with string keys")
        return value
    if origin is list or hint is list:
        if not isinstance(value, list):
            raise _bad(name, "must be a list")
        _check_len(name, value, meta)
        return value
    if hint is Any:
        return value
    raise TypeError(f"unsupported hint {hint!r}")  # pragma: no cover - schema bug


_SHAPES: dict[Any, tuple[type, str]] = {str: (str, "a string"), dict: (dict, "a map")}
"""The hints a union of several may hold (besides None): the Python type a value of
each decodes to, and what the error calls it."""


def _one_of(name: str, value: Any, inner: list[Any], meta: typing.Mapping[str, Any]) -> Any:
    """``value`` checked against the member of ``str | dict[str, Any]`` it is one of."""
    shapes = [(hint, *_SHAPES[_shape(hint)[0] or hint]) for hint in inner]
    for hint, kind, _word in shapes:
        if isinstance(value, kind):
            return check_value(name, value, hint, meta)
    raise _bad(name, "must be " + " or ".join(word for _h, _k, word in shapes))


def _check_len(name: str, value: str | list[Any], meta: typing.Mapping[str, Any]) -> None:
    lo, hi = meta.get("min_len"), meta.get("max_len")
    if lo is not None and len(value) < lo:
        raise _bad(name, "is empty" if lo == 1 else f"must have at least {lo} characters")
    if hi is not None and len(value) > hi:
        raise _bad(
            name,
            f"must have at most {hi} characters"
            if isinstance(value, str)
            else f"must have at most {hi} items",
        )


def _check_range(name: str, value: float, meta: typing.Mapping[str, Any]) -> None:
    lo, hi = meta.get("min"), meta.get("max")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise _bad(name, f"must be between {lo} and {hi}")


@cache
def _inputs(cls: type) -> tuple[tuple[str, str, Any, typing.Mapping[str, Any], bool], ...]:
    """(attribute, wire key, hint, limits, has a default) for each field a client
    sets, worked out once per message class."""
    types_ = hints(cls)
    return tuple(
        (
            f.name,
            wire_key(f),
            types_[f.name],
            f.metadata,
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
        if f.name != "type" and f.init
    )


def from_map(cls: type[Any], data: dict[str, Any]) -> Any:
    """Build message ``cls`` from a decoded map, checking every field."""
    kwargs: dict[str, Any] = {}
    for name, key, hint, meta, has_default in _inputs(cls):  # type: ignore[arg-type]
        if key not in data:
            if not has_default:
                raise _bad(key, "is missing")
            continue
        kwargs[name] = check_value(key, data[key], hint, meta)
    return cls(**kwargs)


@cache
def _layout(cls: type) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, wire key, left out when None) for each field of ``cls``; a field
    marked ``always`` is sent even when None (``null``)."""
    return tuple(
        (f.name, wire_key(f), f.default is None and not f.metadata.get("always"))
        for f in dataclasses.fields(cls)
    )


def to_map(msg: Any) -> dict[str, Any]:
    """The wire map of a message: ``type`` first, optional fields left out when None."""
    out: dict[str, Any] = {"type": msg.TYPE}
    for name, key, optional in _layout(type(msg)):  # type: ignore[arg-type]
        value = getattr(msg, name)
        if value is None and optional:
            continue
        out[key] = value
    return out


def evolve(msg: Any, **changes: Any) -> Any:
    """A copy of message ``msg`` with some fields changed: ``dataclasses.replace``
    without its per-field reflection and checks (one per recipient group on the
    path of every move). The caller names real fields; nothing is validated."""
    new = object.__new__(type(msg))
    state = new.__dict__
    state.update(msg.__dict__)
    state.update(changes)
    return new
