"""A room's host and what the host decided: who holds the role, the lock, mutes and kicks.

Plain data plus the questions the room asks of it (may this identity or address join,
may this member chat, who hosts next). Every answer takes the time as an argument, so
a journal replayed after a restart decides exactly as the live room did: a kick ends at
its journalled ``until``, never by the wall clock of the replay.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.i18n import gettext as _

from .identity import Identity

ADDRESS_COOL_DOWN = 300.0
"""Seconds at most that a kick keeps the kicked member's network ADDRESS out (the
identity stays out as long as the host chose). Five minutes stop the immediate rejoin
under a fresh name (a new identity needs only a new ``hello``) while the host locks
the room or kicks again; longer would shut out a whole household or classroom behind
one NAT address, people who were never in the room."""


def seconds_left(until: float, now: float) -> float:
    """``retry_after`` for something that ends at ``until``: whole seconds, at least 1."""
    return float(max(1, math.ceil(until - now)))


@dataclass
class Moderation:
    """One room's host state; :meth:`to_json`/:meth:`from_json` put it in snapshots."""

    host: str | None
    """The member who may send ``host`` (None: nobody, e.g. only computers are left)."""
    locked: bool = False
    muted: dict[str, float | None] = field(default_factory=dict)
    """Member id -> end of the mute (None: until unmuted)."""
    kicked: dict[str, float] = field(default_factory=dict)
    """Identity id -> the end of its kick."""
    kicked_addresses: dict[str, float] = field(default_factory=dict)
    """Address -> the end of a kick, for an address no other member shared then."""
    arrivals: dict[str, int] = field(default_factory=dict)
    """Member id -> the order it arrived in (who hosts next)."""
    arrived: int = 0

    # -- what the room asks -------------------------------------------------------
    def check_join(self, ident: Identity, now: float, re: int | None) -> None:
        """Refuse ``join-room`` by a kicked identity or address, or into a locked room."""
        self._expire(now)
        own = self.kicked.get(ident.id, 0.0)
        shared = self.kicked_addresses.get(ident.address, 0.0) if ident.address else 0.0
        if max(own, shared) > now:
            wait = seconds_left(max(own, shared), now)
            text = (
                _(
                    "The host removed you from this room; you can join it again in {time}.",
                    time=_duration(wait),
                )
                if own > now
                else _(
                    "The host just removed someone at your network address from this room;"
                    " you can join it in {time}.",
                    time=_duration(wait),
                )
            )
            raise ProtocolError(ErrorCode.KICKED, text, re, retry_after=wait)
        if self.locked:
            raise ProtocolError(
                ErrorCode.ROOM_LOCKED,
                "The host has locked this room: nobody new can join it now.",
                re,
            )

    def check_chat(self, ident: Identity, now: float, re: int | None) -> None:
        """Refuse ``chat`` from a muted member (``retry_after`` when the mute ends)."""
        if ident.id not in self.muted:
            return
        until = self.muted[ident.id]
        if until is not None and until <= now:
            return  # ended; the room's next tick says so
        if until is None:
            raise ProtocolError(ErrorCode.MUTED, "The host has muted your chat in this room.", re)
        wait = seconds_left(until, now)
        raise ProtocolError(
            ErrorCode.MUTED,
            f"The host has muted your chat in this room for {_duration(wait)} more.",
            re,
            retry_after=wait,
        )

    def next_mute_end(self) -> float | None:
        ends = [t for t in self.muted.values() if t is not None]
        return min(ends) if ends else None

    def ended_mutes(self, now: float) -> list[str]:
        """Members whose mute has ended by ``now`` (the caller unmutes them)."""
        return [pid for pid, t in self.muted.items() if t is not None and t <= now]

    def arrive(self, pid: str) -> None:
        self.arrived += 1
        self.arrivals[pid] = self.arrived

    def depart(self, pid: str) -> None:
        self.arrivals.pop(pid, None)

    def successor(self, seated: list[Identity], spectators: list[Identity]) -> Identity | None:
        """Who hosts when the host is gone for good: the connected human seated player
        who arrived first, else the first connected human spectator, else the first
        human member; computers never host."""

        def first(people: list[Identity]) -> Identity | None:
            humans = [m for m in people if not m.bot]
            return min(humans, key=lambda m: self.arrivals.get(m.id, 1 << 62), default=None)

        return (
            first([m for m in seated if m.connected])
            or first([m for m in spectators if m.connected])
            or first(seated + spectators)
        )

    def kick(self, pid: str, address: str, until: float, now: float) -> None:
        """Keep identity ``pid`` out until ``until``; its ``address`` ("" for none) for
        :data:`ADDRESS_COOL_DOWN` at most."""
        self._expire(now)
        self.kicked[pid] = until
        if address:
            self.kicked_addresses[address] = min(until, now + ADDRESS_COOL_DOWN)

    def _expire(self, now: float) -> None:
        """Forget kicks that have ended (so the lists stay as long as the live kicks)."""
        for table in (self.kicked, self.kicked_addresses):
            for key in [k for k, t in table.items() if t <= now]:
                del table[key]

    # -- durability -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "host": self.host,
            "locked": self.locked,
            "muted": dict(self.muted),
            "kicked": dict(self.kicked),
            "kicked_addresses": dict(self.kicked_addresses),
            "arrivals": dict(self.arrivals),
            "arrived": self.arrived,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None, host: str | None) -> Moderation:
        """The saved state, or (a snapshot from before hosts) ``host`` and nothing else."""
        if data is None:
            return cls(host=host)
        return cls(
            host=data["host"],
            locked=bool(data["locked"]),
            muted={k: None if v is None else float(v) for k, v in data["muted"].items()},
            kicked={k: float(v) for k, v in data["kicked"].items()},
            kicked_addresses={k: float(v) for k, v in data["kicked_addresses"].items()},
            arrivals={k: int(v) for k, v in data["arrivals"].items()},
            arrived=int(data["arrived"]),
        )


def _duration(seconds: float) -> str:
    """``seconds`` for a refusal's message: "45 s", "3 min"."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{math.ceil(seconds / 60)} min"
