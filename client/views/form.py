"""A game's create-room options as data, so every UI can render one form for any game.

A form is a tuple of fields: a :class:`Choice` (a fixed list of values), a
:class:`Number` (a whole number in a range) or a :class:`Toggle` (on/off). A
field with ``when`` is only used while other fields hold the given values
(say, a width only when the board is not a preset). A :class:`Preset`
fills some fields at once. :func:`options` turns the values a player entered
(numbers may still be the typed text) into the ``create-room`` options map, or
raises :class:`FormError` with a sentence saying what to fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

Value: TypeAlias = str | int | bool | None
"""A field's value; None leaves the option out (the server's default applies)."""


@dataclass(frozen=True)
class Choice:
    """One of a few values, each with the label a player reads."""

    key: str
    label: str
    choices: tuple[tuple[Value, str], ...]
    default: Value
    when: Mapping[str, Value] = field(default_factory=dict)

    def label_of(self, value: Value) -> str:
        return next((text for v, text in self.choices if v == value), self.choices[0][1])

    def value_of(self, label: str) -> Value:
        return next((v for v, text in self.choices if text == label), self.default)


@dataclass(frozen=True)
class Number:
    """A whole number from ``lo`` to ``hi``."""

    key: str
    label: str
    lo: int
    hi: int
    default: int
    when: Mapping[str, Value] = field(default_factory=dict)


@dataclass(frozen=True)
class Toggle:
    """On or off."""

    key: str
    label: str
    default: bool
    when: Mapping[str, Value] = field(default_factory=dict)


Field: TypeAlias = Choice | Number | Toggle
Form: TypeAlias = tuple[Field, ...]


@dataclass(frozen=True)
class Preset:
    """A named starting point: values for some fields (the rest take their defaults)."""

    label: str
    values: Mapping[str, Value]


class FormError(ValueError):
    """A value the form cannot send; the message says which and why."""


def defaults(form: Form) -> dict[str, Value]:
    """Every field at its default."""
    return {f.key: f.default for f in form}


def with_preset(form: Form, preset: Preset) -> dict[str, Value]:
    """The defaults with the preset's values over them."""
    return {**defaults(form), **preset.values}


def is_active(f: Field, values: Mapping[str, Any]) -> bool:
    """Whether ``f`` is used (and shown) given the other fields' values."""
    return all(values.get(key) == want for key, want in f.when.items())


def parse(f: Field, raw: Any) -> Value:
    """One field's value from what a widget holds (numbers may be text)."""
    if isinstance(f, Number):
        text = str(raw).strip()
        try:
            number = int(text) if not isinstance(raw, bool) else None
        except ValueError:
            number = None
        if number is None or not f.lo <= number <= f.hi:
            raise FormError(f"{f.label} must be a whole number from {f.lo} to {f.hi}"
                            f"{f'; got {text!r}' if text else ''}.")  # fmt: skip
        return number
    if isinstance(f, Toggle):
        return bool(raw)
    if raw not in {v for v, _ in f.choices}:
        raise FormError(f"{f.label} must be one of: {', '.join(t for _, t in f.choices)}.")
    value: Value = raw
    return value


def options(form: Form, values: Mapping[str, Any]) -> dict[str, Any]:
    """The ``create-room`` options for ``values``: every active field that is not
    None. Raises :class:`FormError` for a value out of range."""
    out: dict[str, Any] = {}
    for f in form:
        if not is_active(f, values):
            continue
        value = parse(f, values.get(f.key, f.default))
        if value is not None:
            out[f.key] = value
    return out
