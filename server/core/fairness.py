"""Fairness between clients: what one address may hold or try.

Per-connection limits (``server/core/limits.py``) stop one socket from flooding;
these stop one address (many sockets) from crowding out everyone else: a cap
on the rooms it holds, and backoff on password guesses per address. Guesses at
one room from many addresses also back off, but only for addresses that have
themselves guessed wrong there: the friend who knows the password is never
locked out by strangers guessing (the hashing they can cause is bounded by the
worker pool and each room's one job at a time).
All pure: time comes in as ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import TokenBucket

PRUNE_AT = 4096
"""Entries kept before forgotten ones are swept out (bounds the memory)."""


@dataclass
class _Strikes:
    failures: int
    last: float


class Backoff:
    """Failed attempts per key with exponential backoff.

    The first ``free`` failures in a row cost nothing; after that each attempt
    must wait ``base * 2**(failures - free)`` seconds (at most ``cap``) from
    the last failure. A success, or ``forget`` quiet seconds, clears the key."""

    def __init__(self, free: int, base: float, cap: float, forget: float) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.forget = forget
        self._keys: dict[str, _Strikes] = {}

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
            if len(self._keys) >= PRUNE_AT:
                self._prune(now)
            self._keys[key] = _Strikes(1, now)
        else:
            strikes.failures += 1
            strikes.last = now

    def succeeded(self, key: str) -> None:
        self._keys.pop(key, None)

    def _prune(self, now: float) -> None:
        for key in [k for k, s in self._keys.items() if now - s.last >= self.forget]:
            del self._keys[key]

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
        wait = self.by_address.wait(address, now)
        pair = _pair(room, address)
        self.failed_at.wait(pair, now)  # forgets a stale failure
        if pair in self.failed_at:
            wait = max(wait, self.by_room.wait(room, now))
        return wait

    def tried(self, room: str, address: str, ok: bool, now: float) -> None:
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
    ``burst`` at once. Addresses whose bucket is full again are forgotten."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str, now: float) -> float:
        """0.0 if ``address`` may act now (and it is counted), else the seconds to wait."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= PRUNE_AT:
                self._prune(now)
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, now)
        if bucket.take(now):
            return 0.0
        return bucket.retry_after()

    def _prune(self, now: float) -> None:
        full = [
            a for a, b in self._buckets.items() if b.tokens + (now - b.stamp) * self.rate >= b.burst
        ]
        for address in full:
            del self._buckets[address]
