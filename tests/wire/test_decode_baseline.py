"""Requests decoded by msgspec take and refuse exactly the frames the hand-made checks
did, with the same error replies: the old decoder (kept in bench/decode_baseline/) is
the oracle, on examples, hostile frames and random ones."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import decode_baseline as old
from bench.decode_baseline import old_schema
from gridhall import protocol as p
from gridhall.protocol import ProtocolError, codec, schema
from tests.wire.test_codec import CLIENT_EXAMPLES

KEYS = sorted(
    {slot.key for cls in p.CLIENT_MESSAGES.values() for slot in schema.plan(cls).slots}
    | {"later", "type"}
)
"""Every wire key a request has, and one none has."""
ODD = [
    "",
    " ",
    "  Ann ",
    "x" * 33,
    "x" * 501,
    "a\x07b",
    "Tk\x1b[31m",
    "\u00a0pad\u00a0",
    "draw",
    "player",
    "kick",
    "easy",
    "gomoku",
    "minesweeper",
    0,
    1,
    -1,
    2**31 - 1,
    2**31,
    2**53 + 1,
    1441,
    True,
    False,
    1.5,
    None,
    b"bytes",
    [],
    [1, 2],
    {},
    {"x": 3, "y": 4},
    {"action": "link", "a": [1, 2], "b": [3, 4]},
    {"deep": [[[1]]]},
    {"kind": "tk", "platform": "Linux", "later": {"n": 1}},
    {b"bin": 1},
    {"at": msgpack.Timestamp(1, 0)},
    {"at": msgpack.ExtType(3, b"x")},
    msgpack.Timestamp(1, 0),
]


def _outcome(decode: Any, to_map: Any, frame: bytes | str) -> tuple[Any, ...]:
    try:
        msg = decode(frame)
    except ProtocolError as exc:
        return ("refused", exc.code, exc.message, exc.request_id)
    return ("taken", msg.TYPE, to_map(msg))


def _same(frame: bytes | str) -> None:
    new = _outcome(p.decode, schema.to_map, frame)
    assert new == _outcome(old.decode, old_schema.to_map, frame), frame


def _frame(fields: dict[Any, Any]) -> bytes:
    data: bytes = msgpack.packb(fields, use_bin_type=True, strict_types=False)
    return data


def test_the_baseline_knows_every_request() -> None:
    assert set(old.REQUESTS) == set(p.CLIENT_MESSAGES)


@pytest.mark.parametrize(
    "frame",
    [
        "a text frame",
        b"",
        b"\xc1",
        b"\x91" * 2000 + b"\x00",
        _frame({"type": "move", "move": {"x": [[[[[[1]]]]]]}, "id": 3}),
        _frame({"type": "hello", "protocol": 1, "name": "Ann", "later": {1: 2}, "id": 4}),
        _frame({"type": "chat", "text": "hi", "later": msgpack.ExtType(1, b"x"), "id": 5}),
        _frame({"type": "chat", "text": "hi"}) + b"\x00",
        bytes([0x82]) + _frame("type")[0:] + _frame("chat") + _frame("type") + _frame("move"),
        _frame({"type": "teleport", "id": 9}),
        _frame({"type": "hello", "protocol": "1", "name": "   ", "id": 6}),
        _frame({"type": "hello", "name": "   ", "token": 5}),
        _frame({"type": "list-games", "limit": 0, "before": 0}),
        _frame({"type": "get-replay", "game_id": 1, "from": -1}),
    ],
)
def test_odd_frames_are_answered_as_before(frame: bytes | str) -> None:
    _same(frame)


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(sorted(p.CLIENT_MESSAGES)),
    st.dictionaries(st.sampled_from(KEYS), st.sampled_from(ODD), max_size=6),
)
def test_requests_with_odd_field_values_are_answered_as_before(
    type_: str, fields: dict[str, Any]
) -> None:
    _same(_frame({"type": type_, **{k: v for k, v in fields.items() if k != "type"}}))


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=256))
def test_random_bytes_are_answered_as_before(data: bytes) -> None:
    _same(data)


def test_every_valid_request_takes_the_fast_way() -> None:
    """msgspec alone decodes and checks a well-formed request (what the benchmark
    measures); only refused frames and unknown keys go the slow way."""
    for type_, fields in CLIENT_EXAMPLES.items():
        frame = _frame({"type": type_, **fields})
        fast = codec._fast(frame)
        assert fast is not None, type_
        assert fast == p.decode(frame) and fast.TYPE == type_
    assert codec._fast(_frame({"type": "chat", "text": "hi", "later": 1})) is None
    assert codec._fast(_frame({"type": "chat", "text": " \x07 "})) is None
