"""Who is in a room: seats and spectators, arriving, leaving, dropping and coming back.

A player keeps its seat for the reconnect grace when its connection drops (a
spectator's drop is a departure); one who leaves a game in progress forfeits it. A
private room checks a password with a job before anyone is let in. When nobody is
left who could come back, the room closes.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError, Termination
from gridhall.protocol.schema import evolve

from ..effects import Outbox
from ..identity import Identity
from ..names import unique_name
from ..passwords import password_job
from . import host_actions
from .jobs import Pending, Role
from .lifecycle import Step

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.room")


class Seating:
    """The room's members: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    # -- arriving -------------------------------------------------------------------
    def join(
        self,
        out: Outbox,
        ident: Identity,
        role: Role,
        password: str | None,
        now: float,
        re: int | None,
        verified: bool = False,
    ) -> None:
        """Seat or admit ``ident``; raises ProtocolError to refuse (changing nothing).
        A password is checked by a job: the answer comes later (:meth:`Room.work_done`).
        ``verified``: a journal replay, whose answer comes from the journal too."""
        room = self.room
        if room.protected:
            if password is None and not verified:
                raise ProtocolError(
                    ErrorCode.WRONG_PASSWORD, "This room is private; send its password.", re
                )
            job = None if password is None else password_job(password, room.salt)
            room.jobs.launch(out, job, Pending("join", "a password", ident, re, role=role))
            return
        self.enter(out, ident, role, now, re)

    def enter(self, out: Outbox, ident: Identity, role: Role, now: float, re: int | None) -> None:
        """Seat or admit ``ident`` once any password is settled."""
        room = self.room
        seat: int | None = None
        if role == "player":
            seat = self.free_seat()
            if seat is None:
                raise ProtocolError(
                    ErrorCode.ROOM_FULL, "Every seat is taken; join as a spectator to watch."
                )
            game = room.game
            if room.status == "playing" and game is not None:
                if game.add_player(ident.id, now):
                    pass
                elif room.spec.start == "full":
                    raise ProtocolError(
                        ErrorCode.ROOM_FULL, "The game is under way; join as a spectator to watch."
                    )
                else:
                    seat, role = None, "spectator"  # a race in progress: watch this one
        if role == "spectator":
            self.check_spectator_seat(re)
        self.admit(out, ident, role, seat, now, re)

    def check_spectator_seat(self, re: int | None = None) -> None:
        """Refuse (``room-full``) one more spectator past the room's cap."""
        room = self.room
        cap = room.max_spectators
        if cap is not None and len(room.spectators) >= cap:
            raise ProtocolError(
                ErrorCode.ROOM_FULL,
                f"This room has {cap} spectators, as many as it admits; try again later.",
                re,
            )

    def free_seat(self) -> int | None:
        return next((n for n, s in enumerate(self.room.seats) if s is None), None)

    def admit(
        self, out: Outbox, ident: Identity, role: Role, seat: int | None, now: float, re: int | None
    ) -> None:
        """``ident`` is in, as ``role`` (in ``seat``): everyone is told, and a game
        may start or take the new player in."""
        room = self.room
        ident.room, ident.role = room, role
        ident.name = unique_name(ident.name, [m.name for m in room.members])
        room.mod.arrive(ident.id)
        if seat is not None:
            room.seats[seat] = ident
        else:
            room.spectators.append(ident)
        joined = p.Joined(
            room=room.code,
            seq=0,
            role=role,
            seat=seat,
            player=ident.id,
            name=ident.name,
            connected=ident.online,
            color=ident.color,
            bot=ident.bot,
        )
        seq = room.views.broadcast(out, lambda s: evolve(joined, seq=s), exclude=ident)
        out.send([ident.id], evolve(joined, seq=seq, re=re))
        if room.rounds.maybe_start(out, now):
            return
        taken_in = seat is not None and room.status == "playing"
        room.views.send_state(out, ident, now, re=re)
        if taken_in:
            room.views.broadcast_state(out)  # the running game took the player in: new views

    def seat_computer(self, out: Outbox, bot: Identity, now: float) -> None:
        """Put a computer player in the first free seat."""
        seat = self.free_seat()
        assert seat is not None, "a computer is seated only in a room with a free seat"
        self.admit(out, bot, "player", seat, now, None)

    # -- leaving --------------------------------------------------------------------
    def leave(
        self,
        out: Outbox,
        ident: Identity,
        now: float,
        re: int | None = None,
        reason: Termination = Termination.RESIGN,
        kicked: float | None = None,
    ) -> None:
        """Remove ``ident``; a seated player in a game in progress forfeits. ``kicked``:
        the host removed them (until then; 0 for a computer), which ``left`` says; the
        game then learns it as ``REMOVED``, so the kick wins the game for nobody."""
        room = self.room
        if kicked is not None:
            reason = Termination.REMOVED
        room.grace.pop(ident.id, None)
        self.abandon(out, ident)
        playing = room.driver.forfeit(out, ident, now, reason)
        seat = room.seat_of(ident)
        if seat is not None:
            room.seats[seat] = None
        elif ident in room.spectators:
            room.spectators.remove(ident)
        room.consent.left(ident)
        self.announce_left(out, ident, re, kicked)
        ident.room, ident.role = None, None
        room.mod.depart(ident.id)
        if playing and room.members:  # the game's views changed (who is still in it)
            room.views.broadcast_state(out)
        if not ident.online or ident.bot:
            room.host.identity_released(ident, now)
        self.drop_lonely_bots(now)
        if room.mod.host == ident.id:
            host_actions.pass_host(room, out)
        if not any(m.connected or m.id in room.grace for m in room.members):
            self.close_empty(out, now)

    def announce_left(
        self, out: Outbox, ident: Identity, re: int | None, kicked: float | None
    ) -> None:
        """``left`` to everyone, the one leaving included (with ``re``)."""
        code = self.room.code
        why = None if kicked is None else "kicked"
        until = kicked or None
        seq = self.room.views.broadcast(
            out,
            lambda s: p.Left(
                room=code, seq=s, player=ident.id, name=ident.name, reason=why, until=until
            ),
            exclude=ident,
        )
        out.send(
            [ident.id],
            p.Left(
                room=code,
                seq=seq,
                player=ident.id,
                re=re,
                name=ident.name,
                reason=why,
                until=until,
            ),
        )

    def close_empty(self, out: Outbox, now: float) -> None:
        """Nobody is left who could come back: the room closes (a password guess
        still being checked is told so)."""
        pending = self.room.pending
        if pending is not None and pending.kind == "join":  # a guess still being checked
            self.room.answers.tell(
                out,
                pending.ident,
                ProtocolError(
                    ErrorCode.NO_SUCH_ROOM, "The room closed before your password was checked."
                ),
                pending.re,
            )
        self.close(now)

    def drop_lonely_bots(self, now: float) -> None:
        room = self.room
        if all(s.bot for s in room.seated) and not room.spectators:
            for bot in room.seated:
                room.seats[room.seats.index(bot)] = None
                bot.room, bot.role = None, None
                room.thinking.pop(bot.id, None)
                room.host.identity_released(bot, now)

    def abandon(self, out: Outbox, ident: Identity) -> None:
        """``ident`` leaves while the room's job works for its request: answer that
        request now, since the job's answer will find nobody to tell."""
        pending = self.room.pending
        if (
            pending is not None
            and pending.ident is ident
            and pending.re is not None
            and pending.kind != "join"
        ):
            self.room.answers.tell(
                out,
                ident,
                ProtocolError(
                    ErrorCode.NOT_IN_ROOM, f"You left the room before {pending.what} was ready."
                ),
                pending.re,
            )
            pending.re = None

    def close(self, now: float) -> None:
        """The room ends: nobody is left who could come back."""
        room = self.room
        room.life.process(Step.CLOSE)
        room.grace.clear()
        room.thinking.clear()
        room.jobs.drop()
        for m in room.members:
            m.room, m.role = None, None
            if not m.online or m.bot:
                room.host.identity_released(m, now)
        room.host.room_emptied(room)

    # -- dropped connections --------------------------------------------------------
    def disconnected(self, out: Outbox, ident: Identity, now: float) -> None:
        """A member's connection dropped: spectators leave, players keep the seat a while."""
        room = self.room
        if room.seat_of(ident) is None:
            self.leave(out, ident, now)
            return
        room.grace[ident.id] = now + room.grace_seconds
        room.talk.announce_info(out, ident)

    def resumed(
        self, out: Outbox, ident: Identity, now: float, re: int | None, since: int | None = None
    ) -> None:
        """``ident`` said hello again with its token: back in its seat, with what it
        missed (as events after ``since`` when they are kept, else a ``state``)."""
        room = self.room
        room.grace.pop(ident.id, None)
        room.tick(out, now)
        events = room.views.missed(ident, since) if since is not None else None
        if events is not None:
            for send in events:
                out.add(send)
            room.talk.announce_info(out, ident)
            return
        room.talk.announce_info(out, ident)
        out.send([ident.id], room.views.snapshot_for(ident, re))

    def grace_ended(self, out: Outbox, now: float) -> None:
        """Seated players whose reconnect grace ran out leave (a forfeit)."""
        room = self.room
        for pid, until in list(room.grace.items()):
            if now >= until and not room.closed:
                ident = room.member(pid)
                room.grace.pop(pid, None)
                if ident is not None and not ident.connected:
                    log.info(
                        "room %s: %s did not come back",
                        room.code,
                        ident.name,
                        extra={"room": room.code, "player": ident.id},
                    )
                    self.leave(out, ident, now, reason=Termination.DISCONNECT)

    def restored(self, now: float) -> None:
        """After a restart every person has the grace period, from now, to come back."""
        room = self.room
        for m in room.members:
            if not m.bot:
                m.connected = False
                room.grace[m.id] = now + room.grace_seconds
