"""A room's lifecycle table alone, and the phases a real room goes through."""

from __future__ import annotations

import pytest

from gridhall import protocol as p
from gridhall.server.core.room.lifecycle import (
    STATE_TRIGGERED,
    TRANSITIONS,
    Lifecycle,
    LifecycleError,
    Phase,
    Step,
)
from tests.server.helpers import FakeServer, connect


def test_a_game_goes_waiting_playing_over_and_back_by_a_rematch() -> None:
    life = Lifecycle()
    assert life.status == "waiting"
    life.process(Step.GAME_STARTED)
    assert life.settle(game_over=False) is Phase.PLAYING and life.status == "playing"
    assert life.settle(game_over=True) is Phase.OVER and life.status == "over"
    assert life.process(Step.REMATCH) is Phase.WAITING


def test_a_manual_game_starts_again_straight_from_over() -> None:
    life = Lifecycle(Phase.OVER)
    assert life.process(Step.GAME_STARTED) is Phase.PLAYING


@pytest.mark.parametrize(
    ("phase", "step"),
    [
        (Phase.PLAYING, Step.GAME_STARTED),
        (Phase.PLAYING, Step.REMATCH),
        (Phase.WAITING, Step.REMATCH),
        (Phase.CLOSED, Step.GAME_STARTED),
    ],
)
def test_a_step_the_table_lacks_is_a_bug_and_changes_nothing(phase: Phase, step: Step) -> None:
    life = Lifecycle(phase)
    with pytest.raises(LifecycleError):
        life.process(step)
    assert life.phase is phase


def test_a_closed_room_reports_the_phase_it_closed_in_and_may_close_again() -> None:
    life = Lifecycle()
    life.process(Step.GAME_STARTED)
    life.process(Step.CLOSE)
    assert life.closed and life.status == "playing"
    assert life.process(Step.CLOSE) is Phase.CLOSED


def test_every_phase_can_close_and_only_playing_ends_by_itself() -> None:
    assert all(TRANSITIONS[phase][Step.CLOSE] is Phase.CLOSED for phase in Phase)
    assert set(STATE_TRIGGERED) == {(Phase.PLAYING, True)}


def test_a_room_is_over_as_soon_as_a_resignation_ends_its_game() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku")
    code = ann.last(p.Joined).room
    room = server.hub.lobby.rooms[code]
    assert room.life.phase is Phase.WAITING
    bob.send("join-room", room=code)
    assert room.life.phase is Phase.PLAYING
    bob.send("resign")
    assert room.life.phase is Phase.OVER and ann.last(p.GameOver).result is not None
    ann.send("play-again")
    assert room.life.phase is Phase.OVER
    bob.send("agree-again")
    assert room.life.phase is Phase.PLAYING  # both agreed: the rematch started at once
