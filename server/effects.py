"""What the pure core (rooms, lobby, hub) asks the I/O layer around it to do.

The core never sends, writes or sleeps: each input returns a list of these
effects, in order, and ``server/app.py`` carries them out (sockets, SQLite,
timers, the worker processes). Tests read them directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .games.base import JSON
from .jobs import Job


@dataclass(frozen=True)
class Send:
    """Deliver one protocol message to each of ``to`` (player ids), in order."""

    to: tuple[str, ...]
    msg: Any


@dataclass(frozen=True)
class SaveChat:
    """Keep a chat line."""

    room: str
    player: str
    name: str
    text: str
    ts: float


@dataclass(frozen=True)
class SaveGame:
    """Keep a finished game: who played, the result and everything to replay it."""

    room: str
    game: str
    options: JSON
    players: list[JSON]
    result: JSON
    record: JSON
    started_at: float
    ended_at: float


@dataclass(frozen=True)
class Think:
    """Ask a computer player for its move in a worker process.

    ``request`` is the game's picklable description of the position; the answer
    goes back to the hub with the same request, so a position that changed
    meanwhile (a take-back) is recognised and thought about again."""

    room: str
    bot: str
    game: str
    level: str
    request: JSON = field(default_factory=dict)


@dataclass(frozen=True)
class Work:
    """Run a heavy :class:`~gridhall.server.jobs.Job` for room ``room`` in a worker.

    The answer (``run_job``'s plain map) goes back through the hub's
    ``work_done(room, ticket, answer, now)``; ``ticket`` tells the room which of
    its requests it answers. A room has at most one job out at a time."""

    room: str
    ticket: int
    job: Job


@dataclass(frozen=True)
class Wake:
    """Call the hub's ``wake(key, now)`` at ``at`` (unix time); None cancels.

    Keys are room codes (game clocks, countdowns, reconnect grace) or
    ``@<player id>`` (forgetting an identity nobody resumed)."""

    key: str
    at: float | None


Effect = Send | SaveChat | SaveGame | Think | Work | Wake


class Outbox:
    """Collects effects in order; the return value of every core input."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def send(self, to: list[str] | tuple[str, ...], msg: Any) -> None:
        if to:
            self.effects.append(Send(tuple(to), msg))

    def add(self, effect: Effect) -> None:
        self.effects.append(effect)

    def sent(self) -> list[Send]:
        """The sends so far (for tests and the lobby)."""
        return [e for e in self.effects if isinstance(e, Send)]
