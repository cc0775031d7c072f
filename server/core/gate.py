"""A waiting room with a bound per address and in total.

Sockets before the WebSocket handshake, connections before ``hello`` and admin pages
before they sign in are all things a stranger can open for free and then leave idle.
Each stage gets a :class:`Gate`: past an address's own bound a newcomer is refused
(or, with ``evict_own``, that address's own oldest silent waiter makes room); past the
total, the oldest *idle* waiter is evicted to let the newcomer in.

Idle means quiet since it entered for at least ``idle_after`` seconds, as
``heard(item)`` tells (the caller's view: bytes received, or waiting in the kernel).
A waiter that was heard is never evicted: what it sent (a ``hello`` the server has not
read yet, in a crowd reconnecting after a restart) is what the stage waits for, and it
leaves on its own once that is read, or at the stage's deadline. When no waiter is
idle the newcomer is let in over the total: the bound is on sockets that are silent,
and the caller's caps on connections bound the rest. So idle sockets from a few
addresses can never lock a new player out, and a crowd saying hello is never cut.

Waiters stay in arrival order, so the idle ones are at the front and a heard one is
looked at once: entering costs O(1) amortized however many wait.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


def _never(_item: object) -> bool:
    return False


class Gate(Generic[T]):
    """What waits at one stage, by address; see the module docstring."""

    def __init__(
        self,
        total: int,
        per_address: int,
        *,
        idle_after: float = 0.0,
        heard: Callable[[T], bool] = _never,
        evict_own: bool = False,
        ceiling: int | None = None,
    ) -> None:
        self.total = max(1, total)
        self.per_address = max(1, per_address)
        self.ceiling = ceiling
        """A hard bound over the total (file descriptors): past it the oldest quiet
        waiter goes, idle or not (None: no such bound)."""
        self.idle_after = idle_after
        self.heard = heard
        self.evict_own = evict_own
        self.quiet: dict[T, tuple[str, float]] = {}
        """Waiters not heard from (as far as the gate knows), in arrival order, with
        their address and when they entered."""
        self.spoke: dict[T, str] = {}
        """Waiters that were heard: never evicted, they leave on their own."""
        self.by_address: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self.quiet) + len(self.spoke)

    def __contains__(self, item: object) -> bool:
        return item in self.quiet or item in self.spoke

    def enter(self, item: T, address: str, now: float = 0.0) -> tuple[bool, T | None]:
        """Let ``item`` wait: ``(False, None)`` if its address already has as many
        waiting as it may (and none of its own can make room); else ``(True,
        evicted)``, where ``evicted`` is the idle waiter removed to make room (None if
        there was room, or no waiter was idle)."""
        if item in self:
            return True, None
        evicted: T | None = None
        if self.by_address[address] >= self.per_address:
            evicted = self._own_oldest(address) if self.evict_own else None
            if evicted is None:
                return False, None
        elif len(self) >= self.total:
            evicted = self._idle(now)
            if evicted is None and self.ceiling is not None and len(self) >= self.ceiling:
                evicted = self._idle(now, any_age=True)
        if evicted is not None:
            self.leave(evicted)
        self.quiet[item] = (address, now)
        self.by_address[address] += 1
        return True, evicted

    def evict_idle(self, now: float) -> T | None:
        """The oldest idle waiter, removed (None if none is idle): room for a newcomer
        that a cap elsewhere (all connections) would otherwise refuse."""
        evicted = self._idle(now)
        if evicted is not None:
            self.leave(evicted)
        return evicted

    def leave(self, item: T) -> bool:
        """``item`` is past this stage (or gone); False if it was not waiting."""
        entry = self.quiet.pop(item, None)
        address = entry[0] if entry is not None else self.spoke.pop(item, None)
        if address is None:
            return False
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        return True

    def _idle(self, now: float, any_age: bool = False) -> T | None:
        """The oldest waiter quiet for ``idle_after`` (or at all: ``any_age``); heard
        ones met at the front move to ``spoke``."""
        quiet = self.quiet
        while quiet:
            item, (where, since) = next(iter(quiet.items()))
            if now - since < self.idle_after and not any_age:
                return None  # the rest came later still
            if not self.heard(item):
                return item
            del quiet[item]
            self.spoke[item] = where
        return None

    def _own_oldest(self, address: str) -> T | None:
        """``evict_own``: the address's oldest waiter not heard from, however young (the
        newest of an address goes first; a small gate's own scan)."""
        for item, (where, _since) in self.quiet.items():
            if where == address and not self.heard(item):
                return item
        return None
