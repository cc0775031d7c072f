"""The gridhall wire contract: typed messages, one codec, error codes. No I/O."""

from .analysis import Analyse, Analysis
from .codec import MAX_FRAME, MAX_SERVER_FRAME, decode, decode_map, encode, encode_map
from .errors import ErrorCode, ProtocolError
from .messages import *  # every message class, e.g. protocol.Hello
from .messages import CLIENT_MESSAGES, DEFAULT_PORT, PROTOCOL_VERSION, SERVER_MESSAGES
from .outcome import Outcome, Termination

__all__ = [
    "CLIENT_MESSAGES",
    "DEFAULT_PORT",
    "MAX_FRAME",
    "MAX_SERVER_FRAME",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "Termination",
    "ErrorCode",
    "Outcome",
    "ProtocolError",
    "decode",
    "decode_map",
    "encode",
    "encode_map",
    *(cls.__name__ for cls in (*CLIENT_MESSAGES.values(), *SERVER_MESSAGES.values())),
]
