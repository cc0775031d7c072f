"""The shared view fixtures (tests/fixtures/views/*.json) against the Python views: a
state, a viewer and a time -> the status line, result, outcome, offer, actions, roles,
lobby summary, ranking, gesture hint and event sentences the terminal and Tk clients
show. tests/web/test_web_view_fixtures.py runs the same files through the browser's
interpreter, so the clients cannot drift apart."""

from __future__ import annotations

from typing import Any

import pytest

from gridhall.protocol.games import GAMES
from tests.fixtures.views.runner import fixtures, python_answers

CASES = [(game, case) for game, cases in fixtures().items() for case in cases]


def test_the_fixtures_cover_every_game_and_moment() -> None:
    games = {game for game, _ in CASES}
    assert games == set(GAMES)
    for game in games:
        statuses = {c["state"]["status"] for g, c in CASES if g == game}
        assert statuses >= {"playing", "over"}, game
        assert any(c["me"] == "c" for g, c in CASES if g == game), f"{game}: no spectator"
    outcomes = {c["expect"]["outcome"] for _, c in CASES}
    assert outcomes == {"win", "loss", "draw", "none"}


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}: {c['name']}" for g, c in CASES])
def test_python_views_say_what_the_fixture_says(game: str, case: dict[str, Any]) -> None:
    assert python_answers(case) == case["expect"]


JUNK: list[Any] = [
    None,
    True,
    -1,
    10**30,
    float("inf"),
    float("nan"),
    "x",
    [],
    {},
    [[1]],
    {"x": "y"},
    [None, -5],
    "{name}",
]
"""Values a broken or hostile server might put anywhere in a view."""


@pytest.mark.parametrize(("game", "case"), CASES[::3], ids=[c["name"] for _, c in CASES[::3]])
def test_no_view_value_makes_a_sentence_fail(game: str, case: dict[str, Any]) -> None:
    """Every fact function is total: junk in any field of the view or result reads as
    something (or nothing), never as an exception in the client."""
    for junk in JUNK:
        for key in {*case["state"].get("view", {}), "clock", "elapsed", "starts_in"}:
            broken = {
                **case,
                "state": {**case["state"], "view": {**case["state"].get("view", {}), key: junk}},
            }
            python_answers(broken)
        for key in ("winner", "by", "remaining", "times", "ranking", "decided_by"):
            result = {**(case["state"].get("result") or {"reason": "five"}), key: junk}
            python_answers({**case, "state": {**case["state"], "status": "over", "result": result}})
