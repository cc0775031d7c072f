"""The Textual message that carries one session message into the app."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class ServerEvent(Message):
    """A message from the server (or a local ``connection``/``offline`` notice),
    already folded into the session's room copy."""

    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__()
        self.msg = msg
