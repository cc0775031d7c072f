"""The words for a room's host events, the operator's messages and why we left a
room: shared by the terminal and Tk clients, translated when shown.

Everything named here came from the network: callers show it as data (the
terminal client as a Rich ``Text``, never markup).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from gridhall import protocol as p
from gridhall.client.hosting import Member, host_name, members
from gridhall.client.messages import Refused
from gridhall.client.room import NOTE_KEY
from gridhall.client.views.base import GameView
from gridhall.protocol.i18n import _, ngettext
from gridhall.protocol.players import level_word as level_word
from gridhall.protocol.players import shown_name

LOG_KEY = NOTE_KEY
"""The key of a room-log line that is not chat (a host event, an announcement) in
``state.chat`` of our copy (:func:`gridhall.client.room.note`)."""


def member_label(m: Member) -> str:
    """A member as the host's tools list them: name, then host / muted / watching."""
    parts = [shown_name(m.name, m.bot)]
    if m.host:
        parts.append(_("host"))
    if m.muted:
        parts.append(_("muted"))
    if m.bot:
        parts.append(_("computer ({level})", level=level_word(m.bot)))
    if not m.seated:
        parts.append(_("watching"))
    return " · ".join(parts)


def computer_game(view: GameView) -> bool:
    """The game can seat a computer player (its options have an ``ai`` choice)."""
    return any(getattr(f, "key", None) == "ai" for f in view.desc.form)


def clock(epoch: float | None) -> str:
    """A wire time (epoch seconds) as local ``HH:MM``, with the day when not today."""
    if epoch is None or not math.isfinite(epoch):
        return "?"
    when = time.localtime(epoch)
    if time.strftime("%Y%m%d", when) == time.strftime("%Y%m%d", time.localtime()):
        return time.strftime("%H:%M", when)
    return time.strftime("%a %H:%M", when)


def _minutes_left(until: float | None, now: float) -> int:
    return max(1, math.ceil(((until or now) - now) / 60))


def event_text(
    event: dict[str, Any], state: p.State | None, known: dict[str, str], me: str | None
) -> str:
    """A room-log line that is not chat, from its wire map (a ``host`` event or an
    ``announce``)."""
    kind = event.get("type")
    if kind == "announce":
        return _("Announcement from the server: {text}", text=str(event.get("text", "")))
    if kind == "room-closed":
        return closed_text(str(event.get("room", "")), event.get("reason"))
    names: dict[str, str] = dict(known)
    if state is not None:
        names.update({m.player: m.name for m in members(state, known) if m.player})
    by = event.get("by")
    who = _("You") if by is not None and by == me else names.get(str(by), _("The host"))
    target = event.get("player")
    name = (
        _("you")
        if target is not None and target == me
        else str(event.get("name") or names.get(str(target), "?"))
    )
    return _action_text(event, who, name, me)


def _action_text(event: dict[str, Any], who: str, name: str, me: str | None) -> str:
    """The sentence for a ``host`` event's action, ``who`` acting on ``name``."""
    action, by, target = event.get("action"), event.get("by"), event.get("player")
    until = event.get("until")
    until_f = float(until) if isinstance(until, int | float) else None
    if action == "kick":
        return _(
            "{by} removed {name} from the room until {time}.",
            by=who,
            name=name,
            time=clock(until_f),
        )
    if action == "mute" and until_f is not None:
        return _("{by} muted {name} until {time}.", by=who, name=name, time=clock(until_f))
    if action == "mute":
        return _("{by} muted {name}.", by=who, name=name)
    if action == "unmute" and by is None:
        return _("{name} may chat again: the mute ran out.", name=name)
    if action == "unmute" and by == target and target == me:
        return _("You host the room now, so you may chat again.")
    if action == "unmute" and by == target:  # a new host is never muted
        return _("{name} hosts the room now, so they may chat again.", name=name)
    if action == "unmute":
        return _("{by} unmuted {name}.", by=who, name=name)
    if action == "lock":
        return _("{by} locked the room: nobody new can join.", by=who)
    if action == "unlock":
        return _("{by} unlocked the room.", by=who)
    if action == "hand-over" and target is not None and target == me:
        return _("You are now the room's host.")
    if action == "hand-over" and by is None:
        return _("{name} is now the room's host.", name=name)
    if action == "hand-over":
        return _("{by} made {name} the room's host.", by=who, name=name)
    if action == "computer":
        return _(
            "{by} set the computer player to {level}.", by=who, level=level_word(event.get("level"))
        )
    return _("{by}: host action {action}.", by=who, action=str(action))


def closed_text(room: str, reason: object) -> str:
    """Why the room we were in is gone: the operator closed it."""
    if isinstance(reason, str) and reason.strip():
        return _("The server's operator closed room {code}: {reason}", code=room, reason=reason)
    return _("The server's operator closed room {code}.", code=room)


def lost_text(room: str | None, reason: str | None) -> str:
    """Why the room we were in is gone: it could not be restored after a restart."""
    code = room or "?"
    if reason and reason.strip():
        return _(
            "Your room {code} could not be restored after the server restarted, so you are "
            "back in the lobby. The server says: {reason}",
            code=code,
            reason=reason.strip(),
        )
    return _(
        "Your room {code} could not be restored after the server restarted, so you are "
        "back in the lobby.",
        code=code,
    )


Note = Callable[[float], str]
"""A lobby note that depends on the time (``now``, epoch seconds): shown again as time
passes, so "5 minutes from now" never outlives the five minutes."""


def farewell_note(msg: object, me: str | None) -> Note | None:
    """What to tell a player who lands in the lobby because of ``msg``, as of any time:
    removed by the host (until when, and how long from then), the room closed, or it
    could not be restored after a restart (``room-lost``); None for any other message."""
    if isinstance(msg, p.RoomClosed):
        said = closed_text(msg.room, msg.reason)
        return lambda _now: said
    if isinstance(msg, Refused) and msg.code == p.ErrorCode.ROOM_LOST:
        lost = lost_text(msg.room, msg.reason)
        return lambda _now: lost
    if not isinstance(msg, p.Left) or msg.player != me or me is None:
        return None
    if msg.reason != "kicked":
        return None  # "closed" follows ``room-closed``, which said why
    room, until = msg.room, msg.until

    def kicked(now: float) -> str:
        if until is not None and now >= until:
            return _("The host removed you from room {code}; you may join it again now.", code=room)
        return ngettext(
            "The host removed you from room {code} until {time} ({n} minute from now).",
            "The host removed you from room {code} until {time} ({n} minutes from now).",
            _minutes_left(until, now),
            code=room,
            time=clock(until),
        )

    return kicked


def farewell(msg: object, me: str | None, now: float) -> str | None:
    """:func:`farewell_note` as of ``now``."""
    note = farewell_note(msg, me)
    return note(now) if note is not None else None


def announce_text(msg: p.Announce) -> str:
    """An operator's announcement to everyone on the server."""
    return _("Announcement from the server: {text}", text=msg.text)


def roster_note(state: p.State, known: dict[str, str]) -> str:
    """The room's host and lock state in a few words, for the member list."""
    parts = []
    host = host_name(state, known)
    if host is not None:
        parts.append(_("Host: {name}", name=host))
    if state.locked:
        parts.append(_("locked"))
    return " · ".join(parts)
