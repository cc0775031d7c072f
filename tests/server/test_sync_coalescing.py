"""A ``sync`` past the snapshot limit waits and is answered once; it is never a strike."""

from __future__ import annotations

from gridhall import protocol as p
from tests.server.helpers import T0, Client, FakeServer, connect


def test_a_sync_past_the_limit_is_answered_once_it_is_allowed_not_refused() -> None:
    server = FakeServer(snapshots_per_second=1.0, snapshot_burst=2)
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")  # one snapshot
    client.send("sync")  # two: the burst is spent
    client.clear()
    client.send("sync")
    last = client.send("sync")  # folds into the one waiting
    assert client.received() == []  # neither refused nor answered yet
    server.advance(T0 + 1.1)
    [state] = client.received()
    assert isinstance(state, p.State) and state.re == last
    server.advance(T0 + 10.0)
    assert len(client.received()) == 1  # one answer for the folded syncs


def test_syncs_asked_again_and_again_never_close_the_connection() -> None:
    server = FakeServer(
        snapshots_per_second=0.1,
        snapshot_burst=1,
        max_rate_strikes=3,
        rate_per_second=10.0,
        rate_burst=20,
    )
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")
    client.clear()
    for n in range(200):  # 100/s: past the snapshot limit and the message rate alike
        client.send("sync", T0 + n * 0.01)
    assert client.link.close_code is None
    assert client.errors() == []
    server.advance(T0 + 10.1)
    assert [type(m) for m in client.received()] == [p.State]


def test_a_folded_sync_keeps_the_earliest_since() -> None:
    server = FakeServer(snapshots_per_second=1.0, snapshot_burst=1)
    ann = connect(server, "Ann")
    ann.send("create-room", game="minesweeper")
    room = ann.last(p.Joined).room
    bob = connect(server, "Bob")
    bob.send("join-room", room=room, role="spectator", now=T0 + 5)
    seq = bob.last(p.State).seq
    ann.send("chat", T0 + 5.1, text="one")
    ann.send("chat", T0 + 5.2, text="two")
    bob.clear()
    bob.send("sync", T0 + 5.3, since=seq + 1)
    bob.send("sync", T0 + 5.4, since=seq)
    server.advance(T0 + 7)
    assert [m.text for m in bob.received() if isinstance(m, p.ChatEvent)] == ["one", "two"]


def test_join_room_past_the_snapshot_limit_is_still_refused() -> None:
    server = FakeServer(snapshots_per_second=1.0, snapshot_burst=1)
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")
    client.send("leave-room")
    rid = client.send("create-room", game="minesweeper")
    [error] = client.errors()
    assert error.code == "rate-limited" and error.re == rid


def test_syncs_before_hello_still_count_against_the_message_rate() -> None:
    server = FakeServer(rate_per_second=1.0, rate_burst=2, max_rate_strikes=3)
    client = Client(server)
    for _ in range(6):
        client.send("sync")
    assert (client.link.close_code, client.link.close_reason) == (1008, "message flood")


def test_syncs_far_past_anything_a_room_explains_close_as_a_flood() -> None:
    server = FakeServer(rate_per_second=1.0, rate_burst=2)  # 20 syncs, then 10 a second
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")
    for n in range(20):
        client.send("sync", T0 + n * 0.01)
    assert client.link.close_code is None
    for n in range(5):
        client.send("sync", T0 + 0.2 + n * 0.01)
    assert (client.link.close_code, client.link.close_reason) == (1008, "message flood")
