"""What a room's spectators may make the server send: budgets counted in frames.

A line of chat, an arrival or a rename is one frame to every member, so its cost
grows with the room: 400 spectators chatting, each within their own limit, made
one room send 67,544 frames/s and another room's moves wait seconds. Spectators
of a room therefore share two budgets, one for chat and one for the roster
(arrivals, departures, renames), each in frames per second, where an event
costs as many frames as the room has members. A small room never notices; a
crowded one slows to a few lines a second, and whoever is refused is told how
long to wait. Seated players keep only their own limits. Pure: no clock, no I/O.
"""

from __future__ import annotations

from typing import Literal

from .limits import TokenBucket

Kind = Literal["chat", "roster"]


class FrameBudget(TokenBucket):
    """``rate`` frames per second up to ``burst``; an event takes its cost at once."""

    def wait(self, cost: int, now: float) -> float:
        """Seconds until an event of ``cost`` frames fits (0.0: now), spending nothing.
        An event dearer than the whole burst needs a full budget (it never starves)."""
        self.refill(now)
        need = min(float(cost), self.burst)
        return 0.0 if self.tokens >= need else (need - self.tokens) / self.rate

    def spend(self, cost: int, now: float) -> float:
        """Spend ``cost`` frames if they fit now (0.0), else the seconds to wait."""
        wait = self.wait(cost, now)
        if wait == 0.0:
            self.tokens -= cost
        return wait

    def charge(self, cost: int, now: float) -> None:
        """Spend ``cost`` frames for an event that cannot be refused (a departure):
        the debt, at most one burst, delays the next refusable ones."""
        self.refill(now)
        self.tokens = max(-self.burst, self.tokens - cost)


class RoomBudget:
    """One room's spectator budgets (see the module docstring)."""

    def __init__(self, chat: tuple[float, int], roster: tuple[float, int], now: float) -> None:
        """``chat``, ``roster``: (frames per second, burst) of each budget."""
        self.kinds: dict[Kind, FrameBudget] = {
            "chat": FrameBudget(*chat, now),
            "roster": FrameBudget(*roster, now),
        }

    def wait(self, kind: Kind, cost: int, now: float) -> float:
        return self.kinds[kind].wait(cost, now)

    def charge(self, kind: Kind, cost: int, now: float) -> None:
        self.kinds[kind].charge(cost, now)
