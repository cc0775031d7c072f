"""The gridhall wire contract: typed messages, one codec, error codes. No I/O."""

from .codec import MAX_FRAME, decode, decode_map, encode, encode_map
from .errors import ErrorCode, ProtocolError
from .messages import CLIENT_MESSAGES, PROTOCOL_VERSION, SERVER_MESSAGES
from .messages import *  # noqa: F403  (every message class)

__all__ = ["MAX_FRAME", "decode", "decode_map", "encode", "encode_map", "ErrorCode",
           "ProtocolError", "CLIENT_MESSAGES", "SERVER_MESSAGES", "PROTOCOL_VERSION"]
