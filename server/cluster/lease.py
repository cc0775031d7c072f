"""Room leases in Redis: one owner per room at a time, and an epoch per ownership.

``gridhall:room:{id}:owner`` holds the owning node's id with an expiry (``SET NX PX``);
the owner renews it every third of the lease with a script that first checks the value
is still its own, so a node never extends a lease another node took. A node takes a
room over only when its lease is gone; each takeover ``INCR``s
``gridhall:room:{id}:epoch``, the fencing token its journal writes then carry
(PostgreSQL keeps the authoritative epoch: :meth:`PgStore.claim`).

A lease is a hint with a deadline, not a lock: a paused owner may still believe it owns a
room after its lease ran out. The epoch check in PostgreSQL is what makes that harmless.
"""

from __future__ import annotations

from typing import Any

PREFIX = "gridhall:"

RENEW = """
local answers = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('GET', key)
  if v == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    answers[i] = 1
  elseif not v then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    answers[i] = 2
  else
    answers[i] = 0
  end
end
return answers
"""
"""For each key: 1, renewed; 2, the key was gone (Redis restarted) and is ours again;
0, another node holds it. One call renews many leases: a node's beat is a few
commands, not one per room (a thousand scripts built at once held the event loop,
the tail of every move made meanwhile)."""
RENEW_CHUNK = 250
"""Leases renewed per call (each call a short script in Redis, then the loop goes on)."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

AT_LEAST = """
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if v < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) return tonumber(ARGV[1]) end
return v
"""


def as_text(value: Any) -> str:
    """A Redis reply (bytes) as text."""
    return value.decode() if isinstance(value, bytes) else str(value)


def owner_key(room: str) -> str:
    return f"{PREFIX}room:{room}:owner"


def epoch_key(room: str) -> str:
    return f"{PREFIX}room:{room}:epoch"


class Leases:
    """This node's leases, over a ``redis.asyncio`` client."""

    def __init__(self, redis: Any, node: str, lease_ms: int, now: Any = None) -> None:
        self.redis = redis
        self.now = now
        """A synchronous client (``redis.Redis``) for :meth:`hold_now`."""
        self.node = node
        self.lease_ms = lease_ms
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)
        self._at_least = redis.register_script(AT_LEAST)

    async def hold(self, room: str, epoch: int) -> bool:
        """Take the lease of a room this node just made (or claimed) under ``epoch``."""
        ok = await self.redis.set(owner_key(room), self.node, nx=True, px=self.lease_ms)
        await self._at_least(keys=[epoch_key(room)], args=[epoch])
        return bool(ok)

    def hold_now(self, room: str, epoch: int) -> bool:
        """:meth:`hold`, before the event loop goes on (one round trip): a room this
        node just made is leased before anyone hears of it, so a player sent its code
        finds its owner at once. False if Redis did not answer (the beat retries)."""
        if self.now is None:
            return False
        pipe = self.now.pipeline(transaction=False)
        pipe.set(owner_key(room), self.node, nx=True, px=self.lease_ms)
        pipe.eval(AT_LEAST, 1, epoch_key(room), epoch)
        pipe.execute()
        return True

    async def take(self, room: str) -> int | None:
        """Take over a room whose lease is gone: the new epoch, or None if the lease is
        still held (its owner lives) or another node was first."""
        if not await self.redis.set(owner_key(room), self.node, nx=True, px=self.lease_ms):
            return None
        return int(await self.redis.incr(epoch_key(room)))

    async def raise_epoch(self, room: str, epoch: int) -> None:
        """Redis's counter never lags PostgreSQL's epoch (after a Redis restart it
        starts from nothing)."""
        await self._at_least(keys=[epoch_key(room)], args=[epoch])

    async def renew(self, rooms: list[str]) -> list[str]:
        """Renew every lease of ``rooms``; the rooms whose lease another node holds."""
        lost: list[str] = []
        for start in range(0, len(rooms), RENEW_CHUNK):
            chunk = rooms[start : start + RENEW_CHUNK]
            answers = await self._renew(
                keys=[owner_key(room) for room in chunk], args=[self.node, self.lease_ms]
            )
            lost += [room for room, answer in zip(chunk, answers) if int(answer) == 0]
        return lost

    async def release(self, room: str) -> None:
        await self._release(keys=[owner_key(room)], args=[self.node])

    async def held(self, room: str) -> bool:
        """Whether any node holds the lease of ``room``."""
        return bool(await self.redis.exists(owner_key(room)))
