"""What a room's job answers finish: a new game's board, a password guess, a move's
heavy work (a hint, a layout, a shuffle). An answer may come after its asker left,
joined another room or the room moved on; each case is answered, never dropped.
A job with no answer (the pool too busy, or out of time) is a ``server-busy``
refusal to whoever waited on it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ...games.base import JSON
from ..effects import Outbox
from ..identity import Identity
from ..passwords import same_digest
from .jobs import Pending

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.room")


class Answers:
    """The room's job answers: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def tell(self, out: Outbox, ident: Identity | None, exc: ProtocolError, re: int | None) -> None:
        """A refusal that comes after a job, to the one who asked."""
        if ident is not None:
            out.send(
                [ident.id],
                p.Error(
                    code=exc.code.value, message=exc.message, re=re, retry_after=exc.retry_after
                ),
            )

    def work_done(self, out: Outbox, ticket: int, answer: JSON, now: float) -> None:
        """The answer to the room's job (``run_job``'s map): finish what waited on it."""
        room = self.room
        if room.closed:
            return
        pending = room.jobs.answered(ticket)
        if pending is None:
            return  # the room moved on (a new game replaced the old)
        if "value" in answer:
            self.finish(out, pending, answer["value"], now)
        else:
            self.failed(out, pending, str(answer.get("error")), now)
        if room.jobs.start_queued and room.jobs.pending is None:
            room.jobs.start_queued = False
            room.rounds.queued_start(out, now)

    def finish(self, out: Outbox, pending: Pending, value: Any, now: float) -> None:
        room = self.room
        ident = pending.ident
        if pending.kind == "new-game":
            room.rounds.create_game(out, now, pending.seed, value)
        elif pending.kind == "join":
            assert ident is not None
            self.password_checked(out, pending, ident, value, now)
        else:
            assert ident is not None and pending.move is not None
            if ident.room is not room:
                return  # left the room meanwhile
            try:
                room.driver.move(out, ident, pending.move, now, prepared=value)
            except ProtocolError as exc:
                self.tell(out, ident, exc, pending.re)

    def password_checked(
        self, out: Outbox, pending: Pending, ident: Identity, digest: Any, now: float
    ) -> None:
        """A password guess's digest: in if it matches, else ``wrong-password``."""
        room = self.room
        ok = room.password_hash is not None and same_digest(digest, room.password_hash)
        room.host.password_tried(room, ident, ok, now)  # counted even if they left
        if not ident.connected or ident.room is room:
            return  # gone, or already in (nothing to tell)
        if ident.room is not None:
            self.tell(
                out,
                ident,
                ProtocolError(ErrorCode.ALREADY_IN_ROOM, "You joined another room meanwhile."),
                pending.re,
            )
            return
        try:
            if not ok:
                raise ProtocolError(
                    ErrorCode.WRONG_PASSWORD, "That password is wrong for this private room."
                )
            room.seating.enter(out, ident, pending.role, now, pending.re)
        except ProtocolError as exc:
            self.tell(out, ident, exc, pending.re)

    def failed(self, out: Outbox, pending: Pending, error: str, now: float) -> None:
        """The job had no answer: the server was too busy, or it ran out of time."""
        room = self.room
        log.log(
            logging.DEBUG if error == "busy" else logging.WARNING,
            "room %s: job for %s failed (%s)",
            room.code,
            pending.what,
            error,
        )
        if error == "busy":
            exc = ProtocolError(
                ErrorCode.SERVER_BUSY,
                "The server is busy working for other rooms; try again in a moment.",
                retry_after=1.0,
            )
        else:
            exc = ProtocolError(
                ErrorCode.SERVER_BUSY,
                f"Working out {pending.what} took too long; try again, or choose a smaller board.",
                retry_after=1.0,
            )
        asker = pending.ident
        if pending.kind == "join" or (asker is not None and asker.room is room):
            self.tell(out, asker, exc, pending.re)  # (one who left was answered then)
        if pending.kind == "new-game" and room.game is None:
            for m in room.seated:
                if m is not pending.ident:
                    self.tell(out, m, exc, None)
