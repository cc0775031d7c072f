"""Pure game rules, one package per game, and the registry of playable games.

The registry holds every game of :data:`gridhall.protocol.games.NAMES` (the one list),
each found by its name: the package ``server/games/<name>/`` exports ``SPEC``, the
game's plug-in (:class:`~.base.GameSpec`). Nothing else in the server names a game.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module

from gridhall.protocol.games import NAMES

from .base import GameSpec


def _plugin(name: str) -> GameSpec:
    spec = import_module(f"{__name__}.{name}").SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise TypeError(f"server/games/{name}/: SPEC must be the GameSpec of {name!r}")
    kind = spec.rating.kind if spec.rating is not None else None
    if kind != spec.description.ratings:
        raise TypeError(f"{name}: its rating model ({kind}) is not what its description says")
    if (spec.analysis is not None) != spec.description.analysis:
        raise TypeError(f"{name}: its analysis is not what its description says")
    return spec


@cache
def _registry() -> tuple[tuple[str, GameSpec], ...]:
    found = tuple((name, _plugin(name)) for name in NAMES)
    teams = [n for n, s in found if s.rating is not None and s.rating.kind == "records"]
    if len(teams) > 1:  # the store's team-record tables have no game column
        raise TypeError(f"one game may keep team records, not {teams}")
    return found


def registry() -> dict[str, GameSpec]:
    """The games this server hosts, by protocol name (a new dict each call: a server
    may replace a game with one offering its engines)."""
    return dict(_registry())


def rated() -> dict[str, GameSpec]:
    """The games with ratings, by name."""
    return {n: s for n, s in _registry() if s.rating is not None and s.rating.kind == "rated"}


def with_records() -> dict[str, GameSpec]:
    """The games that keep a co-op team's records, by name."""
    return {n: s for n, s in _registry() if s.rating is not None and s.rating.kind == "records"}
