"""Every game's declared data (protocol/games/<game>.py, ``TYPES``) is what the game
really builds: options parsed from every preset, each recipient's view after every
move of random games, the moves as the room echoes them, notices, results and records
all read as their types, which refuse a key they do not declare."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from gridhall.protocol.games import GAMES
from gridhall.protocol.games.data import GameTypes, check
from gridhall.server.games import registry
from gridhall.server.games.base import Game, GameError
from gridhall.server.games.linkmatch import available_pairs

EXTRA_OPTIONS: dict[str, list[dict[str, Any]]] = {
    "gomoku": [
        {"clock": "10+5"},
        {"clock": {"minutes": 0.5, "increment": 0}},
        {"ai": "easy", "move_limit": 30},
        {"rated": True, "size": 19},
    ],
    "minesweeper": [
        {"preset": None, "width": 12, "height": 10, "mines": 30, "lives": 3},
        {"preset": "beginner", "first_click": "safe", "hint_penalty": 5},
    ],
    "reversi": [{"size": 6, "clock": "1+0"}, {"size": 10, "ai": "hard", "rated": True}],
    "linkmatch": [
        {"width": 6, "height": 4, "kinds": 4, "countdown": 0, "rated": True},
        {"width": 6, "height": 4, "kinds": 6, "countdown": 0, "gravity": "down"},
    ],
}


def _options(name: str) -> list[dict[str, Any]]:
    """Raw options: none, every preset of the create form, and a few more."""
    presets = [dict(p.values) for p in GAMES[name].presets]
    return [{}, *presets, *EXTRA_OPTIONS[name]]


def _types(name: str) -> GameTypes:
    found = GAMES[name].data
    assert found is not None, name
    return found


def _gomoku_move(game: Any, player: str, rng: random.Random) -> dict[str, Any]:
    size = game.board.size
    return {"x": rng.randrange(size), "y": rng.randrange(size)}


def _minesweeper_move(game: Any, player: str, rng: random.Random) -> dict[str, Any]:
    action = rng.choice(["reveal"] * 6 + ["chord", "mark", "flag-around", "hint"])
    move: dict[str, Any] = {"action": action}
    if action != "hint":
        move.update(x=rng.randrange(game.width), y=rng.randrange(game.height))
    if action == "mark":
        move["mark"] = rng.choice(["flag", "question", "none"])
    return move


def _linkmatch_move(game: Any, player: str, rng: random.Random) -> dict[str, Any]:
    rows = game.view(player).get("rows")
    pairs = available_pairs(rows) if rows else []
    if pairs and rng.random() < 0.85:
        a, b = rng.choice(pairs)
        return {"action": "link", "a": list(a), "b": list(b)}
    return {"action": rng.choice(["hint", "shuffle"])}


def _reversi_move(game: Any, player: str, rng: random.Random) -> dict[str, Any]:
    legal = game.view(player)["legal"]
    if legal and rng.random() < 0.9:
        x, y = rng.choice(legal)
        return {"x": x, "y": y}
    return {"x": rng.randrange(game.position.size), "y": rng.randrange(game.position.size)}


MOVES: dict[str, Callable[[Any, str, random.Random], dict[str, Any]]] = {
    "reversi": _reversi_move,
    "gomoku": _gomoku_move,
    "minesweeper": _minesweeper_move,
    "linkmatch": _linkmatch_move,
}


def _check_views(game: Game, kinds: GameTypes, players: list[str]) -> None:
    for who in (*players, None):
        check(game.view(who), kinds.view)


def _play(name: str, raw: dict[str, Any], seed: int) -> None:
    kinds, spec, rng = _types(name), registry()[name], random.Random(seed)
    options = spec.parse_options(raw)
    check(options, kinds.options)
    players = ["a", "b"]
    now = 1000.0
    game = spec.new_game(options, players, seed % 2, seed, now)
    for _ in range(400):
        if game.result is not None:
            break
        now += rng.choice([0.5, 2.0, 20.0])
        for notice in game.tick(now):
            check({k: v for k, v in notice.items() if k != "type"}, kinds.notice or kinds.view)
        turn = game.turn()
        player = turn if turn is not None else rng.choice(players)
        if game.result is not None:
            break
        move = MOVES[name](game, player, rng)
        check(move, kinds.move)
        try:
            played = game.apply(player, move, now)
        except GameError:
            continue
        for who in (*players, None):
            check(game.visible_move(player, played.move, who), kinds.move)
        for notice in played.notices:
            assert kinds.notice is not None, notice
            check({k: v for k, v in notice.items() if k != "type"}, kinds.notice)
        _check_views(game, kinds, players)
    if game.result is None:
        game.resign("a", now)
        game.resign("b", now)
    assert game.result is not None
    check(game.result, kinds.result)
    _check_views(game, kinds, players)
    check(game.record(), kinds.record)


CASES = [(name, raw) for name in GAMES for raw in _options(name)]


@pytest.mark.parametrize(("name", "raw"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)])
def test_a_games_real_data_reads_as_its_declared_types(name: str, raw: dict[str, Any]) -> None:
    for seed in range(3):
        _play(name, raw, seed)


def test_a_key_the_type_does_not_declare_is_refused() -> None:
    """The check is strict, so a game that adds a key must declare it."""
    kinds = _types("gomoku")
    with pytest.raises(msgspec.ValidationError, match="later"):
        check({"x": 1, "y": 2, "later": 3}, kinds.move)
