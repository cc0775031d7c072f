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
        elapsed = max(0.0, now - self.stamp)  # a wall clock stepping back refills nothing
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.stamp = max(self.stamp, now)

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

    def __init__(self, limit: int, window: float) -> None:
        self.limit = limit
        self.window = window
        self.times: deque[float] = deque()

    def allow(self, now: float) -> bool:
        while self.times and now - self.times[0] >= self.window:
            self.times.popleft()
        if len(self.times) >= self.limit:
            return False
        self.times.append(now)
        return True

    def retry_after(self, now: float) -> float:
        return max(0.0, self.window - (now - self.times[0])) if self.times else 0.0
