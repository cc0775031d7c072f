"""Answers to the Tk windows' queries (history, replays, ratings): each goes to the
window that asked, matched by the request's id, which the answer echoes as ``re``.

An answer may reach the Tk thread before the note that its request went out (both
come through the bridge's queue, but the id is only known once sent), so a few
unclaimed answers are kept for a moment. A refusal names only the request's type:
it goes to the oldest query of that type still waiting.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Message = dict[str, Any]
OnAnswer = Callable[[Message | None], None]
"""Called with the answer's wire map, or None when the query was refused or not sent."""
Ask = Callable[[Message, Callable[[int | None], None]], None]
EARLY_KEEP = 16


@dataclass
class _Waiting:
    kind: str
    then: OnAnswer


class Answers:
    """Sends queries through ``ask`` (:meth:`Bridge.ask`) and routes their answers."""

    def __init__(self, ask: Ask) -> None:
        self._ask = ask
        self._waiting: dict[int, _Waiting] = {}
        self._early: deque[Message] = deque(maxlen=EARLY_KEEP)
        self.pushed: list[Callable[[Message], None]] = []
        """Listeners for answers nobody asked for (a finished analysis the server pushes)."""

    def ask(
        self, request: Message, then: OnAnswer, sent: Callable[[int | None], None] | None = None
    ) -> None:
        """Send ``request``; ``then`` gets its answer (or None if it fails)."""

        def went(req: int | None) -> None:
            if sent is not None:
                sent(req)
            if req is None:
                then(None)
                return
            early = next((a for a in self._early if a.get("re") == req), None)
            if early is not None:
                self._early.remove(early)
                then(early)
            else:
                self._waiting[req] = _Waiting(str(request.get("type")), then)

        self._ask(request, went)

    def take(self, answer: Message) -> None:
        """An answer arrived (on the Tk thread)."""
        re = answer.get("re")
        if isinstance(re, int) and re in self._waiting:
            self._waiting.pop(re).then(answer)
        elif isinstance(re, int):
            self._early.append(answer)
        else:
            for listener in list(self.pushed):
                listener(answer)

    def refused(self, kind: str | None) -> bool:
        """The server refused a request of type ``kind``: fail the oldest such query.
        True if one was waiting."""
        for req, waiting in self._waiting.items():
            if waiting.kind == kind:
                del self._waiting[req]
                waiting.then(None)
                return True
        return False

    def forget(self) -> None:
        """The connection dropped: no answer will come to what was asked."""
        waiting, self._waiting = list(self._waiting.values()), {}
        self._early.clear()
        for w in waiting:
            w.then(None)
