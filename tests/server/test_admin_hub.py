"""The operator's actions in the pure core: a closed room tells each member and is
dropped (a restart does not bring it back); a banned token is refused at hello and
its connection closed, before anything changes."""

from __future__ import annotations

from pathlib import Path

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.server.core.bans import Ban
from gridhall.server.core.effects import DropRoom, Log
from gridhall.server.core.identity import token_hash
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect


def test_closing_a_room_tells_every_member_and_drops_it(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    server = FakeServer(store=store)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku")
    room = ann.last(p.State).room
    bob.send("join-room", room=room, role="spectator")
    seq = server.hub.lobby.rooms[room].seq
    server.other.clear()
    server.execute(server.hub.close_room(room.lower(), "closing time", T0 + 1))
    for client in (ann, bob):
        closed, left = client.received()[-2:]
        assert closed == p.RoomClosed(room=room, seq=seq + 1, reason="closing time")
        assert left == p.Left(
            room=room,
            seq=seq + 1,
            player=client.session.identity.id,
            name=left.name,
            reason="closed",
        )
    assert [e for e in server.other if isinstance(e, DropRoom)] == [DropRoom(room)]
    assert not [e for e in server.other if isinstance(e, Log)]  # nothing left to replay
    assert room not in server.hub.lobby.rooms
    for client in (ann, bob):
        assert client.session.identity.room is None
    ann.send("create-room", game="gomoku")  # back in the lobby
    assert ann.last(p.State).room != room

    again = FakeServer(store=store)
    again.restore(T0 + 2, T0 + 1)
    assert room not in again.hub.lobby.rooms


def test_closing_a_room_that_is_not_there_changes_nothing() -> None:
    server = FakeServer()
    try:
        server.hub.close_room("NOROOM", "", T0)
    except ProtocolError as exc:
        assert exc.code is ErrorCode.NO_SUCH_ROOM
    else:
        raise AssertionError("no error for a room that does not exist")


def test_a_banned_token_is_refused_at_hello_and_closed() -> None:
    server = FakeServer()
    eve = connect(server, "Eve")
    token = eve.last(p.Welcome).token
    eve.drop()
    server.hub.bans.add(Ban(1, None, "p1", token_hash(token), "Eve", T0 + 600, "spam"))
    again = Client(server)
    again.send("hello", T0 + 60, protocol=1, name="Eve", token=token)
    [error] = again.errors()
    assert error.code == "banned" and error.retry_after == 540.0
    assert error.message.endswith(": spam") and "until" in error.message
    assert again.link.close_code == 1008 and again.session.identity is None
    other = connect(server, "Eve", T0 + 60)  # no token: someone new
    assert other.last(p.Welcome).player != eve.last(p.Welcome).player
    later = Client(server)
    assert later.hello("Eve", token, now=T0 + 601).token == token  # the ban has ended
