"""The refused-move contract, for every game: an action the rules refuse (GameError)
leaves ``record()`` and every ``view()`` exactly as they were."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridhall.server.games import registry
from gridhall.server.games.base import Game, GameError

PLAYERS = ["a", "b", "c"]
OUTSIDER = "z"
SIZE = 9

coord = st.integers(-1, SIZE)
point = st.lists(coord, min_size=2, max_size=2)
junk = st.sampled_from(
    [
        {},
        {"x": "1", "y": 2},
        {"action": 7},
        {"action": "dance"},
        {"x": True, "y": 0},
        {"a": [0], "b": None, "action": "link"},
    ]
)

gomoku_move = st.one_of(st.fixed_dictionaries({"x": coord, "y": coord}), junk)
minesweeper_move = st.one_of(
    st.fixed_dictionaries(
        {"action": st.sampled_from(["reveal", "chord", "flag-around"]), "x": coord, "y": coord}
    ),
    st.fixed_dictionaries(
        {
            "action": st.just("mark"),
            "x": coord,
            "y": coord,
            "mark": st.sampled_from(["flag", "question", "none", "bomb"]),
        }
    ),
    st.just({"action": "hint"}),
    junk,
)
linkmatch_move = st.one_of(
    st.fixed_dictionaries({"action": st.just("link"), "a": point, "b": point}),
    st.sampled_from([{"action": "hint"}, {"action": "shuffle"}]),
    junk,
)

step = st.tuples(
    st.sampled_from(["apply", "apply", "apply", "request", "respond", "resign"]),
    st.sampled_from([*PLAYERS, OUTSIDER]),
    st.sampled_from(["draw", "takeback", "rematch"]),
    st.booleans(),
    st.floats(0.0, 5.0),
)

OPTIONS: dict[str, dict[str, Any]] = {
    "gomoku": {"size": 15, "rule": "renju"},
    "minesweeper": {"width": SIZE, "height": SIZE, "mines": 12, "lives": 2},
    "linkmatch": {"width": 6, "height": 4, "kinds": 3, "countdown": 1},
    "reversi": {"size": 6},
}


def observe(game: Game) -> Any:
    return copy.deepcopy(
        (
            game.record(),
            [game.view(v) for v in [*PLAYERS, OUTSIDER, None]],
            game.result,
            game.turn(),
        )
    )


def run(name: str, moves: list[dict[str, Any]], steps: list[Any], seed: int) -> int:
    spec = registry()[name]
    players = PLAYERS[: spec.max_players(spec.parse_options(dict(OPTIONS[name])))]
    game = spec.new_game(spec.parse_options(dict(OPTIONS[name])), players, 0, seed, 0.0)
    now = 0.0
    refusals = 0
    for move, (kind, player, offer, accept, dt) in zip(moves, steps, strict=False):
        now += dt
        before = observe(game)
        try:
            if kind == "apply":
                game.apply(player, move, now)
            elif kind == "request":
                game.request(player, offer, now)
            elif kind == "respond":
                game.respond(player, offer, accept, now)
            else:
                game.resign(player, now)
        except GameError as exc:
            refusals += 1
            assert observe(game) == before, f"{name}: refused {kind} {move} changed the game"
            assert exc.code in (
                "bad-message",
                "illegal-move",
                "not-your-turn",
                "not-playing",
                "not-a-player",
                "no-pending-request",
            )
    return refusals


SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(
    st.lists(gomoku_move, min_size=1, max_size=60),
    st.lists(step, min_size=60, max_size=60),
    st.integers(0, 2**32),
)
def test_refused_gomoku_actions_change_nothing(
    moves: list[Any], steps: list[Any], seed: int
) -> None:
    run("gomoku", moves, steps, seed)


@SETTINGS
@given(
    st.lists(minesweeper_move, min_size=1, max_size=60),
    st.lists(step, min_size=60, max_size=60),
    st.integers(0, 2**32),
)
def test_refused_minesweeper_actions_change_nothing(
    moves: list[Any], steps: list[Any], seed: int
) -> None:
    run("minesweeper", moves, steps, seed)


@SETTINGS
@given(
    st.lists(linkmatch_move, min_size=1, max_size=60),
    st.lists(step, min_size=60, max_size=60),
    st.integers(0, 2**32),
)
def test_refused_linkmatch_actions_change_nothing(
    moves: list[Any], steps: list[Any], seed: int
) -> None:
    run("linkmatch", moves, steps, seed)


def test_the_property_sees_refusals_of_every_game() -> None:
    """The generators above do reach refusals (so the property is not vacuous)."""
    wrong = [{"x": -1, "y": 0}, {"action": "dance"}, {"action": "link", "a": [0, 0], "b": [0, 0]}]
    steps = [("apply", "a", "draw", True, 2.0)] * 3
    for name in ("gomoku", "minesweeper", "linkmatch"):
        assert run(name, wrong, steps, 1) >= 2


@SETTINGS
@given(
    st.lists(gomoku_move, min_size=1, max_size=60),
    st.lists(step, min_size=60, max_size=60),
    st.integers(0, 2**32),
)
def test_refused_reversi_actions_change_nothing(
    moves: list[Any], steps: list[Any], seed: int
) -> None:
    run("reversi", moves, steps, seed)
