"""What a room's players agree on together: take-backs and draws offered and
answered, and the next game (``play-again``, agreed by every seated player).

Computer players answer at once, as their policy says (``protocol/computer_policy.py``).
A request needs a seat; an answer needs a request; a second agreement is answered
and changes nothing (unless the others have left meanwhile).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.computer_policy import ComputerPolicy

from ..effects import Outbox
from ..identity import Identity
from .lifecycle import Step

if TYPE_CHECKING:
    from .room import Room


class Consent:
    """The room's offers and play-again: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    # -- offers in a game (take-back, draw) -------------------------------------------
    def offer(self, out: Outbox, ident: Identity, kind: str, now: float) -> None:
        room = self.room
        game = room.driver.player_game(ident)
        room.driver.call(lambda: game.request(ident.id, kind, now))
        room.views.broadcast(
            out, lambda s: p.OfferEvent(room=room.code, seq=s, sender=ident.id, kind=kind)
        )
        for other in room.seated:
            if other.bot and other is not ident:
                self.answer(out, other, kind, ComputerPolicy.accepts(kind), now)

    def answer(self, out: Outbox, ident: Identity, kind: str, accept: bool, now: float) -> None:
        room = self.room
        game = room.driver.player_game(ident)
        room.driver.call(lambda: game.respond(ident.id, kind, accept, now))
        room.views.broadcast(
            out,
            lambda s: p.AnswerEvent(
                room=room.code, seq=s, sender=ident.id, kind=kind, accept=accept
            ),
        )
        if accept and game.result is None:
            room.views.broadcast_state(out)  # a take-back rewrites the board: fresh snapshots
        room.driver.after_action(out, now)

    # -- the next game ----------------------------------------------------------------
    def play_again(self, out: Outbox, ident: Identity, now: float) -> None:
        room = self.room
        if room.seat_of(ident) is None:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER, "Only seated players can ask for a new game."
            )
        if room.status != "over":
            raise ProtocolError(
                ErrorCode.NOT_PLAYING, "You can ask for a new game once this one is over."
            )
        room.again = [ident.id]
        room.views.broadcast(
            out, lambda s: p.PlayAgainEvent(room=room.code, seq=s, sender=ident.id)
        )
        if ComputerPolicy.agrees_again:
            for bot in room.seated:
                if bot.bot:
                    self.agree_again(out, bot, now)
        self.maybe_rematch(out, now)

    def agree_again(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        room = self.room
        if room.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can agree.")
        if room.again is None:
            raise ProtocolError(
                ErrorCode.NO_PENDING_REQUEST,
                "Nobody has asked for a new game; send play-again to ask.",
            )
        if ident.id in room.again:  # a second click: answered, and it changes nothing
            self.maybe_rematch(out, now, ident, re)  # unless the others have left
            if room.again is not None:
                raise ProtocolError(
                    ErrorCode.NO_PENDING_REQUEST, "You have already agreed; waiting for the others."
                )
            return
        room.again.append(ident.id)
        room.views.broadcast(
            out, lambda s: p.AgreeAgainEvent(room=room.code, seq=s, sender=ident.id)
        )
        self.maybe_rematch(out, now)

    def decline_again(self, out: Outbox, ident: Identity) -> None:
        room = self.room
        if room.seat_of(ident) is None:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only seated players can decline.")
        if room.again is None:
            raise ProtocolError(
                ErrorCode.NO_PENDING_REQUEST, "There is no new-game request to decline."
            )
        room.again = None
        room.views.broadcast(
            out, lambda s: p.DeclineAgainEvent(room=room.code, seq=s, sender=ident.id)
        )

    def maybe_rematch(
        self, out: Outbox, now: float, ident: Identity | None = None, re: int | None = None
    ) -> None:
        """Start the next game once every seated player agreed (``ident`` and ``re``:
        the request that completed the agreement, told if the board cannot be made)."""
        room = self.room
        if room.again is None or not all(s.id in room.again for s in room.seated):
            return
        room.again = None
        room.round_no += 1
        room.game = None
        room.life.process(Step.REMATCH)
        if not room.rounds.maybe_start(out, now):
            if room.spec.start == "manual":
                room.rounds.new_game(out, now, ident, re)  # everyone agreed: the race starts
            else:
                room.views.broadcast_state(out)

    def left(self, ident: Identity) -> None:
        """A seated player who agreed left: the agreement is off."""
        room = self.room
        if room.again is not None and ident.id in room.again:
            room.again = None
