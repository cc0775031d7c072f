"""Every path, fact and condition of a description, checked against the game's declared
data (:mod:`.data`): a path naming a field no type has is a sentence that can never
say anything, so :func:`problems` lists it (tests/games/test_description_paths.py).

Types are walked with :mod:`msgspec.inspect`: a Struct by its wire keys, a map by any
key, a list by an index, a union by any member. The roots a path may start from are
the context :func:`.render.context` builds; ``data`` is the notice's own type (a game's
``notice`` data, or the room event a common notice is about).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from msgspec import inspect as mi

from .describe import Each, Game, Text

SCALARS = frozenset(
    {"status", "turn", "creator", "host", "me", "outcome", "round", "game", "players"}
)
"""Roots that are the room's own fields, read whole."""
NAMED = frozenset({"word", "name", "you"})
"""Functions that read the context besides their arguments."""


@dataclass(frozen=True)
class Scope:
    """What a path may start from where it is written."""

    roots: Mapping[str, tuple[Any, ...]]
    """Root name -> the types it may hold (``view``: every game's views, for common)."""
    facts: frozenset[str] = frozenset()
    """``$name``: the facts of the same text."""
    item: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """``@key`` / ``@value`` inside an :class:`Each`."""


def _info(kind: Any) -> mi.Type:
    return kind if isinstance(kind, mi.Type) else mi.type_info(kind)


def _members(kind: mi.Type) -> list[mi.Type]:
    if isinstance(kind, mi.UnionType):
        return [m for t in kind.types for m in _members(t)]
    return [kind]


def step(kinds: tuple[Any, ...], name: str) -> tuple[mi.Type, ...]:
    """The types ``name`` holds one step into a value of any of ``kinds``."""
    out: list[mi.Type] = []
    for kind in kinds:
        for member in _members(_info(kind)):
            if isinstance(member, mi.AnyType):
                out.append(member)
            elif isinstance(member, mi.StructType | mi.DataclassType):
                out += [f.type for f in member.fields if _wire(f) == name]
            elif isinstance(member, mi.DictType):
                out.append(member.value_type)
            elif isinstance(member, mi.ListType | mi.VarTupleType) and name.isdigit():
                out.append(member.item_type)
            elif isinstance(member, mi.TupleType) and name.isdigit():
                out += list(member.item_types[int(name) : int(name) + 1])
    return tuple(out)


def _wire(f: Any) -> str:
    return str(getattr(f, "encode_name", f.name))


def resolve(scope: Scope, path: str) -> tuple[mi.Type, ...] | None:
    """The types ``path`` may name (empty: it names nothing; None: not typed, a literal,
    a fact or a room field)."""
    if path.startswith("'"):
        return None
    head, *rest = path.split(".")
    if head.startswith("$"):
        return None if head[1:] in scope.facts else ()
    if head.startswith("@"):
        found: tuple[Any, ...] = tuple(scope.item.get(head[1:], ()))
    elif head in scope.roots:
        found = tuple(scope.roots[head])
    else:
        return None if head in SCALARS and not rest else ()
    for name in rest:
        found = step(found, name)
        if not found:
            return ()
    return tuple(_info(k) for k in found)


def _fact_paths(spec: Any) -> Iterator[str]:
    """Every path a fact reads (a ``word`` table's name is not one)."""
    if isinstance(spec, str):
        yield spec
    elif isinstance(spec, list | tuple) and spec:
        fn, *args = spec
        if fn == "word":
            args = args[1:]  # a table's name
        elif fn in ("name", "you"):
            args = args[:1]  # then a fallback text
        for arg in args:
            yield from _fact_paths(arg)


def functions(spec: Any) -> Iterator[str]:
    """Every function a fact calls."""
    if isinstance(spec, list | tuple) and spec:
        yield str(spec[0])
        for arg in spec[1:]:
            yield from functions(arg)


def tables(spec: Any) -> Iterator[str]:
    """Every ``word`` table a fact reads."""
    if isinstance(spec, list | tuple) and spec:
        if spec[0] == "word":
            yield str(spec[1])
        for arg in spec[1:]:
            yield from tables(arg)


def cond_path(cond: str, rules: frozenset[str]) -> str | None:
    """The path a condition reads (None for a named rule)."""
    cond = cond.lstrip("!")
    if cond in rules:
        return None
    cond = cond.removeprefix("?")
    return cond.split("=", 1)[0]


def _each_item(scope: Scope, spec: Each) -> dict[str, tuple[Any, ...]]:
    found = resolve(scope, spec.over) or ()
    keys: list[Any] = []
    values: list[Any] = []
    for member in (m for kind in found for m in _members(kind)):
        if isinstance(member, mi.DictType):
            keys.append(member.key_type)
            values.append(member.value_type)
        elif isinstance(member, mi.ListType):
            keys.append(member.item_type)  # strings key themselves; others their index
            values.append(member.item_type)
    return {"key": tuple(keys), "value": tuple(values)}


@dataclass
class Walk:
    """Problems found in one description, given the roots its texts read."""

    game: Game
    common: Game
    rules: frozenset[str]
    found: list[str] = field(default_factory=list)

    def path(self, where: str, scope: Scope, path: str) -> None:
        if resolve(scope, path) == ():
            self.found.append(f"{self.game.name}: {where}: no such path {path!r}")

    def fact(self, where: str, scope: Scope, spec: Any) -> None:
        for path in _fact_paths(spec):
            self.path(where, scope, path)
        for table in tables(spec):
            if table not in self.game.words and table not in self.common.words:
                self.found.append(f"{self.game.name}: {where}: no word table {table!r}")

    def cond(self, where: str, scope: Scope, cond: str) -> None:
        path = cond_path(cond, self.rules)
        if path is not None:
            self.path(where, scope, path)

    def text(self, where: str, scope: Scope, text: Text) -> None:
        local = Scope(scope.roots, frozenset(text.facts), scope.item)
        for name, spec in text.facts.items():
            self.fact(f"{where} {text.msgid!r} fact {name}", scope, spec)
        for cond in text.when:
            self.cond(f"{where} {text.msgid!r}", local, cond)
        if text.each is not None:
            self.path(f"{where} {text.msgid!r} each", scope, text.each.over)
            inner = Scope(scope.roots, scope.facts, _each_item(scope, text.each))
            for item in text.each.texts:
                self.text(f"{where} {text.msgid!r} item", inner, item)


def _roots(games: list[Game]) -> dict[str, tuple[Any, ...]]:
    typed = [g.data for g in games if g.data is not None]
    return {
        "view": tuple(t.view for t in typed),
        "options": tuple(t.options for t in typed),
        "result": tuple(t.result for t in typed),
    }


def problems(
    game: Game,
    common: Game,
    games: list[Game],
    rules: frozenset[str],
    events: Mapping[str, Any],
) -> list[str]:
    """Every path, fact and condition of ``game`` that names nothing in the types
    (``common``: every game's types; its notices' ``data``: the room events ``events``
    by notice name)."""
    walk = Walk(game, common, rules)
    own = game is not common
    if own and game.data is None:
        return [f"{game.name}: no declared data (Game.data)"]
    roots = _roots([game] if own else games)
    scope = Scope(roots)
    for where, texts in (
        ("status", game.status),
        ("results", game.results),
        ("roles", game.roles),
        ("summary", game.summary),
        ("board", game.board),
        ("ranking", (game.ranking,) if game.ranking else ()),
    ):
        for text in texts:
            walk.text(where, scope, text)
    # a game's notices carry its notice data; the common ones are about room events,
    # and read their sender the same way whichever event it is
    data = (game.data.notice,) if own and game.data and game.data.notice else ()
    if not own:
        data = tuple(events[name] for name in game.notices)
    for name, texts in game.notices.items():
        notice = Scope({**roots, "data": data})
        for text in texts:
            walk.text(f"notice {name}", notice, text)
    for action in game.actions:
        for cond in (*action.shown, *action.enabled):
            walk.cond(f"action {action.key}", scope, cond)
    for live in game.live:
        walk.path(f"live {live.kind}", scope, f"view.{live.path}")
        for cond in live.when:
            walk.cond(f"live {live.kind}", scope, cond)
    for key, _kind in game.lists:
        walk.path("lists", scope, f"view.{key}")
    for key, _default in game.sides:
        walk.path("sides", scope, f"options.{key}")
    return walk.found


def _texts(game: Game) -> Iterator[Text]:
    """Every text of a description, those inside an :class:`Each` too."""
    texts: list[Text] = [
        *game.status,
        *game.results,
        *game.roles,
        *game.summary,
        *game.board,
        *([game.ranking] if game.ranking else []),
        *(t for ts in game.notices.values() for t in ts),
    ]
    while texts:
        text = texts.pop()
        yield text
        if text.each is not None:
            texts.extend(text.each.texts)


def every_fact(game: Game) -> Iterator[Any]:
    """Every fact of a description (to check the interpreters know its functions)."""
    for text in _texts(game):
        yield from text.facts.values()


def every_cond(game: Game) -> Iterator[str]:
    """Every condition of a description."""
    for text in _texts(game):
        yield from text.when
    for action in game.actions:
        yield from (*action.shown, *action.enabled)
    for live in game.live:
        yield from live.when
