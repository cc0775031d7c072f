"""The Textual message that carries one session message into the app."""

from __future__ import annotations

from textual.message import Message

from gridhall.client.messages import Event


class ServerEvent(Message):
    """A typed message from the server (or a local :class:`Connection` /
    :class:`Refused`), already folded into the session's room copy."""

    def __init__(self, msg: Event) -> None:
        super().__init__()
        self.msg = msg
