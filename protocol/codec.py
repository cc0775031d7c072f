"""The one encode/decode pair: messages <-> MessagePack frames.

Decoding treats its input as hostile: sizes are bounded, map keys must be
strings, ext types are refused, and any failure becomes ProtocolError — never
another exception type.

A request takes the fast way first: msgspec decodes the frame straight into its
typed message (:class:`~.messages.ClientMessage`), checking every field in C. A frame
it refuses, or holds a key no request has, goes the slow way: msgpack with the limits
above, then :func:`.schema.from_map`, which names the first fault in the words the
protocol has always used. Both ways take and refuse the same frames.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import Any, Union

import msgpack
import msgspec

from . import schema
from .errors import ErrorCode, ProtocolError
from .messages import CLIENT_MESSAGES, MAX_ID, SERVER_MESSAGES, Sender

MAX_FRAME = 64 * 1024
"""The largest frame a server accepts (larger ones close the connection, 1009)."""

MAX_SERVER_FRAME = 8 * 2**20
"""The largest frame a client accepts: a 200x200 Minesweeper snapshot with a full chat
history is larger than 64 KiB."""


def _no_ext(code: int, data: bytes) -> Any:
    raise ValueError("ext types are not part of the protocol")


_local = threading.local()


def _encoder() -> msgspec.msgpack.Encoder:
    """This thread's encoder. msgspec's writes the same bytes as msgpack's packer for
    every type a message holds (maps, arrays, strings, bytes, integers, floats, bools,
    nil: the smallest form of each) at about a third of its cost, on the path of
    every event the server sends."""
    encoder: msgspec.msgpack.Encoder | None = getattr(_local, "encoder", None)
    if encoder is None:
        encoder = _local.encoder = msgspec.msgpack.Encoder()
    return encoder


def encode(msg: Any) -> bytes:
    """A message dataclass as one binary frame."""
    return _encoder().encode(schema.to_map(msg))


def encode_wire(data: dict[str, Any]) -> bytes:
    """A message's wire map (:func:`.schema.to_map`'s, perhaps changed) as a frame: a
    caller that sends one message in two forms maps it once."""
    return _encoder().encode(data)


def encode_map(data: dict[str, Any]) -> bytes:
    """A raw map as a frame (tests and tools that need to send odd frames)."""
    frame: bytes = msgpack.packb(data, use_bin_type=True)
    return frame


def decode_map(data: bytes | str, limit: int = MAX_FRAME) -> dict[str, Any]:
    """Bytes -> a map with a string ``type``; ProtocolError(bad-message) otherwise.

    ``limit`` bounds the frame and every string, array and map in it."""
    if isinstance(data, str):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            "Text frames are not accepted; send MessagePack in binary frames.",
        )
    if len(data) > limit:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, f"The frame is larger than {limit} bytes.")
    try:
        obj = _unpack(data, limit, strict_map_key=True)
    except Exception as exc:  # msgpack raises many types; all mean "not our format"
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"The frame is not valid MessagePack ({type(exc).__name__}).",
            _lenient_id(data, limit),
        ) from None
    if not isinstance(obj, dict):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "A frame must be a MessagePack map.")
    if not isinstance(obj.get("type"), str):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, "The map needs a string 'type'.", _request_id(obj)
        )
    return obj


def _unpack(data: bytes, limit: int, strict_map_key: bool) -> Any:
    """MessagePack within ``limit``; ``strict_map_key``: only string (or bytes) keys."""
    # max_ext_len=0 refuses every ext type, msgpack's own timestamp (-1) included,
    # before any hook runs (tests/wire/test_codec.py checks both)
    return msgpack.unpackb(
        data,
        raw=False,
        strict_map_key=strict_map_key,
        ext_hook=_no_ext,
        max_str_len=limit,
        max_bin_len=limit,
        max_array_len=limit,
        max_map_len=limit,
        max_ext_len=0,
    )


def _lenient_id(data: bytes, limit: int) -> int | None:
    """The ``id`` of a frame refused for keys that are not strings (a map inside it with
    an int key), so its refusal can still echo it as ``re``; None for anything else."""
    try:
        obj = _unpack(data, limit, strict_map_key=False)
    except Exception:
        return None
    return _request_id(obj) if isinstance(obj, dict) else None


def _request_id(obj: dict[str, Any]) -> int | None:
    rid = obj.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool) and 0 <= rid <= MAX_ID:
        return rid
    return None


@cache
def _requests(count: int) -> msgspec.msgpack.Decoder[Any]:
    """A decoder of every request registered (``count`` of them: one made again when a
    module registers more)."""
    return msgspec.msgpack.Decoder(Union[tuple(CLIENT_MESSAGES.values())])  # noqa: UP007


def _fast(data: bytes) -> Any:
    """The request ``data`` holds, decoded and checked by msgspec; None when anything
    about it is not plainly right (the slow way then says what)."""
    try:
        msg = _requests(len(CLIENT_MESSAGES)).decode(data)
    except Exception:  # malformed, refused, too deep: all for the slow way to word
        return None
    cls: type = type(msg)
    if schema.plan(cls).cleaned:
        try:
            return schema.cleaned(msg)
        except ProtocolError:
            return None
    return msg


def decode(data: bytes | str, sender: Sender = "client") -> Any:
    """A frame as the typed message it holds, as sent by ``sender``.

    Raises ProtocolError (``bad-message`` or ``unknown-type``) for anything else.
    """
    if sender == "client" and isinstance(data, bytes) and len(data) <= MAX_FRAME:
        msg = _fast(data)
        if msg is not None:
            return msg
    obj = decode_map(data, MAX_FRAME if sender == "client" else MAX_SERVER_FRAME)
    registry = CLIENT_MESSAGES if sender == "client" else SERVER_MESSAGES
    cls = registry.get(obj["type"])
    if cls is None:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"Unknown message type {obj['type'][:40]!r}.", _request_id(obj)
        )
    try:
        return schema.from_map(cls, obj)
    except ProtocolError as exc:
        exc.request_id = _request_id(obj)
        raise
