"""The game driver: a room's game, played by its seated players and computers.

Every call into the game's rules goes through here: a move (or one that needs heavy
work first, which becomes the room's job), a resignation, the clock's tick, a
computer's answer. After each, a game that now has a result is over (the
lifecycle's state-triggered transition), announced once, and otherwise the
computer whose turn it is is asked to think.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError, Termination

from ...games.base import JSON, Game, GameError
from ..effects import Outbox, Think
from ..identity import Identity
from .jobs import Pending

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.room")

JOB_WHAT = {"hint": "a hint", "layout": "the mines", "shuffle": "a shuffle"}
"""What a move's job works out, as a refusal names it (anything else: "a move")."""


class GameDriver:
    """The room's game: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def settle(self) -> None:
        """After any call into the game's rules: a game that now has a result is over
        (the lifecycle's state-triggered transition: only a result triggers one)."""
        game = self.room.game
        if game is not None and game.result is not None:
            self.room.life.settle(True)

    def player_game(self, ident: Identity) -> Game:
        """The running game, if ``ident`` may act in it; ProtocolError otherwise.
        (The hub has let time-driven rules run just before.)"""
        room = self.room
        if room.seat_of(ident) is None:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER,
                "Spectators can watch and chat, but only seated players can play.",
            )
        game = room.game
        if game is None:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "The game has not started yet.")
        if game.result is not None:
            raise ProtocolError(
                ErrorCode.NOT_PLAYING, "The game is over; send play-again for a new one."
            )
        if ident.id not in game.players:
            raise ProtocolError(
                ErrorCode.NOT_A_PLAYER,
                "You joined after this game began; you can play the next one.",
            )
        return game

    def call(self, call: Callable[[], Any]) -> Any:
        """A call into the rules whose refusal is the client's (a ProtocolError)."""
        try:
            return call()
        except GameError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        finally:
            self.settle()

    def move(
        self,
        out: Outbox,
        ident: Identity,
        move: JSON,
        now: float,
        re: int | None = None,
        prepared: Any = None,
    ) -> None:
        """Apply a move; one that needs heavy work first becomes the room's job
        and is applied with its answer (``prepared``) in :meth:`Room.work_done`.
        Every move comes here: what holds for nearly all of them is asked first."""
        room = self.room
        game = room.game
        if (
            game is None
            or game.result is not None
            or ident.id not in game.players
            or ident not in room.seats  # ``seat_of``: identities compare as themselves
        ):
            game = self.player_game(ident)  # the refusal that fits
        if prepared is None:
            pending = room.jobs.pending
            if pending is not None and pending.exclusive:
                raise room.jobs.busy(re)
            if type(game).work_for is not Game.work_for:
                job = game.work_for(ident.id, move, now)
                if job is not None:
                    what = JOB_WHAT.get(job.kind, "a move")
                    asked = Pending("move", what, ident, re, move=move, exclusive=job.exclusive)
                    room.jobs.launch(out, job, asked)
                    return
        try:
            played = game.apply(ident.id, move, now, prepared=prepared)
        except GameError as exc:
            game.refused(ident.id, move, now)
            room.refusal_counted = True
            self.settle()
            raise ProtocolError(exc.code, exc.message) from None
        self.settle()
        turn = game.turn()
        by, shown = ident.id, played.move
        hides = type(game).visible_move is not Game.visible_move  # else: as played, for all
        room.views.broadcast_views(
            out,
            lambda seq, viewer: p.Moved(
                room=room.code,
                seq=seq,
                by=by,
                move=game.visible_move(by, shown, viewer) if hides else shown,
                view=game.view(viewer),
                turn=turn,
            ),
            deltas=True,
        )
        for notice in played.notices:
            self.notice(out, notice)
        self.after_action(out, now)

    def notice(self, out: Outbox, notice: JSON) -> None:
        code = self.room.code
        data = {k: v for k, v in notice.items() if k != "type"}
        self.room.views.broadcast(
            out, lambda s: p.Notice(room=code, seq=s, event=str(notice["type"]), data=data)
        )

    def resign(self, out: Outbox, ident: Identity, now: float) -> None:
        game = self.player_game(ident)
        self.call(lambda: game.resign(ident.id, now))
        code = self.room.code
        self.room.views.broadcast(out, lambda s: p.Resigned(room=code, seq=s, player=ident.id))
        self.after_action(out, now)

    def forfeit(self, out: Outbox, ident: Identity, now: float, reason: Termination) -> bool:
        """``ident`` leaves: if it plays the game in progress, it loses it (``reason``).
        True if it did."""
        room = self.room
        game = room.game
        playing = (
            game is not None
            and game.result is None
            and ident.id in game.players
            and room.seat_of(ident) is not None
        )
        if playing:
            assert game is not None
            game.resign(ident.id, now, reason=reason)
            self.settle()
            self.after_action(out, now)
        return playing

    def tick(self, out: Outbox, now: float) -> None:
        """The game's own time-driven rules: clocks and countdowns."""
        room = self.room
        game = room.game
        if room.closed or game is None or game.result is not None:
            return
        events = game.tick(now)
        self.settle()
        for event in events:
            self.notice(out, event)
        if events or game.result is not None:  # a clock ran out: its 0:00 is in the view
            room.views.broadcast_state(out)
        self.after_action(out, now)

    # -- computer players -----------------------------------------------------------
    def computer_move(
        self, out: Outbox, bot: Identity, request: JSON, move: JSON, now: float
    ) -> None:
        """A computer player's answer to a :class:`Think`. Played only if the
        position is still the one it thought about; otherwise it thinks again."""
        room = self.room
        if room.thinking.get(bot.id) != request:
            return  # a stale answer (the game ended, restarted or the bot left)
        del room.thinking[bot.id]
        game = room.game
        computer = room.spec.computer
        if (
            game is None
            or game.result is not None
            or computer is None
            or game.turn() != bot.id
            or room.seat_of(bot) is None
        ):
            return
        if computer.request(game, bot.id) != request:
            self.ask_computers(out, game)  # a take-back changed the board: think again
            return
        try:
            self.move(out, bot, move, now)
        except ProtocolError as exc:
            log.error(
                "room %s: the computer's move was refused: %s",
                room.code,
                exc.message,
                extra={"room": room.code, "player": bot.id},
            )

    def ask_computers(self, out: Outbox, game: Game) -> None:
        """Ask the computer whose turn it is to think (one already thinking is left
        alone). Every move asks: a room without computers finds out before the turn."""
        room = self.room
        computer = room.spec.computer
        if computer is None:
            return
        thinking = room.thinking
        turn: str | None = None
        asked = False
        for s in room.seats:
            if s is None or not s.bot or s.id in thinking:
                continue
            if not asked:
                turn, asked = game.turn(), True
            if turn == s.id:
                request = computer.request(game, s.id)
                thinking[s.id] = request
                out.add(Think(room.code, s.id, room.spec.name, s.bot, request, room.address))

    # -- after every change ---------------------------------------------------------
    def after_action(self, out: Outbox, now: float, announce: bool = True) -> None:
        """Finish the game if it ended, or let a computer move."""
        room = self.room
        game = room.game
        if game is None:
            return
        if game.result is not None:
            room.life.settle(True)
            room.thinking.clear()
            if announce and not room.over_announced:
                room.rounds.game_over(out, game, now)
            return
        self.ask_computers(out, game)
