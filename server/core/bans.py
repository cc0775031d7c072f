"""Bans the server's operator set: an address, or a player (by their secret token's
hash), kept out until a time.

Pure: the store keeps the rows (``server/io/store/admin_store.py``) and loads them at start;
the I/O layer refuses a banned address at the HTTP upgrade and page GET, and the hub
refuses a banned player's ``hello``. A player ban follows the identity's token, so it
holds after the identity itself is forgotten; a player who drops the token comes back
as a stranger, which is what an address ban is for.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass

from gridhall.protocol.i18n import gettext as _


@dataclass(frozen=True)
class Ban:
    """One ban: exactly one of ``address`` and ``player`` is set."""

    ban: int
    address: str | None
    player: str | None
    token_hash: str | None
    name: str | None
    until: float
    reason: str

    def to_map(self) -> dict[str, object]:
        """As the admin status lists it (never the token's hash)."""
        return {
            "ban": self.ban,
            "address": self.address,
            "player": self.player,
            "name": self.name,
            "until": self.until,
            "reason": self.reason,
        }


def normal_address(text: str) -> str | None:
    """An IP address in one spelling (an IPv4-mapped IPv6 address as IPv4); None if
    ``text`` is not one."""
    try:
        found = ipaddress.ip_address(text.strip().split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return str(found.ipv4_mapped)
    return str(found)


def utc(ts: float) -> str:
    """A time as the refusals show it: ``2026-11-24 10:05 UTC``."""
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def refusal(ban: Ban) -> str:
    """The sentence a banned address or player is told."""
    text = _("banned from this server until {until}", until=utc(ban.until))
    return f"{text}: {ban.reason}" if ban.reason else text


class Bans:
    """The live bans, by id, looked up by address and by token hash."""

    def __init__(self, bans: list[Ban] | None = None) -> None:
        self.by_id: dict[int, Ban] = {}
        for ban in bans or ():
            self.add(ban)

    def add(self, ban: Ban) -> None:
        self.by_id[ban.ban] = ban

    def remove(self, ban_id: int) -> Ban | None:
        return self.by_id.pop(ban_id, None)

    def live(self, now: float) -> list[Ban]:
        """The bans still in force (ended ones are dropped), soonest end first."""
        for ban_id in [b.ban for b in self.by_id.values() if b.until <= now]:
            del self.by_id[ban_id]
        return sorted(self.by_id.values(), key=lambda b: (b.until, b.ban))

    def address(self, address: str, now: float) -> Ban | None:
        """The ban in force on ``address`` that ends last, if any."""
        if not self.by_id:
            return None
        found = normal_address(address)
        return self._latest(
            [b for b in self.by_id.values() if b.address is not None and b.address == found], now
        )

    def token(self, token_hash: str, now: float) -> Ban | None:
        """The ban in force on the identity with this token hash, if any."""
        if not self.by_id:
            return None
        return self._latest([b for b in self.by_id.values() if b.token_hash == token_hash], now)

    @staticmethod
    def _latest(bans: list[Ban], now: float) -> Ban | None:
        live = [b for b in bans if b.until > now]
        return max(live, key=lambda b: b.until) if live else None
