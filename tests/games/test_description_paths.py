"""Every path, fact and condition of every game description names declared data
(protocol/games/paths.py against each game's ``TYPES``), and both interpreters (the
Python one and client/web/js/describe.js) know every function and rule the
descriptions use; the shared fixtures both run hold only declared keys."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from gridhall import protocol as p
from gridhall.protocol.games import COMMON, GAMES, Game, render
from gridhall.protocol.games.describe import Each, Text
from gridhall.protocol.games.paths import Scope, every_cond, every_fact, functions, problems, step
from gridhall.protocol.schema import plan
from tests.fixtures.views.runner import fixtures

ROOT = Path(__file__).resolve().parents[2]
DESCRIBE_JS = ROOT / "client" / "web" / "js" / "describe.js"
EVERY = [*GAMES.values(), COMMON]
RULES = frozenset(render.RULES)
EVENTS = {name: plan(p.SERVER_MESSAGES[name]).mirror for name in COMMON.notices}


def _problems(game: Game) -> list[str]:
    return problems(game, COMMON, list(GAMES.values()), RULES, EVENTS)


@pytest.mark.parametrize("game", EVERY, ids=[g.name for g in EVERY])
def test_every_path_of_a_description_names_declared_data(game: Game) -> None:
    assert _problems(game) == []


@pytest.mark.parametrize(
    "text",
    [
        Text("{t}", facts={"t": ["clock", "view.clock.remainder"]}),
        Text("{m}", when=("!?options.clock.minute",), facts={"m": "options.size"}),
        Text("{m}", when=("view.movez=1",)),
        Text("{n}", facts={"n": ["name", "result.winnr", "Someone"]}),
        Text("{w}", facts={"w": ["word", "no-such-table", "view.rule"]}),
        Text("{m}", when=("$missing",), facts={"m": "view.size"}),
        Text("{items}", each=Each("view.colors", (Text("{c}", when=("@value.hue",)),))),
        Text("{items}", each=Each("view.colours", (Text("{c}"),))),
    ],
)
def test_a_path_the_types_do_not_have_is_found(text: Text) -> None:
    broken = dataclasses.replace(GAMES["gomoku"], status=(*GAMES["gomoku"].status, text))
    assert len(_problems(broken)) == 1


def test_a_game_without_declared_data_is_a_problem() -> None:
    bare = dataclasses.replace(GAMES["gomoku"], data=None)
    assert _problems(bare) == ["gomoku: no declared data (Game.data)"]


@pytest.mark.parametrize("game", GAMES.values(), ids=list(GAMES))
def test_the_declared_options_are_the_create_forms_fields(game: Game) -> None:
    assert game.data is not None
    declared = {f.encode_name for f in msgspec.structs.fields(game.data.options)}
    assert declared == {f.key for f in game.form}


def _js_keys(table: str) -> set[str]:
    """The keys of ``const TABLE = {...};`` in describe.js (``name:`` or shorthand)."""
    source = DESCRIBE_JS.read_text("utf-8")
    body = re.search(rf"^const {table} = \{{\n(.*?)^\}};", source, re.S | re.M)
    assert body is not None, table
    return set(re.findall(r"^  (\w+)(?::|,)", body.group(1), re.M))


SPECIAL = {"word", "name", "you"}
"""Functions both interpreters' ``fact`` handles itself (they read the context)."""


def test_both_interpreters_know_every_function_the_descriptions_call() -> None:
    used = {fn for game in EVERY for spec in every_fact(game) for fn in functions(spec)}
    assert used - SPECIAL <= set(render.FUNCTIONS)
    assert used - SPECIAL <= _js_keys("FUNCTIONS")
    assert set(render.FUNCTIONS) == _js_keys("FUNCTIONS")


def test_both_interpreters_know_every_rule_the_descriptions_name() -> None:
    named = {c.lstrip("!") for game in EVERY for c in every_cond(game)}
    rules = {c for c in named if "." not in c and "=" not in c and c[:1] not in "?$@"}
    assert rules <= RULES
    assert RULES == _js_keys("RULES")


def _undeclared(value: Any, kinds: tuple[Any, ...], where: str) -> list[str]:
    """Keys of a fixture's map that no declared type has (values are not checked: the
    fixtures hold junk on purpose)."""
    if not isinstance(value, dict):
        return []
    out = []
    for key, inner in value.items():
        found = step(kinds, str(key))
        if not found:
            out.append(f"{where}.{key}")
        else:
            out += _undeclared(inner, found, f"{where}.{key}")
    return out


@pytest.mark.parametrize("game", list(GAMES))
def test_the_shared_fixtures_hold_only_declared_keys(game: str) -> None:
    kinds = GAMES[game].data
    assert kinds is not None
    roots = {"view": kinds.view, "options": kinds.options, "result": kinds.result}
    for case in fixtures()[game]:
        for root, kind in roots.items():
            value = case["state"].get(root)
            assert _undeclared(value, (kind,), root) == [], case["name"]


def test_the_walk_steps_through_structs_maps_lists_and_unions() -> None:
    kinds = GAMES["gomoku"].data
    assert kinds is not None
    scope = Scope({"view": (kinds.view,)})
    assert step((kinds.view,), "clock") and step(step((kinds.view,), "clock"), "remaining")
    assert step((kinds.view,), "moves") and step(step((kinds.view,), "moves"), "0")
    assert not step(step((kinds.view,), "moves"), "x")
    assert scope.roots["view"] == (kinds.view,)
