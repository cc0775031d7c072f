"""A restart restores every room whatever its journal names: members who left and were
forgotten since (guests who watched, chatted or were kicked, computers removed) are
replayed as stand-ins, and identities never depend on their room coming back."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect
from tests.server.test_durability import gomoku, me, restart, resume


@pytest.mark.parametrize("how", ["leaves", "chats", "is-kicked", "drops"])
def test_a_room_a_forgotten_guest_watched_comes_back_whole(tmp_path: Path, how: str) -> None:
    """Issue 37: a guest watches (and leaves, chats and leaves, is kicked, or drops), the
    grace ends so the guest is forgotten, the server restarts: the room, and Ann's and
    Bob's identities, come back as they were."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    ann, bob, code = gomoku(server)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    guest = connect(server, "Guest", T0 + 2, peer="10.0.0.9")
    guest.send("join-room", T0 + 2, room=code, role="spectator")
    if how == "chats":
        guest.send("chat", T0 + 3, text="nice opening")
    if how == "is-kicked":
        ann.send("host", T0 + 4, action="kick", player=me(guest), minutes=5)
    elif how == "drops":
        guest.drop(T0 + 4)
    else:
        guest.send("leave-room", T0 + 4)
    guest.drop(T0 + 5)
    server.advance(T0 + 100)
    assert me(guest) not in server.hub.identities.by_id  # the guest's grace ended
    ann.send("sync", T0 + 101)
    before = ann.last(p.State)

    server2 = restart(server, path, T0 + 102, T0 + 101)
    assert code in server2.hub.lobby.rooms
    ann2, bob2 = resume(server2, ann, T0 + 103), resume(server2, bob, T0 + 103)
    ann2.send("sync", T0 + 104)
    after = ann2.last(p.State)
    assert after.view == before.view and after.chat == before.chat
    assert [pl["player"] for pl in after.players] == [me(ann), me(bob)]
    assert after.spectators == [] and after.host == me(ann)
    assert me(guest) not in server2.hub.identities.by_id  # the stand-in is not kept
    bob2.send("move", T0 + 105, move={"x": 8, "y": 8})
    assert ann2.last(p.Moved).view["moves"] == [[7, 7], [8, 8]]


def test_a_clock_stands_still_through_two_restarts(tmp_path: Path) -> None:
    """The first restart's downtime is journalled: a second restart replays the moves
    made after the first with the clock shifted as it was (not lost on time)."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    ann, bob, _code = gomoku(server, clock="1+0")
    ann.send("move", T0 + 10, move={"x": 7, "y": 7})
    server2 = restart(server, path, T0 + 1000, T0 + 20)  # 980 s down
    resume(server2, ann, T0 + 1001)
    bob2 = resume(server2, bob, T0 + 1001)
    bob2.send("move", T0 + 1002, move={"x": 8, "y": 8})
    clock = bob2.last(p.Moved).view["clock"]
    server3 = restart(server2, path, T0 + 1003, T0 + 1003)
    ann3 = resume(server3, ann, T0 + 1003)
    state = ann3.last(p.State)
    assert state.result is None and state.view["clock"] == clock


def break_room(path: Path, code: str) -> None:
    """Append a journal entry this version cannot read (as a newer version might)."""
    import sqlite3

    import msgpack

    con = sqlite3.connect(path)
    n = (
        con.execute(
            "SELECT max(n) FROM journal WHERE room = ?",
            (code,),
        ).fetchone()[0]
        or 0
    )
    con.execute(
        "INSERT INTO journal (room, n, entry) VALUES (?, ?, ?)",
        (code, n + 1, msgpack.packb({"k": "teleport", "t": T0 + 2})),
    )
    con.commit()
    con.close()


def test_a_room_that_cannot_be_restored_is_set_aside_and_its_players_keep_their_identities(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    ann, bob, code = gomoku(server)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    other = connect(server, "Cy")
    other.send("create-room", game="minesweeper", options={"preset": "beginner"})
    break_room(path, code)

    with caplog.at_level("INFO", logger="gridhall"):
        server2 = restart(server, path, T0 + 100, T0 + 10)
    assert code not in server2.hub.lobby.rooms and len(server2.hub.lobby.rooms) == 1
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and code in errors[0].getMessage()
    assert "unknown journal entry 'teleport'" in errors[0].getMessage()
    [q] = server2.store.quarantined() if server2.store else []
    assert (q.code, q.game, sorted(q.members)) == (code, "gomoku", sorted([me(ann), me(bob)]))
    identities, rooms = Store(path).load_live()
    assert code not in [r.row["code"] for r in rooms]
    assert {me(ann), me(bob)} <= {i["id"] for i in identities}

    ann2 = Client(server2, T0 + 101)
    ann2.send("hello", T0 + 101, protocol=1, name="Ann", token=ann.last(p.Welcome).token)
    welcome, lost = ann2.received()[:2]
    assert isinstance(welcome, p.Welcome) and welcome.player == me(ann)
    assert isinstance(lost, p.Error) and lost.code == "room-lost" and lost.re is None
    assert lost.room == code and lost.reason == q.reason and code in lost.message
    ann2.clear()
    ann2.drop(T0 + 102)
    ann3 = resume(server2, ann, T0 + 103)  # told once
    assert [type(m) for m in ann3.received()] == [p.Welcome]
    assert code in server2.hub.lobby.reserved  # its code is never given to a new room

    server2.advance(T0 + 10_000)  # Bob never came back: still kept for his room-lost
    assert me(bob) in server2.hub.identities.by_id

    caplog.clear()
    with caplog.at_level("INFO", logger="gridhall"):
        server3 = restart(server2, path, T0 + 20_000, T0 + 10_000)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]  # not tried again
    assert [q.code for q in Store(path).quarantined()] == [code]
    bob3 = resume(server3, bob, T0 + 20_001)
    assert bob3.last(p.Error).code == "room-lost"


def test_a_room_put_back_by_the_operator_is_tried_at_the_next_start(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    ann, _bob, code = gomoku(server)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    import sqlite3

    con = sqlite3.connect(path)
    row = con.execute("SELECT row FROM rooms WHERE code = ?", (code,)).fetchone()[0]
    con.execute("UPDATE rooms SET row = ? WHERE code = ?", (row.replace("gomoku", "go"), code))
    con.commit()
    server2 = restart(server, path, T0 + 100, T0 + 10)
    [q] = Store(path).quarantined()
    assert "does not host the game 'go'" in q.reason
    con.execute("UPDATE rooms SET row = ? WHERE code = ?", (row, code))  # the operator mends
    con.commit()
    assert Store(path).release_quarantined(code) and not Store(path).release_quarantined(code)
    server3 = restart(server2, path, T0 + 200, T0 + 110)
    assert code in server3.hub.lobby.rooms
    ann3 = resume(server3, ann, T0 + 201)
    assert ann3.last(p.State).view["moves"] == [[7, 7]]


def test_a_room_deleted_by_the_operator_is_gone_and_its_players_are_kept_for_the_grace(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    ann, bob, code = gomoku(server)
    break_room(path, code)
    server2 = restart(server, path, T0 + 100, T0 + 10)
    assert server2.store is not None and server2.store.delete_quarantined(code)
    assert not server2.store.delete_quarantined(code)
    server2.execute(server2.hub.release(code, T0 + 101))
    assert not Store(path).quarantined() and code not in server2.hub.lobby.reserved
    resume(server2, ann, T0 + 102)  # no room-lost any more
    assert not [m for m in server2.hub.lost]
    server2.advance(T0 + 160)  # Bob, offline, had the grace from the deletion
    assert me(bob) in server2.hub.identities.by_id
    server2.advance(T0 + 162)
    assert me(bob) not in server2.hub.identities.by_id


def test_a_computer_refused_for_want_of_a_seat_leaves_the_options_alone(tmp_path: Path) -> None:
    """Found by the restart model: the refusal (not journalled) had already written
    ``ai`` into the room's options, which the lobby showed and a restart lost."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    ann, _bob, code = gomoku(server)
    ann.send("resign", T0 + 1)
    ann.send("host", T0 + 2, action="computer", level="easy")
    assert ann.errors()[-1].code == "room-full"
    assert "ai" not in server.hub.lobby.rooms[code].options
    assert "ai" not in server.hub.lobby.listing()[0]["options"]
    server2 = restart(server, path, T0 + 10, T0 + 3)
    assert server2.hub.lobby.rooms[code].options == server.hub.lobby.rooms[code].options


def test_a_password_answered_after_the_guesser_joined_another_room_admits_nobody(
    tmp_path: Path,
) -> None:
    """Found by the restart model: Bob's password for Ann's room is checked while he
    makes a room of his own; the answer finds him there and admits him nowhere. Each
    room replays on its own, so the journal says he was elsewhere."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), hold_work=True)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", password="sesame")
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code, password="sesame")
    bob.send("create-room", game="minesweeper", options={"preset": "beginner"})
    server.finish_work()
    assert bob.last(p.Error).code == "already-in-room"
    room = server.hub.lobby.rooms[code]
    assert [s.id for s in room.seated] == [me(ann)] and room.status == "waiting"
    server2 = restart(server, path, T0 + 10, T0 + 1)
    again = server2.hub.lobby.rooms[code]
    assert [s.id for s in again.seated] == [me(ann)] and again.status == "waiting"


def test_a_restart_says_once_what_it_restored_without_old_host_actions(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Item 4: no ``host Ann: lock`` or ``kick`` again, no game start again: one line
    per room saying what came back, and one in total."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    ann, _bob, code = gomoku(server)
    cy = connect(server, "Cy", peer="10.0.0.3")
    cy.send("join-room", room=code, role="spectator")
    dee = connect(server, "Dee", peer="10.0.0.4")
    dee.send("join-room", room=code, role="spectator")
    ann.send("host", T0 + 1, action="lock")
    ann.send("host", T0 + 2, action="mute", player=me(cy), minutes=10)
    ann.send("host", T0 + 3, action="kick", player=me(dee), minutes=5)
    caplog.clear()
    with caplog.at_level("DEBUG", logger="gridhall"):
        restart(server, path, T0 + 100, T0 + 10)
    said = [r.getMessage() for r in caplog.records]
    assert not [m for m in said if "host Ann:" in m or "starts" in m or "did not come" in m]
    [line] = [m for m in said if m.startswith(f"room {code} restored:")]
    assert "seated Ann, Bob" in line and "1 spectators" in line and "host Ann" in line
    assert "locked" in line and "1 muted" in line and "1 kicked" in line
    assert "5 journal entries replayed" in line and "clocks skip 90 s" in line
    [total] = [m for m in said if m.startswith("restored ")]
    assert total.startswith("restored 1 rooms and 4 identities after 90 s down")
    assert len(said) == 2


def test_someone_in_the_lobby_at_the_restart_resumes_their_own_identity(tmp_path: Path) -> None:
    """Every identity comes back, not only room members: Cy, online in the lobby when
    the server stopped, is kept for the grace period from the restart, as a drop would."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), grace_seconds=60)
    cy = connect(server, "Cy")
    server2 = restart(server, path, T0 + 100, T0 + 10)
    assert resume(server2, cy, T0 + 101).last(p.Welcome).player == me(cy)
    server3 = restart(server2, path, T0 + 200, T0 + 110)
    server3.advance(T0 + 259)
    assert me(cy) in server3.hub.identities.by_id
    server3.advance(T0 + 261)  # (offline since the second restart: its grace ended)
    assert me(cy) not in server3.hub.identities.by_id
