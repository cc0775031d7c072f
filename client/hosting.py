"""A room's host, as this client sees it: how ``host`` events change our copy of
the room, who the members are (seated or watching, host, muted), and the host's
requests (``{"type": "host", "action": ...}``, PROTOCOL.md "Room hosts").

No I/O and no UI: the session folds events with :func:`fold`, and the terminal and
Tk clients build their member lists and host tools from :func:`members`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from gridhall import protocol as p

LEVELS = ("easy", "hard")
"""The computer player's levels a host may pick (``computer`` action)."""
KICK_CHOICES = (5, 10, 30, 60)
"""Minutes offered by the clients' menus for removing a member."""


def fold(state: p.State, msg: p.HostEvent) -> p.State:
    """``state`` with one ``host`` event folded in. A computer player swapped or seated
    changes nothing here: the server follows it with a ``state`` or a ``joined``."""
    action, who = msg.action, msg.player
    if action == "hand-over" and who is not None:
        return replace(state, host=who)
    if action in ("lock", "unlock"):
        return replace(state, locked=action == "lock")
    if action == "mute" and who is not None:
        muted = [m for m in state.muted if m != who]
        return replace(state, muted=[*muted, who])
    if action == "unmute" and who is not None:
        return replace(state, muted=[m for m in state.muted if m != who])
    return state  # kick: the ``left`` that follows removes the member


@dataclass(frozen=True)
class Member:
    """One member of the room, as a member list shows it."""

    name: str
    player: str | None
    """Their id; None for a spectator this client knows only by name."""
    seated: bool
    host: bool
    muted: bool
    bot: str | None = None
    """A computer player's level (``easy``, ``hard``); None for a person."""


def members(state: p.State, known: dict[str, str]) -> list[Member]:
    """Seated players in seat order, then spectators: with who hosts and who is
    muted. ``known`` maps ids to names for spectators (``RoomCopy.known``)."""
    muted = {str(m) for m in state.muted}
    out: list[Member] = []
    for pl in sorted(state.players, key=lambda pl: int(pl.get("seat") or 0)):
        pid = str(pl.get("player"))
        bot = pl.get("bot")
        out.append(
            Member(
                str(pl.get("name")),
                pid,
                True,
                pid == state.host,
                pid in muted,
                str(bot) if bot else None,
            )
        )
    seated_ids = {m.player for m in out}
    by_name = {name: pid for pid, name in known.items() if pid not in seated_ids}
    for name in state.spectators:
        who = by_name.get(str(name))
        out.append(
            Member(
                str(name),
                who,
                False,
                who is not None and who == state.host,
                who is not None and who in muted,
            )
        )
    return out


def host_name(state: p.State, known: dict[str, str]) -> str | None:
    """The host's name, when this client knows it."""
    if state.host is None:
        return None
    for m in members(state, known):
        if m.player == state.host:
            return m.name
    return known.get(state.host)


def is_host(state: p.State | None, me: str | None) -> bool:
    """Whether we hold the room's host role."""
    return state is not None and me is not None and state.host == me


def computer(state: p.State) -> Member | None:
    """The room's computer player, if it has one."""
    for pl in state.players:
        if pl.get("bot"):
            return Member(
                str(pl.get("name")), str(pl.get("player")), True, False, False, str(pl.get("bot"))
            )
    return None


def request(
    action: str, player: str | None = None, minutes: int | None = None, level: str | None = None
) -> p.Host:
    """The typed ``host`` request (checked by the codec when sent)."""
    fields: dict[str, Any] = {"action": action}
    if player is not None:
        fields["player"] = player
    if minutes is not None:
        fields["minutes"] = minutes
    if level is not None:
        fields["level"] = level
    return p.Host(**fields)
