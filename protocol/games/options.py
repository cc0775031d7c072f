"""Room options checked against a game's description: the server's parsing starts here.

Every option a game takes is a field of its description (:mod:`.describe`), so the
names, defaults, bounds and choices the create forms offer are the ones the server
enforces. :func:`parse` refuses a map with an option the game does not know, or a
value of the wrong kind or out of bounds, with a sentence naming the option; a
game's spec adds only the checks that join fields (renju needs 15x15, an even
number of cells...).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from .describe import Choice, Field, Game, Number


def _check(f: Field, value: Any, error: type[ValueError]) -> Any:
    if isinstance(f, Number):
        whole = isinstance(value, int) and not isinstance(value, bool)
        real = (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
        if not (real if f.real else whole) or not f.lo <= value <= f.hi:
            kind = "a number of seconds" if f.real else "a whole number"
            raise error(
                f"Option `{f.key}` must be {kind} from {f.lo} to {f.hi}; got {value!r:.40}."
            )
        return value
    if isinstance(f, Choice):
        allowed = [v for v, _ in f.choices if v is not None]
        if isinstance(value, bool) or value not in allowed:
            raise error(
                f"Option `{f.key}` must be one of: "
                f"{', '.join(str(v) for v in allowed)}; got {value!r:.40}."
            )
        return value
    if not isinstance(value, bool):
        raise error(f"Option `{f.key}` must be true or false; got {value!r:.40}.")
    return value


def parse(
    game: Game,
    raw: Any,
    error: type[ValueError] = ValueError,
    *,
    custom: Collection[str] = (),
    defaults: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Every option of ``game`` from ``raw``: checked, defaults filled (None where a
    field has no default). Fields in ``custom`` are passed through as given for the
    spec to check; ``defaults`` overrides the description's (server-side) defaults."""
    if not isinstance(raw, Mapping):
        raise error(f"{game.title} options must be a map.")
    known = [f.key for f in game.form]
    unknown = sorted(str(k) for k in raw if k not in known)
    if unknown:
        raise error(
            f"Unknown {game.title} option(s) {', '.join(unknown)}; "
            f"known options are {', '.join(known)}."
        )
    given = defaults or {}
    out: dict[str, Any] = {}
    for f in game.form:
        value = raw.get(f.key)
        if value is None:
            out[f.key] = given.get(f.key, f.default)
        elif f.key in custom:
            out[f.key] = value
        else:
            out[f.key] = _check(f, value, error)
    return out
