"""What a room's host may do: lock, kick, mute and unmute, hand the role over, and
choose the computer player (PROTOCOL.md, "Room hosts").

Each action checks everything first and refuses with a ProtocolError, changing
nothing; what it decided is kept in the room's :class:`~..hosting.Moderation`
(``server/core/hosting.py``) and announced as a ``host`` event. Functions over the
:class:`~.room.Room`, which calls them for a ``host`` request, for mutes that end
(``tick``) and when the host leaves for good.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ..effects import Outbox
from ..identity import Identity
from ..names import computer_name, unique_name

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.room")


def host_action(
    room: Room,
    out: Outbox,
    ident: Identity,
    msg: p.Host,
    now: float,
    kick_address: Callable[[Identity], str],
    new_computer: Callable[[str], Identity],
) -> None:
    """One ``host`` request; ProtocolError to refuse, changing nothing.
    ``kick_address``: the address a kick also keeps out ("" for none);
    ``new_computer``: a computer player of that level to seat (the hub makes it)."""
    if ident.id != room.mod.host:
        raise ProtocolError(ErrorCode.NOT_THE_HOST, "Only the room's host can do that.", msg.id)
    action = msg.action
    if action in ("lock", "unlock"):
        _lock(room, out, ident, action == "lock", msg.id)
    elif action == "computer":
        _computer(room, out, ident, msg.level, now, msg.id, new_computer)
    elif action == "unmute":
        if msg.player is None or (
            msg.player not in room.mod.muted and room.member(msg.player) is None
        ):
            raise _no_target(msg)
        if msg.player not in room.mod.muted:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "That member is not muted.", msg.id)
        unmute(room, out, ident, msg.player)
    else:
        target = _target(room, ident, msg)
        if action == "kick":
            _kick(
                room, out, ident, target, msg.minutes or p.KICK_MINUTES, now, msg.id, kick_address
            )
        elif action == "mute":
            _mute(room, out, ident, target, msg.minutes, now, msg.id)
        else:
            _hand_over(room, out, ident, target, msg.id)


def _no_target(msg: p.Host) -> ProtocolError:
    if msg.player is None:
        return ProtocolError(
            ErrorCode.BAD_MESSAGE, f"The host action {msg.action!r} needs a 'player'.", msg.id
        )
    return ProtocolError(
        ErrorCode.BAD_MESSAGE, f"Player {msg.player!r} is not in this room.", msg.id
    )


def _target(room: Room, host: Identity, msg: p.Host) -> Identity:
    """The member a kick, mute or hand-over is about (never the host)."""
    target = None if msg.player is None else room.member(msg.player)
    if target is None:
        raise _no_target(msg)
    if target is host:
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "The host cannot do that to themselves.", msg.id)
    if target.bot and msg.action != "kick":
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, "A computer player cannot be muted or host the room.", msg.id
        )
    return target


def _host_event(
    room: Room,
    out: Outbox,
    by: Identity | None,
    action: str,
    target: Identity | None = None,
    **fields: Any,
) -> None:
    pid = fields.pop("player", None) if target is None else target.id
    room.broadcast(
        out,
        lambda s: p.HostEvent(
            room=room.code,
            seq=s,
            action=action,
            by=None if by is None else by.id,
            player=pid,
            name=None if target is None else target.name,
            **fields,
        ),
    )
    log.info(
        "room %s: host %s: %s %s",
        room.code,
        "server" if by is None else by.name,
        action,
        "" if target is None and pid is None else pid,
        extra={"room": room.code, "player": None if by is None else by.id, "target": pid},
    )


def _lock(room: Room, out: Outbox, host: Identity, lock: bool, re: int | None) -> None:
    if room.mod.locked == lock:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"The room is already {'locked' if lock else 'unlocked'}.", re
        )
    room.mod.locked = lock
    _host_event(room, out, host, "lock" if lock else "unlock")


def _kick(
    room: Room,
    out: Outbox,
    host: Identity,
    target: Identity,
    minutes: int,
    now: float,
    re: int | None,
    kick_address: Callable[[Identity], str],
) -> None:
    """Remove ``target`` for ``minutes`` (a computer: its seat, between games)."""
    if target.bot:
        if room.status == "playing":
            raise ProtocolError(
                ErrorCode.GAME_IN_PROGRESS,
                "A computer player can be removed between games only.",
                re,
            )
        _host_event(room, out, host, "kick", target)
        room.options = {k: v for k, v in room.options.items() if k != "ai"}
        room.leave(out, target, now, kicked=0.0)
        return
    until = now + minutes * 60.0
    room.mod.kick(target.id, kick_address(target), until, now)
    _host_event(room, out, host, "kick", target, minutes=minutes, until=until)
    room.leave(out, target, now, kicked=until)


def _mute(
    room: Room,
    out: Outbox,
    host: Identity,
    target: Identity,
    minutes: int | None,
    now: float,
    re: int | None,
) -> None:
    until = None if minutes is None else now + minutes * 60.0
    room.mod.muted[target.id] = until
    _host_event(room, out, host, "mute", target, minutes=minutes, until=until)


def unmute(room: Room, out: Outbox, host: Identity | None, pid: str) -> None:
    """Lift a mute: the host's ``unmute``, or (``host`` None) its time ended."""
    del room.mod.muted[pid]
    target = room.member(pid)
    _host_event(room, out, host, "unmute", target, **({} if target else {"player": pid}))


def _hand_over(room: Room, out: Outbox, host: Identity, target: Identity, re: int | None) -> None:
    room.mod.host = target.id
    _host_event(room, out, host, "hand-over", target)
    _lift_host_mute(room, out, target)


def pass_host(room: Room, out: Outbox) -> None:
    """The host left for good: the role passes on (``Moderation.successor``)."""
    new = room.mod.successor(room.seated, room.spectators)
    room.mod.host = None if new is None else new.id
    if new is not None:
        _host_event(room, out, None, "hand-over", new)
        _lift_host_mute(room, out, new)


def _lift_host_mute(room: Room, out: Outbox, host: Identity) -> None:
    """A host is never muted: the new host's mute ends with the hand-over, said as an
    ``unmute`` by the host itself (PROTOCOL.md, "Room hosts")."""
    if host.id in room.mod.muted:
        unmute(room, out, host, host.id)


def _computer(
    room: Room,
    out: Outbox,
    host: Identity,
    level: str | None,
    now: float,
    re: int | None,
    new_computer: Callable[[str], Identity],
) -> None:
    """Between games: give the room's computer player ``level``, or seat one."""
    if level is None:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, "The host action 'computer' needs a 'level'.", re
        )
    if room.spec.computer is None:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"{room.spec.name} has no computer opponent.", re
        )
    if room.status == "playing":
        raise ProtocolError(
            ErrorCode.GAME_IN_PROGRESS, "The computer player can be changed between games only.", re
        )
    bot = next((s for s in room.seated if s.bot), None)
    if bot is None and room.seating.free_seat() is None:
        raise ProtocolError(ErrorCode.ROOM_FULL, "Every seat is taken; remove a player first.", re)
    room.options = {**room.options, "ai": level}  # (a refusal changes nothing)
    if bot is not None:
        bot.bot = level
        bot.name = unique_name(computer_name(level), [m.name for m in room.members if m is not bot])
        _host_event(room, out, host, "computer", bot, level=level)
        room.views.broadcast_state(out)
        return
    bot = new_computer(level)
    _host_event(room, out, host, "computer", None, player=bot.id, level=level)
    room.seat_computer(out, bot, now)
