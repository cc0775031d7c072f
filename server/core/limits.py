"""Per-connection limits: a token bucket for all messages, a window for chat."""

from __future__ import annotations

from collections import deque


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message takes one."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp = now

    def refill(self, now: float) -> None:
        """Add what ``rate`` earned since the last call, up to ``burst``."""
        elapsed = now - self.stamp
        if elapsed > 0.0:  # a wall clock stepping back refills nothing
            tokens = self.tokens + elapsed * self.rate
            self.tokens = tokens if tokens < self.burst else self.burst
            self.stamp = now

    def take(self, now: float) -> bool:
        self.refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def retry_after(self) -> float:
        """Seconds (as of the last ``take``) until the next token."""
        return max(0.0, (1.0 - self.tokens) / self.rate)


class SlidingWindow:
    """At most ``limit`` events in any ``window`` seconds (chat flood control)."""

    __slots__ = ("limit", "times", "window")

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.times: deque[float] | None = None
        """Made at the first event: an empty deque is some 600 bytes, and every
        connection has two windows that most never use."""

    def allow(self, now: float) -> bool:
        times = self.times
        if times is None:
            times = self.times = deque()
        while times and now - times[0] >= self.window:
            times.popleft()
        if len(times) >= self.limit:
            return False
        times.append(now)
        return True

    def retry_after(self, now: float) -> float:
        return max(0.0, self.window - (now - self.times[0])) if self.times else 0.0
