"""The codec: every message round-trips; hostile bytes give ProtocolError, nothing else."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.schema import evolve

CLIENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "hello": {
        "protocol": 1,
        "name": "Ann",
        "token": "t" * 32,
        "device": {"kind": "tk", "platform": "Linux"},
        "id": 1,
    },
    "list-rooms": {"id": 2},
    "create-room": {"game": "gomoku", "options": {"size": 19}, "private": True, "password": "pw"},
    "join-room": {"room": "ABC234", "role": "spectator", "password": "pw"},
    "leave-room": {},
    "sync": {"id": 7},
    "player-info": {"name": "Bea", "color": "red"},
    "move": {"move": {"x": 3, "y": 4}},
    "chat": {"text": "hello there"},
    "resign": {},
    "play-again": {},
    "agree-again": {},
    "decline-again": {},
    "offer": {"kind": "takeback"},
    "answer": {"kind": "draw", "accept": False},
    "start": {},
    "host": {"action": "kick", "player": "p2", "minutes": 30, "id": 9},
    "list-games": {
        "game": "gomoku",
        "player": "p1",
        "name": "Ann",
        "before": 40,
        "limit": 10,
        "id": 10,
    },
    "get-replay": {"game_id": 42, "from": 2000, "id": 11},
    "leaderboard": {"game": "gomoku", "around": "p1", "offset": 20, "limit": 50, "id": 12},
    "get-profile": {"player": "p1", "id": 13},
    "records": {"game": "minesweeper", "id": 14},
    "analyse": {"game_id": 42, "id": 12},
    "link-code": {"id": 15},
    "list-devices": {"id": 16},
    "sign-out-device": {"device": "3f2a9c0d1e4b5a67", "id": 17},
}

SERVER_EXAMPLES: dict[str, dict[str, Any]] = {
    "welcome": {
        "protocol": 1,
        "player": "p1",
        "token": "secret",
        "server": "hall",
        "re": 1,
        "features": ["history"],
    },
    "error": {
        "code": "bad-message",
        "message": "Field 'x' must be an integer.",
        "re": 3,
        "retry_after": 0.25,
    },
    "rooms": {
        "rooms": [
            {
                "room": "ABC234",
                "game": "gomoku",
                "options": {},
                "players": ["a"],
                "spectators": 0,
                "status": "waiting",
                "private": False,
            }
        ]
    },
    "joined": {
        "room": "ABC234",
        "seq": 1,
        "role": "player",
        "seat": 0,
        "player": "p1",
        "name": "Ann",
        "re": 4,
    },
    "left": {"room": "ABC234", "seq": 9, "player": "p1", "reason": "kicked", "until": 1700000600.0},
    "state": {
        "room": "ABC234",
        "seq": 3,
        "game": "gomoku",
        "options": {"size": 15},
        "status": "playing",
        "players": [],
        "spectators": ["Cy"],
        "view": {"moves": []},
        "chat": [],
        "turn": "p1",
        "creator": "p1",
        "round": 2,
        "private": False,
        "host": "p1",
        "locked": True,
        "muted": ["p2"],
    },
    "moved": {
        "room": "ABC234",
        "seq": 4,
        "by": "p1",
        "move": {"x": 1, "y": 1},
        "view": {"moves": [[1, 1]]},
    },
    "game-over": {
        "room": "ABC234",
        "seq": 5,
        "result": {"winner": "p1", "reason": "five"},
        "ratings": {"p1": {"before": 1000, "after": 1093}},
    },
    "player-info": {
        "room": "ABC234",
        "seq": 6,
        "player": "p1",
        "name": "Ann",
        "color": "red",
        "connected": False,
    },
    "chat": {
        "room": "ABC234",
        "seq": 7,
        "from": "p1",
        "name": "Ann",
        "text": "hi",
        "ts": 1700000000.5,
    },
    "play-again": {"room": "ABC234", "seq": 8, "from": "p1"},
    "agree-again": {"room": "ABC234", "seq": 8, "from": "p2"},
    "decline-again": {"room": "ABC234", "seq": 8, "from": "p2"},
    "resigned": {"room": "ABC234", "seq": 8, "player": "p2"},
    "offer": {"room": "ABC234", "seq": 8, "from": "p2", "kind": "draw"},
    "answer": {"room": "ABC234", "seq": 8, "from": "p1", "kind": "draw", "accept": True},
    "notice": {"room": "ABC234", "seq": 8, "event": "shuffled", "data": {"player": "p1"}},
    "profile": {"player": "p1", "name": "Ann", "color": "teal", "re": 3},
    "host": {
        "room": "ABC234",
        "seq": 10,
        "action": "mute",
        "by": "p1",
        "player": "p2",
        "name": "Bea",
        "minutes": 5,
        "until": 1700000300.0,
    },
    "announce": {"text": "The server restarts at noon.", "ts": 1700000000.5},
    "room-closed": {"room": "ABC234", "seq": 10, "reason": "closing time"},
    "games": {
        "games": [{"game_id": 41, "game": "gomoku", "moves": 9, "rated": False}],
        "next": None,
        "re": 10,
    },
    "replay": {
        "game_id": 42,
        "game": "gomoku",
        "options": {"size": 15},
        "players": [{"player": "p1", "name": "Ann", "seat": 0}],
        "result": {"winner": "p1", "reason": "five"},
        "started_at": 1700000000.5,
        "ended_at": 1700000100.5,
        "rated": False,
        "start": {"moves": []},
        "steps": [
            {
                "t": 1.5,
                "by": "p1",
                "view": {"next": "white"},
                "delta": {"moves": {"at": 0, "append": [[7, 7]]}},
            }
        ],
        "total": 1,
        "first": 0,
        "next": None,
        "source": "import",
        "re": 11,
    },
    "leaderboard": {
        "game": "gomoku",
        "rows": [
            {
                "rank": 1,
                "player": "p1",
                "name": "Ann",
                "rating": 1093,
                "games": 1,
                "provisional": True,
            }
        ],
        "total": 3,
        "offset": 0,
        "re": 12,
    },
    "player-profile": {
        "player": "p1",
        "name": "Ann",
        "ratings": {
            "gomoku": {
                "rating": 1093,
                "games": 1,
                "wins": 1,
                "provisional": True,
                "history": [[1700000100.5, 1093, 42]],
            }
        },
        "recent": [],
        "records": {"minesweeper": []},
        "re": 13,
    },
    "records": {"game": "minesweeper", "records": [], "re": 14},
    "analysis": {
        "game_id": 42,
        "status": "done",
        "engine": "hard",
        "budget": 0.5,
        "moves": [
            {"n": 1, "eval": 12, "best": [7, 7]},
            {"n": 2, "eval": 1000, "best": [9, 7], "mark": "missed-vcf"},
        ],
        "re": 12,
    },
    "link-code": {"code": "K7MQ-2D9X", "expires_at": 1700000600.0, "re": 15},
    "devices": {
        "devices": [
            {
                "device": "3f2a9c0d1e4b5a67",
                "name": "Tk · Linux",
                "kind": "tk",
                "platform": "Linux",
                "created_at": 1700000000.0,
                "last_seen": 1700000600.0,
                "current": True,
            }
        ],
        "re": 16,
    },
}


def test_examples_cover_every_message_type() -> None:
    assert set(CLIENT_EXAMPLES) == set(p.CLIENT_MESSAGES)
    assert set(SERVER_EXAMPLES) == set(p.SERVER_MESSAGES)


@pytest.mark.parametrize(
    "sender,examples", [("client", CLIENT_EXAMPLES), ("server", SERVER_EXAMPLES)]
)
def test_every_message_round_trips(sender: Any, examples: dict[str, dict[str, Any]]) -> None:
    for type_, fields in examples.items():
        frame = p.encode_map({"type": type_, **fields})
        msg = p.decode(frame, sender)
        assert msg.TYPE == type_
        again = p.decode(p.encode(msg), sender)
        assert again == msg
        wire = msgpack.unpackb(p.encode(msg), raw=False)
        assert wire == {"type": type_, **fields}, type_


def test_a_role_passed_on_by_the_server_says_by_null_and_a_hostless_state_says_so() -> None:
    """``host.by`` and ``state.host`` are sent as null, never left out (added fields)."""
    event = p.HostEvent(room="ABC234", seq=3, action="hand-over", by=None, player="p2")
    assert msgpack.unpackb(p.encode(event), raw=False)["by"] is None
    state = p.decode(p.encode_map({"type": "state", **SERVER_EXAMPLES["state"]}), "server")
    wire = msgpack.unpackb(p.encode(evolve(state, host=None)), raw=False)
    assert wire["host"] is None and wire["locked"] is True and wire["muted"] == ["p2"]


@pytest.mark.parametrize(
    "fields",
    [
        {"action": "ban"},
        {"action": "kick", "minutes": 0},
        {"action": "mute", "minutes": 1441},
        {"action": "computer", "level": "medium"},
        {"action": "kick", "player": ""},
    ],
)
def test_a_host_request_out_of_bounds_is_a_bad_message(fields: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as err:
        p.decode(p.encode_map({"type": "host", **fields, "id": 4}))
    assert err.value.code == ErrorCode.BAD_MESSAGE and err.value.request_id == 4


def test_name_is_trimmed_and_unknown_keys_ignored() -> None:
    msg = p.decode(
        p.encode_map({"type": "hello", "protocol": 1, "name": "  Ann ", "future": [1, 2]})
    )
    assert msg.name == "Ann"


def _code(frame: bytes | str) -> ErrorCode:
    with pytest.raises(ProtocolError) as info:
        p.decode(frame)
    return info.value.code


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "hello", "protocol": 1, "name": ""},
        {"type": "hello", "protocol": 1, "name": "x" * 33},
        {"type": "hello", "protocol": 1, "name": "   "},
        {"type": "hello", "protocol": 1, "name": "bad\x07bell"},
        {"type": "hello", "protocol": "1", "name": "Ann"},
        {"type": "hello", "protocol": True, "name": "Ann"},
        {"type": "hello", "name": "Ann"},
        {"type": "hello", "protocol": 1, "name": "Ann", "device": ["tk", "Linux"]},
        {"type": "hello", "protocol": 1, "name": "Ann", "device": 7},
        {"type": "hello", "protocol": 1, "name": "Ann", "device": "Tk\x1b[31m"},
        {"type": "chat", "text": ""},
        {"type": "chat", "text": "x" * 501},
        {"type": "chat", "text": "hi", "id": -1},
        {"type": "chat", "text": "hi", "id": 1.5},
        {"type": "chat", "text": "hi", "id": 2**31},
        {"type": "move", "move": [1, 2]},
        {"type": "join-room", "room": "ABC", "role": "king"},
        {"type": "answer", "kind": "draw", "accept": 1},
        {"type": "create-room", "game": ""},  # unknown names: the lobby (tests/server)
        {"type": 5},
        {"notype": "hello"},
    ],
)
def test_malformed_fields_are_bad_message(fields: dict[str, Any]) -> None:
    assert _code(p.encode_map(fields)) == ErrorCode.BAD_MESSAGE


def test_hello_device_is_a_map_or_an_older_clients_string() -> None:
    hello = {"type": "hello", "protocol": 1, "name": "Ann"}
    about = {"kind": "tk", "platform": "Linux", "later": 1}
    assert p.decode(p.encode_map({**hello, "device": about})).device == about
    assert p.decode(p.encode_map({**hello, "device": " Tk · Linux "})).device == "Tk · Linux"
    with pytest.raises(ProtocolError, match="must be a string or a map"):
        p.decode(p.encode_map({**hello, "device": 7}))


def test_chat_of_500_characters_is_accepted() -> None:
    assert p.decode(p.encode_map({"type": "chat", "text": "x" * 500})).text == "x" * 500


def test_unknown_type_has_its_own_code_and_keeps_the_request_id() -> None:
    with pytest.raises(ProtocolError) as info:
        p.decode(p.encode_map({"type": "teleport", "id": 9}))
    assert info.value.code == ErrorCode.UNKNOWN_TYPE
    assert info.value.request_id == 9


@pytest.mark.parametrize(
    "frame",
    [
        "a text frame",
        b"",
        b"\xc1",
        msgpack.packb([1, 2, 3]),
        msgpack.packb("hello"),
        msgpack.packb({1: "int key"}),
        msgpack.packb({"type": "hello"}) + b"\x00",
        msgpack.packb({"type": msgpack.ExtType(1, b"x")}),
        b"\x91" * 100_000,
        msgpack.packb({"type": "move", "move": {"x": msgpack.Timestamp(1, 0)}}),
        msgpack.packb({"type": "move", "move": {"x": [msgpack.Timestamp(1, 0)]}}),
    ],
)
def test_hostile_frames_are_bad_message(frame: bytes | str) -> None:
    assert _code(frame) == ErrorCode.BAD_MESSAGE


def _decode_is_total(data: bytes) -> None:
    """The property: a valid message, or ProtocolError — never anything else."""
    for sender in ("client", "server"):
        try:
            msg = p.decode(data, sender)  # type: ignore[arg-type]
        except ProtocolError as exc:
            assert exc.code in (ErrorCode.BAD_MESSAGE, ErrorCode.UNKNOWN_TYPE)
        else:
            again = p.decode(p.encode(msg), sender)  # type: ignore[arg-type]
            assert p.encode(again) == p.encode(msg)  # as frames: NaN != NaN as a value


@settings(max_examples=1000, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=512))
def test_random_bytes_decode_or_raise_protocol_error(data: bytes) -> None:
    _decode_is_total(data)


VALID_FRAMES = [
    p.encode_map({"type": t, **f}) for t, f in {**CLIENT_EXAMPLES, **SERVER_EXAMPLES}.items()
]


@st.composite
def mutated_frames(draw: st.DrawFn) -> bytes:
    frame = bytearray(draw(st.sampled_from(VALID_FRAMES)))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "set", "insert", "delete", "truncate"]))
        pos = draw(st.integers(0, max(0, len(frame) - 1)))
        if op == "flip" and frame:
            frame[pos] ^= 1 << draw(st.integers(0, 7))
        elif op == "set" and frame:
            frame[pos] = draw(st.integers(0, 255))
        elif op == "insert":
            frame[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete" and frame:
            del frame[pos]
        elif op == "truncate":
            del frame[pos:]
    return bytes(frame)


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_frames())
def test_mutated_valid_frames_decode_or_raise_protocol_error(data: bytes) -> None:
    _decode_is_total(data)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**64 - 1)
    | st.floats()
    | st.text(max_size=40)
    | st.binary(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=20,
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(set(p.CLIENT_MESSAGES) | set(p.SERVER_MESSAGES))),
    st.dictionaries(
        st.sampled_from(
            [
                "protocol",
                "name",
                "token",
                "id",
                "game",
                "options",
                "room",
                "role",
                "text",
                "move",
                "kind",
                "accept",
                "seq",
                "from",
                "player",
                "view",
                "result",
                "re",
            ]
        ),
        json_values,
        max_size=6,
    ),
)
def test_messages_with_random_field_values_decode_or_raise(
    type_: str, fields: dict[str, Any]
) -> None:
    _decode_is_total(msgpack.packb({"type": type_, **fields}, use_bin_type=True))


def test_evolve_copies_a_message_with_fields_changed_and_leaves_the_original() -> None:
    moved = p.Moved(room="ABCD", seq=3, by="p1", move={"x": 1, "y": 2}, view={"a": 1}, turn="p2")
    changed = evolve(moved, view={"b": 2}, delta={"moves": {}})
    assert type(changed) is p.Moved and changed is not moved
    assert (changed.view, changed.delta, changed.seq, changed.turn) == (
        {"b": 2},
        {"moves": {}},
        3,
        "p2",
    )
    assert moved.view == {"a": 1} and moved.delta is None
    assert p.decode(p.encode(changed), "server") == changed
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.seq = 4  # type: ignore[misc]
