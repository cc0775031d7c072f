"""One token bucket per address shared by every node, in Redis: the rate of room
creations per address holds over the cluster (docs/cluster.md).

The same bucket as :class:`~gridhall.server.core.fairness.PerAddress` (``rate`` tokens
a second, up to ``burst``), kept in ``gridhall:create:{address}`` and taken by one
script, so two nodes never both spend the last token. Time is the calling node's
clock: nodes' clocks a little apart make the bucket a little more or less generous.
Redis down: each node's own bucket is the limit (it always applies too).
"""

from __future__ import annotations

from typing import Any

from .lease import PREFIX

TAKE = """
local rate, burst, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local v = redis.call('HMGET', KEYS[1], 'tokens', 't')
local tokens = tonumber(v[1]) or burst
local t = tonumber(v[2]) or now
if now > t then tokens = math.min(burst, tokens + (now - t) * rate) else now = t end
local wait = 0
if tokens >= 1 then tokens = tokens - 1 else wait = (1 - tokens) / rate end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 't', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return tostring(wait)
"""
"""The seconds to wait, as text (Redis turns a Lua number into an integer)."""


def create_key(address: str) -> str:
    return f"{PREFIX}create:{address}"


def take(redis: Any, address: str, rate: float, burst: int, now: float) -> float:
    """0.0 if ``address`` may create a room now (counted), else the seconds to wait;
    over a synchronous ``redis.Redis`` (its errors are the caller's)."""
    keep_ms = int(1000 * (burst / rate + 60)) if rate > 0 else 3_600_000
    answer = redis.eval(TAKE, 1, create_key(address), rate, burst, now, keep_ms)
    return float(answer.decode() if isinstance(answer, bytes) else answer)
