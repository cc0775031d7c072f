"""A room's spectators share budgets for what they make it broadcast (counted in
frames: an event costs one per member), and a room admits a bounded number of them;
whoever is refused is told why and how long to wait. Players keep their own limits."""

from __future__ import annotations

from gridhall import protocol as p
from gridhall.server.core.fanout import FrameBudget
from tests.server.helpers import T0, Client, FakeServer, connect


def crowded(
    server: FakeServer, spectators: int, every: float = 0.0
) -> tuple[Client, list[Client], str]:
    """A room of Ann's with ``spectators`` joining ``every`` seconds apart from T0."""
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku")
    room = ann.last(p.Joined).room
    crowd = []
    for n in range(spectators):
        s = connect(server, f"S{n}", peer=f"10.0.1.{n % 10}")
        s.send("join-room", T0 + n * every, room=room, role="spectator")
        assert not s.errors()
        crowd.append(s)
    return ann, crowd, room


def test_spectators_chatting_within_their_own_limits_share_the_rooms_budget() -> None:
    server = FakeServer(spectator_chat_frames_per_second=100.0, spectator_chat_frames_burst=200)
    ann, crowd, _ = crowded(server, 19, every=1.0)  # 20 members: a line costs 20 frames
    for s in crowd:
        s.clear()
    ann.clear()
    for s in crowd:  # one line each, well within each one's own chat limit
        s.send("chat", T0 + 100, text="hi")
    told = [s.errors() for s in crowd]
    assert sum(1 for e in told if not e) == 10  # the burst: 200 frames, 10 lines
    refused = [e[0] for e in told if e]
    assert all(
        e.code == "rate-limited"
        and e.retry_after is not None
        and 0 < e.retry_after <= 2.0
        and "spectators" in e.message
        for e in refused
    )
    assert len([m for m in ann.received() if isinstance(m, p.ChatEvent)]) == 10
    assert all(s.link.close_code is None for s in crowd)
    ann.send("chat", T0 + 100, text="the players keep their own limit")
    assert ann.errors() == [] and isinstance(ann.received()[-1], p.ChatEvent)
    crowd[-1].send("chat", T0 + 100.5, text="after the wait")  # 100 frames/s: 20 in 0.2 s
    assert isinstance(crowd[-1].received()[-1], p.ChatEvent)


def test_a_room_admits_a_bounded_number_of_spectators() -> None:
    server = FakeServer(max_spectators=3)
    _, crowd, room = crowded(server, 3)
    late = connect(server, "Late")
    late.send("join-room", room=room, role="spectator")
    [error] = late.errors()
    assert error.code == "room-full" and "3 spectators" in error.message
    assert late.session.identity is not None and late.session.identity.room is None
    crowd[0].send("leave-room")
    late.send("join-room", T0 + 1, room=room, role="spectator")
    assert isinstance(late.received()[-1], p.State)


def test_arrivals_in_a_crowded_room_are_paced_by_its_roster_budget() -> None:
    server = FakeServer(spectator_roster_frames_per_second=10.0, spectator_roster_frames_burst=30)
    _, _, room = crowded(server, 6)  # costs 2 + 3 + ... + 7 = 27 frames
    late = connect(server, "Late")
    late.send("join-room", room=room, role="spectator")
    [error] = late.errors()
    assert error.code == "rate-limited" and error.retry_after is not None
    assert late.session.identity is not None and late.session.identity.room is None
    late.clear()
    late.send("join-room", T0 + error.retry_after, room=room, role="spectator")
    assert isinstance(late.received()[-1], p.State)


def test_a_refused_arrival_costs_the_room_nothing() -> None:
    server = FakeServer(spectator_roster_frames_per_second=0.001, spectator_roster_frames_burst=10)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku")
    room = ann.last(p.Joined).room
    bob.send("join-room", room=room)  # a seat: no spectator budget
    cy = connect(server, "Cy")
    for n in range(20):  # the game is under way and full: each is refused
        cy.send("join-room", T0 + n, room=room)
    assert {e.code for e in cy.errors()} == {"room-full"}
    cy.send("join-room", T0 + 21, room=room, role="spectator")
    assert isinstance(cy.received()[-1], p.State)


def test_a_departure_is_never_refused_but_is_paid_for() -> None:
    budget = FrameBudget(10.0, 30, T0)
    assert budget.spend(30, T0) == 0.0
    budget.charge(100, T0)  # at most one burst of debt
    assert budget.spend(10, T0) == 4.0  # (10 + 30) / 10 frames per second
    assert FrameBudget(10.0, 30, T0).spend(50, T0) == 0.0  # dearer than a burst: a full one
