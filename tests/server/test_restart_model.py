"""Every room and every identity comes back after a restart at any point of any
conversation (``tests/server/restart_model.py`` says what is checked)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.server.restart_model import GAMES, WEIGHTED, run

step = st.tuples(
    st.integers(0, 3), st.sampled_from(WEIGHTED), st.integers(0, 40), st.integers(0, 40)
)


@example(  # a host's computer refused for want of a seat had still set the options
    game=0, journal_rows=1000, steps=[(0, "resign", 0, 0), (0, "host", 20, 0)], sweep_rows=1000
)
@example(  # Bob's password answered after he made a room of his own (each room replays alone)
    game=2,
    journal_rows=1000,
    steps=[(1, "create", 0, 0), (0, "finish-job", 0, 0)],
    sweep_rows=1000,
)
@example(  # a start queued behind a password check was made when the check failed, though
    # a computer had started the game meanwhile (or a kick left one player): now re-checked
    game=2,
    journal_rows=1000,
    steps=[*[(0, "hello", 0, 0)] * 7, (0, "host", 6, 0), (0, "host", 0, 1), (0, "fail-job", 0, 0)],
    sweep_rows=1000,
)
@example(  # a sweep deleted the last entry written (a dropped room's), so SQLite numbered
    # the next room's entries from there again, at or below that room's ``since``
    game=0,
    journal_rows=1000,
    steps=[
        *[(0, "hello", 0, 0)] * 4,
        (0, "leave", 0, 0),
        (2, "hello", 0, 0),
        (0, "create", 0, 0),
        (1, "join", 0, 1),
        (0, "prune", 0, 0),
        (0, "hello", 0, 0),
    ],
    sweep_rows=1000,
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.integers(0, len(GAMES) - 1),
    journal_rows=st.sampled_from([1000, 3, 1]),
    steps=st.lists(step, min_size=10, max_size=80),
    sweep_rows=st.sampled_from([1000, 2, 1]),
)
def test_a_restart_at_any_point_brings_everything_back(
    game: int, journal_rows: int, steps: list[tuple[int, str, int, int]], sweep_rows: int
) -> None:
    run(steps, journal_rows, game, sweep_rows=sweep_rows)
