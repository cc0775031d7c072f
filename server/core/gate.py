"""A waiting room with a bound per address and in total.

Sockets before the WebSocket handshake and connections before ``hello`` are
both things a stranger can open for free and then leave idle. Each stage gets
a :class:`Gate`: past an address's own bound a newcomer is refused; past the
total, the *oldest* waiter is evicted to let the newcomer in. An honest client
passes either stage within milliseconds, so the oldest waiter is almost always
an idle one, and idle sockets from a few addresses can never lock out a new
player from another address.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class Gate(Generic[T]):
    """What waits at one stage, by address; see the module docstring."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = max(1, total)
        self.per_address = max(1, per_address)
        self.waiting: dict[T, str] = {}
        """Waiters in arrival order, with their address."""
        self.by_address: Counter[str] = Counter()

    def __len__(self) -> int:
        return len(self.waiting)

    def __contains__(self, item: object) -> bool:
        return item in self.waiting

    def enter(self, item: T, address: str) -> tuple[bool, T | None]:
        """Let ``item`` wait: ``(False, None)`` if its address already has as many
        waiting as it may; else ``(True, evicted)``, where ``evicted`` is the oldest
        waiter, removed to keep within the total (None if there was room)."""
        if item in self.waiting:
            return True, None
        if self.by_address[address] >= self.per_address:
            return False, None
        evicted: T | None = None
        if len(self.waiting) >= self.total:
            evicted = next(iter(self.waiting))
            self.leave(evicted)
        self.waiting[item] = address
        self.by_address[address] += 1
        return True, evicted

    def leave(self, item: T) -> bool:
        """``item`` is past this stage (or gone); False if it was not waiting."""
        address = self.waiting.pop(item, None)
        if address is None:
            return False
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        return True
