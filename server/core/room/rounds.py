"""A room's rounds: when a game starts (at once, when the seats are full, or when the
host says), its board made first by a job if the game needs one, and how it ends:
announced once, kept for the history, rated if the room is.

``games_started`` counts a game only once it exists, so a snapshot never describes a
game whose board is still being made; each game's seed derives from the room's
secret seed and that count (``snapshot.py``'s :func:`game_seed`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ...games.base import JSON, Game
from ..effects import Outbox, SaveGame
from ..identity import Identity
from ..ratings import Change, Seat, announced
from .jobs import Pending
from .lifecycle import Step
from .snapshot import game_seed

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.room")


class Rounds:
    """The room's games, one after another: see the module docstring."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def start(self, out: Outbox, ident: Identity, now: float, re: int | None = None) -> None:
        """The host (at first the creator) starts a manually started game (Link-match)."""
        room = self.room
        if ident.id != room.mod.host:
            raise ProtocolError(ErrorCode.NOT_A_PLAYER, "Only the room's host can start.")
        if room.spec.start != "manual":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "This game starts by itself.")
        if room.status == "playing":
            raise ProtocolError(ErrorCode.ILLEGAL_MOVE, "The game is already running.")
        if not room.seated:
            raise ProtocolError(ErrorCode.NOT_PLAYING, "Nobody is seated to play.")
        if room.jobs.pending is not None:
            raise room.jobs.busy()
        if room.status == "over":
            room.round_no += 1
            room.again = None
        self.new_game(out, now, ident, re)

    def maybe_start(self, out: Outbox, now: float) -> bool:
        """Start a game if the start policy says so now; True if it started."""
        room = self.room
        if room.game is not None or room.closed:
            return False
        policy = room.spec.start
        ready = (policy == "immediate" and room.seated) or (
            policy == "full" and len(room.seated) >= room.spec.min_players
        )
        if ready:
            self.new_game(out, now)
        return bool(ready)

    def new_game(
        self, out: Outbox, now: float, ident: Identity | None = None, re: int | None = None
    ) -> None:
        """Start the next game, or ask for its board first (a job) if the game
        needs one made; a busy room starts it once its job is answered. ``ident``
        and ``re``: the ``start`` that asked, told if the board cannot be made."""
        room = self.room
        jobs = room.jobs
        if jobs.pending is not None:
            if jobs.pending.kind != "new-game":
                jobs.start_queued = True
            return
        seed = game_seed(room.seed, room.games_started)
        job = room.spec.new_game_work(room.options, seed)
        if job is not None:
            jobs.launch(out, job, Pending("new-game", "the board", ident, re, seed=seed))
            return
        self.create_game(out, now, seed, None)

    def queued_start(self, out: Outbox, now: float) -> None:
        """The start asked for while the room's job ran, now that it is answered: still
        made only if it can be now. Meanwhile a game may have begun (a computer took
        the empty seat) or a player may have gone (kicked, left): then nothing starts,
        as a start asked now would not."""
        room = self.room
        game = room.game
        if (game is not None and game.result is None) or room.closed:
            return
        if len(room.seated) < room.spec.min_players:
            return
        self.new_game(out, now)

    def create_game(self, out: Outbox, now: float, seed: int, prepared: Any) -> None:
        """The new game begins (``games_started`` counts it only now, so a snapshot
        never describes a game whose board is still being made)."""
        room = self.room
        players = [s.id for s in room.seated]
        if not players:
            return
        room.game_players = list(players)
        room.games_started += 1
        room.game = room.spec.new_game(
            room.options, players, room.round_no, seed, now, prepared=prepared
        )
        room.life.process(Step.GAME_STARTED)
        room.driver.settle()
        room.game_started_at = now
        room.over_announced = False
        room.thinking.clear()
        log.info(
            "room %s: %s round %d starts",
            room.code,
            room.spec.name,
            room.round_no + 1,
            extra={"room": room.code},
        )
        room.views.broadcast_state(out)
        room.driver.after_action(out, now, announce=False)

    def game_over(self, out: Outbox, game: Game, now: float) -> None:
        """The game has its result: announced (with any rating changes) and kept."""
        assert game.result is not None
        room = self.room
        room.over_announced = True
        result = game.result
        players = [
            {"player": s.id, "name": s.name, "seat": n, **({"bot": s.bot} if s.bot else {})}
            for n, s in enumerate(room.seats)
            if s is not None
        ]
        record = game.record()
        changes = self.rate(game, result, record, now)
        ratings = announced(changes) if changes else None
        room.views.broadcast(
            out, lambda s: p.GameOver(room=room.code, seq=s, result=result, ratings=ratings)
        )
        out.add(
            SaveGame(
                room.code,
                room.spec.name,
                room.options,
                players,
                result,
                record,
                room.game_started_at,
                now,
                ratings=tuple(changes),
                address=room.address,
            )
        )

    def rate(self, game: Game, result: JSON, record: JSON, now: float) -> list[Change]:
        """A rated room's rating changes for this game (none if it is not rated)."""
        room = self.room
        if room.ratings is None or not room.options.get("rated"):
            return []
        seated = {s.id: s for s in room.seated}
        seats = [
            Seat(pid, seated[pid].name, seated[pid].bot) if pid in seated else Seat(pid, "")
            for pid in game.players
        ]
        return room.ratings.rate(room.spec.name, seats, result, record, now)
