"""A room's one heavy job in flight: what waits on it, and its ticket.

A room asks for at most one job at a time (a hint, a board, a shuffle, a password
check); the job leaves as a :class:`~gridhall.server.core.effects.Work` effect with a
ticket, and its answer comes back as an input of its own with that ticket. A second
request that needs a job meanwhile is refused with ``server-busy`` and
:data:`BUSY_RETRY`; an answer with another ticket (the room moved on) is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gridhall.protocol import ErrorCode, ProtocolError

from ...games.base import JSON
from ...games.jobs import Job
from ..effects import Outbox, Work
from ..identity import Identity

Role = Literal["player", "spectator"]

BUSY_RETRY = 0.25
"""``retry_after`` (seconds) for a request refused because the room's job is out."""


@dataclass
class Pending:
    """The room's one job in flight, and what to do with its answer.

    ``kind``: ``move`` (apply ``move`` by ``ident`` with the answer), ``new-game``
    (start a game on the prepared board, made from ``seed``), ``join`` (admit
    ``ident`` as ``role`` if the password digest matches)."""

    kind: Literal["move", "new-game", "join"]
    what: str
    ident: Identity | None = None
    re: int | None = None
    move: JSON | None = None
    role: Role = "player"
    seed: int = 0
    exclusive: bool = False
    """No other move may be applied until the answer is in (``Job.exclusive``)."""
    job: Job | None = None
    """The job itself, to ask again after a restart (None while replaying a journal:
    the answer is in it)."""
    ticket: int = 0


class JobSlot:
    """The one place a room's job waits; see the module docstring."""

    def __init__(self, room: str, address: str) -> None:
        self.room = room
        self.address = address
        """Who a job counts against when nobody asked for it (the room's creator)."""
        self.pending: Pending | None = None
        self.tickets = 0
        """Tickets handed out so far (kept in snapshots: a replay hands out the same)."""
        self.start_queued = False
        """A new game waits for the job in flight to end first."""

    def busy(self, re: int | None = None) -> ProtocolError:
        """The refusal for a request that needs a job while the room's job is out."""
        what = self.pending.what if self.pending is not None else "something"
        return ProtocolError(
            ErrorCode.SERVER_BUSY,
            f"This room is still working out {what}; try again in a moment.",
            re,
            retry_after=BUSY_RETRY,
        )

    def launch(self, out: Outbox, job: Job | None, pending: Pending) -> None:
        """Make ``job`` the room's one job in flight, or refuse with ``server-busy``.
        (No ``job`` while a journal is replayed: its answer is the next entry.)"""
        if self.pending is not None:
            raise self.busy(pending.re)
        self.tickets += 1
        pending.ticket = self.tickets
        pending.job = job
        self.pending = pending
        if job is not None:
            out.add(Work(self.room, pending.ticket, job, self.charged(pending)))

    def charged(self, pending: Pending) -> str:
        """The address a job counts against: whoever asked, else the room's creator."""
        asker = pending.ident
        return asker.address if asker is not None and asker.address else self.address

    def answered(self, ticket: int) -> Pending | None:
        """The job ``ticket`` was answered: what waited on it (now no longer in
        flight), or None when the room moved on and the answer is stale."""
        pending = self.pending
        if pending is None or pending.ticket != ticket:
            return None
        self.pending = None
        return pending

    def resume(self, out: Outbox) -> None:
        """After a restart, ask again for the job that was out (its answer is the same:
        jobs are deterministic); a password check is dropped (the password is not
        kept), and the guesser simply is not in the room."""
        pending = self.pending
        if pending is None:
            return
        if pending.kind == "join" or pending.job is None:
            self.pending = None
            self.start_queued = False
            return
        out.add(Work(self.room, pending.ticket, pending.job, self.charged(pending)))

    def drop(self) -> None:
        """The room closed: nothing waits any more."""
        self.pending = None
