"""Fairness between clients: what one address may hold or try.

Per-connection limits (``server/core/limits.py``) stop one socket from flooding;
these stop one address (many sockets) from crowding out everyone else: a cap
on the rooms it holds, and backoff on password guesses per address (an IPv6
address counts by its /64: :func:`address_key`). Guesses at
one room from many addresses also back off, but only for addresses that have
themselves guessed wrong there: the friend who knows the password is never
locked out by strangers guessing (the hashing they can cause is bounded by the
worker pool and each room's one job at a time).
All pure: time comes in as ``now``.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from .limits import TokenBucket

MAX_KEYS = 65_536
"""Entries a table holds at most: past it the one that failed (or acted) longest ago
goes, forgotten or not, so memory stays bounded whatever an attacker's addresses."""


@lru_cache(maxsize=4096)
def address_key(address: str) -> str:
    """The key an address is counted under: an IPv6 address by its /64 (one LAN, or one
    customer of a provider, holds 2**64 of them, so counting single ones would give an
    attacker as many fresh starts as it likes), an IPv4-mapped one as IPv4, anything
    else (IPv4, a name) as it is."""
    try:
        found = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return address


V = TypeVar("V")


def sweep(table: OrderedDict[str, V], max_keys: int, stale: Callable[[V], bool]) -> None:
    """Drop entries from the front of ``table`` (least recently touched first) while they
    are ``stale`` or there are more than ``max_keys``: O(1) amortized per insertion."""
    while table:
        key, value = next(iter(table.items()))
        if len(table) <= max_keys and not stale(value):
            return
        del table[key]


@dataclass(slots=True)
class _Strikes:
    failures: int
    last: float


class Backoff:
    """Failed attempts per key with exponential backoff.

    The first ``free`` failures in a row cost nothing; after that each attempt
    must wait ``base * 2**(failures - free)`` seconds (at most ``cap``) from
    the last failure. A success, or ``forget`` quiet seconds, clears the key.

    Keys are kept in the order they last failed, so the forgotten ones are always
    at the front: each failure sweeps the front and costs O(1) amortized however
    many keys are live, and past ``max_keys`` the longest quiet one is dropped."""

    def __init__(
        self, free: int, base: float, cap: float, forget: float, max_keys: int = MAX_KEYS
    ) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.forget = forget
        self.max_keys = max(1, max_keys)
        self._keys: OrderedDict[str, _Strikes] = OrderedDict()

    def wait(self, key: str, now: float) -> float:
        """Seconds before ``key`` may try again (0.0: now)."""
        strikes = self._keys.get(key)
        if strikes is None:
            return 0.0
        if now - strikes.last >= self.forget:
            del self._keys[key]
            return 0.0
        if strikes.failures < self.free:
            return 0.0
        delay = min(self.cap, self.base * 2.0 ** (strikes.failures - self.free))
        return max(0.0, strikes.last + delay - now)

    def failed(self, key: str, now: float) -> None:
        strikes = self._keys.get(key)
        if strikes is None or now - strikes.last >= self.forget:
            self._keys[key] = _Strikes(1, now)
        else:
            strikes.failures += 1
            strikes.last = max(strikes.last, now)
        self._keys.move_to_end(key)
        self._sweep(now)

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)

    def _sweep(self, now: float) -> None:
        """Drop forgotten keys from the front, and the oldest past ``max_keys``."""
        sweep(self._keys, self.max_keys, lambda strikes: now - strikes.last >= self.forget)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: str) -> bool:
        """``key`` has failures that are not yet forgotten (or swept)."""
        return key in self._keys


class PasswordGuard:
    """Password attempts limited per address, and per room among the addresses
    that failed at that room (never for an address that has not failed there)."""

    def __init__(self) -> None:
        self.by_address = Backoff(free=5, base=1.0, cap=60.0, forget=600.0)
        self.by_room = Backoff(free=20, base=0.5, cap=15.0, forget=300.0)
        self.failed_at = Backoff(free=2**31, base=0.0, cap=0.0, forget=300.0)
        """Per (room, address), never a wait of its own: the addresses the room-wide
        backoff applies to (those that failed there lately)."""

    def wait(self, room: str, address: str, now: float) -> float:
        """Seconds before this address may guess this room's password again."""
        address = address_key(address)
        wait = self.by_address.wait(address, now)
        pair = _pair(room, address)
        self.failed_at.wait(pair, now)  # forgets a stale failure
        if pair in self.failed_at:
            wait = max(wait, self.by_room.wait(room, now))
        return wait

    def tried(self, room: str, address: str, ok: bool, now: float) -> None:
        address = address_key(address)
        if ok:
            self.by_address.succeeded(address)
            self.failed_at.succeeded(_pair(room, address))
            return  # the room's count stays: another address may still be guessing
        self.by_address.failed(address, now)
        self.by_room.failed(room, now)
        self.failed_at.failed(_pair(room, address), now)


def _pair(room: str, address: str) -> str:
    return f"{room}\n{address}"


class PerAddress:
    """A token bucket per address (e.g. rooms created): ``rate`` a second, up to
    ``burst`` at once. Buckets are kept in the order they were last used: one unused for
    ``burst / rate`` seconds is full again and is swept from the front (O(1) amortized
    per call); past ``max_keys`` the longest unused goes anyway. Addresses count one by
    one (an IPv6 LAN is one /64: its players must not share one bucket)."""

    def __init__(self, rate: float, burst: int, max_keys: int = MAX_KEYS) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max(1, max_keys)
        self.refilled_after = burst / rate if rate > 0 else float("inf")
        """Seconds after which an unused bucket is surely full again."""
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, address: str, now: float) -> float:
        """0.0 if ``address`` may act now (and it is counted), else the seconds to wait."""
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, now)
        else:
            self._buckets.move_to_end(address)
        taken = bucket.take(now)
        self._sweep(now)
        return 0.0 if taken else bucket.retry_after()

    def _sweep(self, now: float) -> None:
        sweep(self._buckets, self.max_keys, lambda b: now - b.stamp >= self.refilled_after)

    def __len__(self) -> int:
        return len(self._buckets)
