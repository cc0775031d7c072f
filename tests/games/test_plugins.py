"""Every game is a plug-in that keeps the contract of ``server/games/base.py``: the
registry holds exactly the games of the one list, each a ``GameSpec`` whose declared
members agree with its description, and nothing in the server finds a game's optional
members by probing (``getattr``/``hasattr``): the base classes give each its default."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from gridhall.protocol.games import GAMES, NAMES
from gridhall.server import games
from gridhall.server.core.session import Services
from gridhall.server.games.base import ComputerPlayer, Game, GameSpec
from gridhall.server.games.rating import RatingModel

SERVER = Path(__file__).resolve().parents[2] / "server"
MEMBERS = {
    name
    for cls in (Game, GameSpec, ComputerPlayer)
    for name in (*vars(cls), *getattr(cls, "__annotations__", {}))
    if not name.startswith("__")
} | {f.name for f in dataclasses.fields(Services)}
"""Every member the contracts declare (methods, attributes, capabilities): a game's, its
spec's and its computer's, and the services a session may find in the server around it."""


def test_the_registry_is_the_one_list() -> None:
    registry = games.registry()
    assert list(registry) == list(NAMES) == list(GAMES)
    for name, spec in registry.items():
        assert isinstance(spec, GameSpec) and spec.name == name
        assert spec.description is GAMES[name] or spec.description.name == name


@pytest.mark.parametrize("name", NAMES)
def test_a_plugins_declarations_agree_with_its_description(name: str) -> None:
    spec = games.registry()[name]
    rating = spec.rating
    assert rating is None or isinstance(rating, RatingModel)
    assert (rating.kind if rating else None) == spec.description.ratings
    assert (spec.analysis is not None) == spec.description.analysis
    if spec.computer is not None:
        assert set(spec.references) <= set(spec.computer.levels)


@pytest.mark.parametrize("name", NAMES)
def test_a_new_game_is_a_game_and_replays_from_its_record(name: str) -> None:
    spec = games.registry()[name]
    options = spec.parse_options({})
    players = ["a", "b"][: max(1, spec.min_players)]
    game = spec.new_game(options, players, 0, 7, 1000.0)
    assert isinstance(game, Game)
    assert spec.moves(game.record()) == 0
    run = spec.replay(game.record(), 0.0)
    assert isinstance(run.view(), dict)
    if spec.saves_games:
        again = spec.restore_game(game.state())
        assert again.view(None) == game.view(None)


def test_a_plugin_that_contradicts_its_description_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    name = next(n for n in NAMES if GAMES[n].analysis)
    monkeypatch.setattr(type(games.registry()[name]), "analysis", None)
    with pytest.raises(TypeError, match="analysis"):
        games._plugin(name)


def probes(path: Path) -> list[str]:
    """``getattr``/``hasattr`` calls in ``path`` that ask for a contract member by name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in MEMBERS
        ):
            found.append(f"{path.relative_to(SERVER.parent)}:{node.lineno}: {node.args[1].value}")
    return found


def test_nothing_probes_a_game_for_its_members() -> None:
    assert {"state", "restore_game", "work_for", "shared_view", "warm_up", "queries"} <= MEMBERS
    assert [p for path in sorted(SERVER.rglob("*.py")) for p in probes(path)] == []
