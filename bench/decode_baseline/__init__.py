"""The request decoding before msgspec (issue 38 item 5), kept for comparison only:
``decode`` is the old ``codec.decode`` of a client's frame, msgpack then the hand-made
``old_schema.from_map``."""

from __future__ import annotations

from typing import Any

from gridhall.protocol.codec import MAX_FRAME, _request_id, decode_map
from gridhall.protocol.errors import ErrorCode, ProtocolError

from . import old_schema
from .old_requests import REQUESTS


def decode(data: bytes | str) -> Any:
    """A client's frame as the old dataclass it held; ProtocolError as before."""
    obj = decode_map(data, MAX_FRAME)
    cls = REQUESTS.get(obj["type"])
    if cls is None:
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE, f"Unknown message type {obj['type'][:40]!r}.", _request_id(obj)
        )
    try:
        return old_schema.from_map(cls, obj)
    except ProtocolError as exc:
        exc.request_id = _request_id(obj)
        raise
