"""The lobby's requests: listing rooms, creating one, joining and leaving, and
``sync``. A mixin of :class:`~gridhall.server.core.hub.Hub` (``hub_core.py`` says why).
"""

from __future__ import annotations

import base64
import logging

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from .effects import Outbox, SaveRoom
from .hub_core import HubCore
from .identity import Identity
from .journal import ComputerSeated, Joined
from .names import computer_name

log = logging.getLogger("gridhall.hub")


class LobbyRequests(HubCore):
    """``list-rooms``, ``create-room``, ``join-room``, ``leave-room``, ``sync``."""

    def _list_rooms(self, out: Outbox, ident: Identity, msg: p.ListRooms, now: float) -> None:
        out.send([ident.id], p.Rooms(rooms=self.lobby.listing(), re=msg.id))

    def _create_room(self, out: Outbox, ident: Identity, msg: p.CreateRoom, now: float) -> None:
        self._not_in_room(ident)
        wait = self.creations.take(ident.address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"Your address is creating rooms too fast; wait {wait:.1f} s.",
                msg.id,
                retry_after=round(wait, 3),
            )
        room = self.lobby.create(
            ident, msg.game, msg.options, msg.private, msg.password, ident.address
        )
        room.max_spectators = self.config.max_spectators
        room.ratings = self.ratings
        log.info(
            "%s created room %s (%s)",
            ident.name,
            room.code,
            room.spec.name,
            extra={"room": room.code, "player": ident.id},
        )
        out.add(
            SaveRoom(
                room.code,
                {
                    "code": room.code,
                    "game": room.spec.name,
                    "options": room.options,
                    "creator": room.creator,
                    "private": room.private,
                    "password": _b64(room.password_hash),
                    "salt": _b64(room.salt),
                    "seed": room.seed,
                    "address": room.address,
                    "created_at": now,
                },
            )
        )
        self._input(
            out,
            room,
            Joined(ident.id, "player", ident.name, ident.color),
            now,
            lambda: room.enter(out, ident, "player", now, msg.id),
        )
        level = room.options.get("ai")
        if level:
            bot, _ = self.identities.create(computer_name(str(level)), bot=str(level))
            out.add(self._saved(bot))
            self._input(
                out,
                room,
                ComputerSeated(bot.id, str(level)),
                now,
                lambda: room.seat_computer(out, bot, now),
            )

    def _join_room(self, out: Outbox, ident: Identity, msg: p.JoinRoom, now: float) -> None:
        room = self.lobby.find(msg.room)
        budgeted = False
        if not self._replaying:
            self._not_in_room(ident)
            room.mod.check_join(ident, now, msg.id)
            if room.protected and msg.password is not None:
                wait = self.passwords.wait(room.code, ident.address, now)
                if wait > 0:
                    raise ProtocolError(
                        ErrorCode.RATE_LIMITED,
                        f"Too many wrong passwords; wait {wait:.1f} s before trying again.",
                        msg.id,
                        retry_after=round(wait, 3),
                    )
            budgeted = msg.role == "spectator" or room.status == "playing"  # may watch
            if budgeted:
                if msg.role == "spectator":
                    room.check_spectator_seat(msg.id)
                self._afford(
                    room,
                    "roster",
                    now,
                    msg.id,
                    "People are arriving in this room as fast as it allows",
                    joining=True,
                )
        room.join(out, ident, msg.role, msg.password, now, msg.id, verified=self._replaying)
        if not self._replaying and budgeted and ident.room is room:  # in (no password due)
            self._budget(room, now).charge("roster", len(room.members), now)

    def _leave_room(self, out: Outbox, ident: Identity, msg: p.LeaveRoom, now: float) -> None:
        room = self._room(ident)
        if ident.role == "spectator" and not self._replaying:
            self._budget(room, now).charge("roster", len(room.members), now)
        room.leave(out, ident, now, msg.id)

    def _sync(self, out: Outbox, ident: Identity, msg: p.Sync, now: float) -> None:
        self._room(ident).sync(out, ident, msg.since, now, re=msg.id)


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode()
