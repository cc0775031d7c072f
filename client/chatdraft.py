"""A chat line stays in its input until the server accepts it.

Pressing enter sends the line but leaves it where it was typed: a line the server
refuses (rate-limited, too long, offline...) is not lost, and can be sent again. The
server relays every accepted line to its sender too, so our own line coming back is
the acceptance: the input is cleared then, unless the player has typed on since.
"""

from __future__ import annotations

MAX_CHAT = 500
"""The protocol's limit on a chat line, in characters."""


class ChatDraft:
    """What was sent from one chat input and is waiting for the server's word."""

    def __init__(self) -> None:
        self.sent: str | None = None

    def send(self, typed: str) -> str | None:
        """The line to send for what the input holds (None: nothing to send)."""
        text = typed.strip()[:MAX_CHAT]
        self.sent = text or None
        return self.sent

    def accepted(self, typed: str) -> bool:
        """Our own line came back: should the input (holding ``typed``) be cleared?"""
        sent, self.sent = self.sent, None
        return sent is not None and typed.strip()[:MAX_CHAT] == sent
