"""The hard engine uses the time it is given, read on a fake clock (no timing)."""

from __future__ import annotations

import itertools

import pytest

from gridhall.server.games.gomoku.ai import clock, core, hard

TICK = 0.01
"""Fake seconds per clock read: the engine reads the clock every few nodes, so
time here is a count of work done, the same on any machine."""


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    ticks = itertools.count()
    monkeypatch.setattr(clock, "now", lambda: next(ticks) * TICK)
    # the compiled core reads its own clock: these are the Python engine's rules
    monkeypatch.setenv(core.ENV, "1")


@pytest.mark.usefixtures("fake_clock")
def test_a_quiet_position_is_searched_until_most_of_the_budget_is_used() -> None:
    st = hard.Stats()
    hard.choose([(7, 7), (8, 8)], 15, "freestyle", 1.0, st)
    assert st.reason == "search" and not st.sharp
    assert st.seconds >= hard.QUIET  # deepened past QUIET of the 1 s budget
    assert st.seconds <= hard.CAP + 0.05  # and stopped at the cap


@pytest.mark.usefixtures("fake_clock")
def test_a_forced_move_is_answered_without_thinking() -> None:
    st = hard.Stats()
    moves = [(7, 7), (10, 3), (10, 2), (10, 4), (2, 2), (10, 5), (12, 12), (10, 6)]
    assert hard.choose(moves, 15, "standard", 1.0, st) == (10, 7)
    assert st.reason == "block-four" and st.seconds < 0.05
