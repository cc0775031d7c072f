"""The client's Replay model: every frame by index, whatever the way there (forward,
back, jumps across its cached views), pages added as they come, bounds clamped."""

from __future__ import annotations

from typing import Any

import pytest

from gridhall.protocol.delta import apply
from gridhall.protocol.replay import Replay
from gridhall.server.games.gomoku.game import GomokuGame
from gridhall.server.io.services import replays

MOVES = [(x, y) for y in range(0, 15, 3) for x in range(15)][:40]


def record() -> dict[str, Any]:
    game = GomokuGame({"size": 15, "rule": "freestyle"}, ["p1", "p2"], 0, 0.0)
    for n, (x, y) in enumerate(MOVES):
        turn = game.turn()
        assert turn is not None
        game.apply(turn, {"x": x, "y": y}, float(n))
    return game.record()


def folded(start: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    views = [start]
    for step in steps:
        views.append(apply(views[-1], step["view"], step["delta"]))
    return views


def test_every_frame_is_the_same_however_it_is_reached() -> None:
    page = replays.page("gomoku", record())
    expected = folded(page.start, page.steps)
    model = Replay(page.start, page.steps, page.total, every=7)
    assert model.loaded == 40 and model.complete and model.position == 0
    assert model.end() == expected[40] and model.position == 40
    for k in range(40, -1, -1):
        assert model.jump(k) == expected[k]
    for k in (33, 2, 29, 0, 40, 8, 7, 6):
        assert model.jump(k) == expected[k]
    model.start()
    for k in range(1, 41):
        assert model.forward() == expected[k]
        step = model.step()
        assert step is not None and step["by"] == ("p1" if k % 2 else "p2")
    assert model.forward() == expected[40] and model.position == 40  # clamped
    assert model.jump(-5) == expected[0] and model.back() == expected[0]
    assert model.step() is None


def test_pages_are_added_as_they_come_and_a_later_page_starts_alone() -> None:
    rec = record()
    first = replays.page("gomoku", rec, 0, limit=15)
    second = replays.page("gomoku", rec, 15, limit=30)
    expected = folded(first.start, first.steps + second.steps)
    model = Replay.from_answer(
        {"start": first.start, "steps": first.steps, "total": first.total}, every=4
    )
    assert not model.complete and model.end() == expected[15]
    model.extend(second.steps)
    assert model.complete and model.end() == expected[40]
    assert model.jump(3) == expected[3]
    later = Replay.from_answer(
        {"start": second.start, "steps": second.steps, "first": 15, "total": second.total}
    )
    assert later.position == 15 and later.view() == expected[15]
    assert later.jump(0) == expected[15] and later.end() == expected[40]


def test_a_cache_of_less_than_one_frame_is_refused() -> None:
    with pytest.raises(ValueError):
        Replay({}, every=0)
