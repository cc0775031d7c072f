"""Background jobs (analyses) in the worker pool: after quick jobs and computer moves,
never on the last free computer slot."""

from __future__ import annotations

from gridhall.server.core.scheduler import Scheduler
from tests.server.test_scheduler import offer, started


def test_background_jobs_leave_a_computer_slot_free() -> None:
    s: Scheduler[str] = Scheduler(workers=2, reserve=1)
    for n in range(3):
        offer(s, f"analysis{n}", f"10.0.0.{n}", room=f"A{n}", cls="background")
    assert set(started(s)) == {"analysis0"}  # one of the two computer slots, no more
    offer(s, "think", "10.0.0.9", cls="computer")
    assert set(started(s)) == {"think"}  # the slot kept for computers: no wait
    offer(s, "hint", "10.0.0.8")
    assert set(started(s)) == {"hint"}  # and the quick slot is still there


def test_a_waiting_computer_move_goes_before_background_jobs() -> None:
    s: Scheduler[str] = Scheduler(workers=2, reserve=1)
    offer(s, "think1", "10.0.0.1", room="R1", cls="computer")
    offer(s, "think2", "10.0.0.2", room="R2", cls="computer")
    offer(s, "analysis", "10.0.0.3", room="A", cls="background")
    first = started(s)
    assert set(first) == {"think1", "think2"}
    offer(s, "think3", "10.0.0.4", room="R3", cls="computer")
    s.finished(first["think1"])
    assert set(started(s)) == {"think3"}  # the freed slot: the computer, not the analysis
    assert s.queued("background") == 1


def test_with_one_worker_background_jobs_still_run() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=1)
    offer(s, "analysis", "10.0.0.3", room="A", cls="background")
    assert set(started(s)) == {"analysis"}
