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
from dataclasses import replace
from typing import Any

from gridhall.protocol.games.describe import Choice, Field, Form, Number, Preset, Toggle, Value
from gridhall.protocol.i18n import gettext as _

__all__ = [
    "Choice",
    "Field",
    "Form",
    "FormError",
    "Number",
    "Preset",
    "Toggle",
    "Value",
    "defaults",
    "is_active",
    "localized",
    "localized_preset",
    "options",
    "parse",
    "with_preset",
]


class FormError(ValueError):
    """A value the form cannot send; the message says which and why."""


def localized(f: Field) -> Field:
    """``f`` with its label and choices in the player's language: the descriptions hold
    English message ids (marked, not translated, at import time)."""
    if isinstance(f, Choice):
        return replace(f, label=_(f.label), choices=tuple((v, _(text)) for v, text in f.choices))
    return replace(f, label=_(f.label))


def localized_preset(preset: Preset) -> Preset:
    """``preset`` with its label in the player's language."""
    return replace(preset, label=_(preset.label))


def defaults(form: Form) -> dict[str, Value]:
    """Every field the create form offers, at its default."""
    return {f.key: f.default for f in form if f.form}


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
            if text:
                raise FormError(
                    _(
                        "{label} must be a whole number from {lo} to {hi}; got {text}.",
                        label=_(f.label),
                        lo=f.lo,
                        hi=f.hi,
                        text=repr(text),
                    )
                )
            raise FormError(
                _(
                    "{label} must be a whole number from {lo} to {hi}.",
                    label=_(f.label),
                    lo=f.lo,
                    hi=f.hi,
                )
            )
        return number
    if isinstance(f, Toggle):
        return bool(raw)
    if raw not in {v for v, _ in f.choices}:
        raise FormError(
            _(
                "{label} must be one of: {choices}.",
                label=_(f.label),
                choices=", ".join(_(t) for _v, t in f.choices),
            )
        )
    value: Value = raw
    return value


def options(form: Form, values: Mapping[str, Any]) -> dict[str, Any]:
    """The ``create-room`` options for ``values``: every active field that is not
    None. Raises :class:`FormError` for a value out of range."""
    out: dict[str, Any] = {}
    for f in form:
        if not f.form or not is_active(f, values):
            continue
        value = parse(f, values.get(f.key, f.default))
        if value is not None:
            out[f.key] = value
    return out
