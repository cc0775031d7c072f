"""The worker pool's scheduler: one bounded queue, fair per address and per room,
quick jobs never behind computers."""

from __future__ import annotations

from gridhall.server.core.scheduler import JobClass, Owner, Scheduler


def owner(address: str, room: str = "R") -> Owner:
    return Owner(address, room)


def offer(
    s: Scheduler[str],
    name: str,
    address: str,
    room: str = "R",
    cls: JobClass = "quick",
    key: object = None,
) -> bool:
    return s.offer(name, owner(address, room), cls, key).accepted


def started(s: Scheduler[str]) -> dict[str, int]:
    """Start what may start: job name -> ticket."""
    return {name: ticket for ticket, name in s.start()}


def test_computers_never_take_the_slot_kept_for_quick_jobs() -> None:
    s: Scheduler[str] = Scheduler(workers=2, reserve=1)
    for n in range(10):
        offer(s, f"think{n}", "10.0.0.66", room=f"R{n}", cls="computer")
    offer(s, "think-b", "10.0.0.2", room="B", cls="computer")
    first = started(s)
    assert set(first) == {"think0", "think-b"}  # one per address: half the computer slots
    assert s.running == 2 and s.queued("computer") == 9
    offer(s, "password", "10.0.0.3")
    assert set(started(s)) == {"password"}  # the kept slot: no wait behind computers


def test_quick_jobs_go_before_computers_when_a_slot_frees() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=1)
    offer(s, "think", "A", cls="computer")
    offer(s, "hint1", "B")
    assert set(started(s)) == {"think", "hint1"}
    offer(s, "think2", "A", room="R2", cls="computer")
    offer(s, "hint2", "C")
    assert started(s) == {}  # both slots taken
    think_ticket = 1
    s.finished(think_ticket)
    assert set(started(s)) == {"hint2"}  # a quick job takes the freed slot first


def test_addresses_take_turns_and_then_their_rooms_take_turns() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=0)
    for room in ("a1", "a2", "a3"):
        for n in range(2):
            offer(s, f"{room}-{n}", "A", room=room, cls="computer")
    offer(s, "b1-0", "B", room="b1", cls="computer")
    order = []
    for _ in range(7):
        [(ticket, name)] = s.start()
        order.append(name)
        s.finished(ticket)
    assert order == ["a1-0", "b1-0", "a2-0", "a3-0", "a1-1", "a2-1", "a3-1"]


def test_one_address_never_holds_every_slot() -> None:
    s: Scheduler[str] = Scheduler(workers=2, reserve=1, per_address=10)
    for n in range(5):
        offer(s, f"hint{n}", "A", room=f"R{n}")
    assert len(started(s)) == 2  # of 3 slots
    assert s.running_of("A") == 2
    offer(s, "join", "B")
    assert set(started(s)) == {"join"}


def test_quick_jobs_past_their_address_cap_are_refused_and_change_nothing() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=1, per_address=2)
    assert offer(s, "j1", "A", room="R1") and offer(s, "j2", "A", room="R2")
    assert not offer(s, "j3", "A", room="R3")
    assert s.queued() + s.running == 2
    assert offer(s, "b", "B")  # another address is not refused
    for ticket, _ in s.start():
        s.finished(ticket)
    assert offer(s, "j3", "A", room="R3")  # room again once its jobs are done


def test_a_full_queue_sheds_the_biggest_holders_newest_job_for_a_newcomer() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=0, max_queued=4, per_address=4)
    for n in range(4):
        assert offer(s, f"a{n}", "A", room=f"R{n}")
    admission = s.offer("b0", owner("B"), "quick")
    assert admission.accepted and admission.evicted == ["a3"]
    assert s.quick_held() == 4
    assert offer(s, "c0", "C")  # A still holds 3 > 1
    assert offer(s, "d0", "D")  # A holds 2 > 1
    assert not offer(s, "e0", "E")  # nobody holds more than E would: refused
    assert s.quick_held() == 4


def test_computer_moves_are_never_refused_but_one_per_seat_is_kept() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=1, max_queued=1, per_address=1)
    offer(s, "busy", "B", room="X", cls="computer")
    started(s)
    for n in range(50):
        assert offer(s, f"think{n}", "A", room="R", cls="computer", key=("R", "bot"))
    assert s.queued("computer") == 1  # each replaced the last
    admission = s.offer("take-back", owner("A"), "computer", key=("R", "bot"))
    assert admission.accepted and admission.replaced == ["think49"]


def test_a_closed_rooms_queued_jobs_are_dropped() -> None:
    s: Scheduler[str] = Scheduler(workers=1, reserve=0)
    offer(s, "running", "A", room="R0", cls="computer")
    started(s)
    offer(s, "think", "A", room="R1", cls="computer", key=("R1", "bot"))
    offer(s, "hint", "A", room="R1")
    offer(s, "other", "A", room="R2")
    assert sorted(s.forget_room("R1")) == ["hint", "think"]
    assert s.queued() == 1 and s.quick_held() == 1
    assert offer(s, "think-again", "A", room="R1", cls="computer", key=("R1", "bot"))
    assert s.queued("computer") == 1
