"""A connection's conversation, driven without sockets: hello, limits, refusals."""

from __future__ import annotations

import pytest

from gridhall import protocol as p
from gridhall.server.core.hub import Hub
from tests.server.helpers import T0, Client, FakeServer, connect


def test_anything_before_hello_is_not_welcomed() -> None:
    client = Client(FakeServer())
    rid = client.send("list-rooms")
    [error] = client.errors()
    assert error.code == "not-welcomed" and error.re == rid


def test_hello_gives_a_stable_id_and_a_long_secret_token() -> None:
    client = Client(FakeServer())
    welcome = client.hello("Ann")
    assert welcome.player.startswith("p") and len(welcome.token) >= 32
    assert welcome.protocol == 1 and welcome.server == "gridhall"


def test_another_protocol_version_is_refused_and_closed() -> None:
    client = Client(FakeServer())
    client.send("hello", protocol=2, name="Ann")
    assert client.errors()[0].code == "version-mismatch"
    assert client.link.close_code == 1002


def test_a_second_hello_is_a_bad_message() -> None:
    client = connect(FakeServer(), "Ann")
    client.send("hello", protocol=1, name="Ann")
    assert client.errors()[-1].code == "bad-message"


def test_malformed_frames_get_errors_then_close_the_connection() -> None:
    server = FakeServer(max_bad_messages=3)
    client = connect(server, "Ann")
    for frame in (b"\xc1", p.encode_map({"no": "type"}), p.encode_map({"type": "nope"})):
        client.receive(frame)
    assert [e.code for e in client.errors()] == ["bad-message", "bad-message", "unknown-type"]
    assert client.link.close_code is None
    client.receive(b"\x00")  # one more than tolerated
    assert client.link.close_code == 1008


def test_every_frame_past_the_rate_limit_is_refused_with_its_id_and_the_wait() -> None:
    server = FakeServer(rate_per_second=1.0, rate_burst=2, max_rate_strikes=50)
    client = connect(server, "Ann")  # the hello took one token
    client.clear()
    ids = [client.send("list-rooms") for _ in range(4)]
    kinds = [type(m).__name__ for m in client.received()]
    assert kinds == ["Rooms", "Error", "Error", "Error"]
    errors = client.errors()
    assert [e.re for e in errors] == ids[1:]
    assert all(
        e.code == "rate-limited" and e.retry_after is not None and 0 < e.retry_after <= 1.0
        for e in errors
    )
    client.send("list-rooms", T0 + errors[-1].retry_after)  # waiting as told works
    assert isinstance(client.received()[-1], p.Rooms)


def test_a_flood_past_the_strikes_closes_with_1008() -> None:
    server = FakeServer(rate_per_second=1.0, rate_burst=2, max_rate_strikes=5)
    client = connect(server, "Ann")
    client.clear()
    for _ in range(7):  # one accepted, five refused, the sixth refusal closes
        client.send("list-rooms")
    assert len(client.errors()) == 5
    assert client.link.close_code == 1008 and client.link.close_reason == "message flood"


def test_rate_strikes_are_forgotten_after_the_window() -> None:
    server = FakeServer(rate_per_second=1.0, rate_burst=1, max_rate_strikes=3, strike_window=10.0)
    client = connect(server, "Ann")
    for second in (0, 20, 40):  # three strikes each time, far apart: never a flood
        for _ in range(3):
            client.send("list-rooms", T0 + second)
    assert client.link.close_code is None


def test_chat_flood_is_refused_with_the_wait() -> None:
    server = FakeServer(chat_lines=2, chat_window=10.0)
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")
    client.clear()
    for n in range(3):
        client.send("chat", T0 + n, text=f"line {n}")
    chats = [m for m in client.received() if isinstance(m, p.ChatEvent)]
    assert [c.text for c in chats] == ["line 0", "line 1"]
    [error] = client.errors()
    assert error.code == "rate-limited" and "8 s" in error.message


def test_a_server_fault_is_an_internal_error_echoing_the_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    client = connect(FakeServer(), "Ann")

    def broken(*args: object) -> None:
        raise RuntimeError("bug")

    monkeypatch.setattr(Hub, "_list_rooms", broken)
    client.session.hub._handlers[p.ListRooms] = broken  # type: ignore[assignment]
    rid = client.send("list-rooms")
    [error] = client.errors()
    assert error.code == "internal-error" and error.re == rid
    client.send("create-room", game="gomoku")  # the connection still works
    assert client.last(p.Joined).role == "player"


def test_resuming_a_token_replaces_the_older_connection() -> None:
    server = FakeServer()
    first = connect(server, "Ann")
    token, player = first.last(p.Welcome).token, first.last(p.Welcome).player
    second = Client(server)
    welcome = second.hello("Ann", token)
    assert welcome.player == player and welcome.token == token
    assert first.link.close_code == 4000
    assert first.session.closed(T0) == []  # the replaced connection's end changes nothing
    assert server.hub.identities.by_id[player].connected


def test_an_unknown_token_gives_a_new_identity() -> None:
    server = FakeServer()
    client = Client(server)
    welcome = client.hello("Ann", "not-a-token-anyone-was-given")
    assert welcome.token != "not-a-token-anyone-was-given"


def test_room_messages_outside_a_room_are_not_in_room() -> None:
    client = connect(FakeServer(), "Ann")
    for type_, fields in (
        ("move", {"move": {"x": 1, "y": 1}}),
        ("chat", {"text": "hi"}),
        ("sync", {}),
        ("leave-room", {}),
        ("resign", {}),
    ):
        rid = client.send(type_, **fields)
        assert client.errors()[-1].code == "not-in-room" and client.errors()[-1].re == rid


def test_a_lobby_identity_is_forgotten_after_the_grace_period() -> None:
    server = FakeServer(grace_seconds=30)
    client = connect(server, "Ann")
    player = client.last(p.Welcome).player
    client.drop(T0 + 1)
    assert server.wakes == {"@" + player: T0 + 31}
    server.advance(T0 + 30)
    assert player in server.hub.identities.by_id
    server.advance(T0 + 31)
    assert player not in server.hub.identities.by_id and not server.wakes


def test_whole_room_snapshots_have_their_own_slower_limit() -> None:
    server = FakeServer(snapshots_per_second=1.0, snapshot_burst=2)
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")  # one snapshot
    client.send("sync")  # two
    client.send("leave-room")
    client.clear()
    rid = client.send("create-room", game="minesweeper")
    [error] = client.errors()
    assert error.code == "rate-limited" and error.re == rid
    assert error.retry_after is not None and 0 < error.retry_after <= 1.0
    client.send("list-rooms")
    assert isinstance(client.received()[-1], p.Rooms)  # other requests go on
    client.send("create-room", T0 + 1.0, game="minesweeper")
    assert isinstance(client.received()[-1], p.State)


def test_asking_again_and_again_for_snapshots_closes_as_a_flood() -> None:
    server = FakeServer(snapshots_per_second=0.1, snapshot_burst=1, max_rate_strikes=3)
    client = connect(server, "Ann")
    client.send("create-room", game="minesweeper")
    client.send("leave-room")
    for _ in range(4):  # told to wait each time; the fourth refusal is one too many
        client.send("create-room", game="minesweeper")
    assert len(client.errors()) == 3
    assert (client.link.close_code, client.link.close_reason) == (1008, "message flood")
