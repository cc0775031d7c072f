"""External Gomoku engines as computer levels: ``engine:NAME`` choices of ``ai``.

A server started with ``--engine NAME=COMMAND`` offers each engine that answered at
start as one more ``ai`` choice, labelled with its NAME (the operator's word, shown
as given). The server serves the description with those choices (``GET
/games.json``), parses ``create-room`` options with it, and the Python clients read
the same list from there (:func:`offered`), so a level only appears where it works.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from .describe import Choice, Game

PREFIX = "engine:"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,23}")
"""An engine's name: what follows ``engine:``, 1 to 24 letters, digits, ``_ . -``."""


def level(name: str) -> str:
    """The ``ai`` value that seats engine ``name``."""
    return PREFIX + name


def is_engine(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def with_engines(game: Game, names: Sequence[str]) -> Game:
    """``game`` with one ``ai`` choice per engine name (the same game when none)."""
    field = game.field("ai")
    if not names or not isinstance(field, Choice):
        return game
    known = {v for v, _ in field.choices}
    extra = tuple((level(n), n) for n in names if level(n) not in known)
    form = tuple(replace(f, choices=(*f.choices, *extra)) if f is field else f for f in game.form)
    words = {k: dict(v) for k, v in game.words.items()}
    words.setdefault("levels", {}).update({level(n): n for n in names})
    return replace(game, form=form, words=words)


def offered(description: Mapping[str, Any]) -> list[str]:
    """The engine names in a served Gomoku description (``games.json``'s
    ``games.gomoku``): only well-formed names, in order, each once."""
    names: list[str] = []
    for f in description.get("form") or ():
        if not isinstance(f, Mapping) or f.get("key") != "ai":
            continue
        for choice in f.get("choices") or ():
            value = choice[0] if isinstance(choice, list) and choice else None
            if is_engine(value):
                name = str(value)[len(PREFIX) :]
                if NAME.fullmatch(name) and name not in names:
                    names.append(name)
    return names
