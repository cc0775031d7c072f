"""Screens that ask the server a question (a history page, a replay, a leaderboard)
and wait for the answer that echoes their request's ``id``."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from gridhall.client.history import ANSWERS, REQUESTS
from gridhall.client.messages import Event, Refused
from gridhall.protocol.schema import to_map

Message = dict[str, Any]


class AskingScreen(Screen[None]):
    """A screen whose requests are answered by messages of :data:`ANSWERS`; the app
    hands each such answer (and each refusal of one of :data:`REQUESTS`) to every
    asking screen on the stack, and each keeps what answers it."""

    @property
    def session(self) -> Any:
        return self.app.session  # type: ignore[attr-defined]

    async def ask(self, request: Message) -> int | None:
        """Send ``request``; its ``id`` (None if refused before leaving: offline, or a
        server without the feature)."""
        return await self.session.send(request)  # type: ignore[no-any-return]

    def answer(self, kind: str, data: Message) -> None:
        """An answer arrived (``data`` is its wire map); subclasses keep theirs."""

    def refused(self, refusal: Refused) -> None:
        """One of our kinds of request was refused (the app shows the reason)."""


def deliver(screens: list[Screen[Any]], msg: Event) -> None:
    """Hand ``msg`` to the asking screens if it is an answer or refusal for them."""
    kind = getattr(msg, "TYPE", None)
    asking = [s for s in screens if isinstance(s, AskingScreen) and s.is_attached]
    if isinstance(kind, str) and kind in ANSWERS:
        data = to_map(msg)
        for screen in asking:
            screen.answer(kind, data)
    elif isinstance(msg, Refused) and msg.request in REQUESTS:
        for screen in asking:
            screen.refused(msg)
