"""The per-address limits counted over the whole cluster: connections per address,
open rooms per creating address, and room creations per address.

Each node writes its own counts into one Redis hash per address (``gridhall:addr:*``
for connections, ``gridhall:held:*`` for rooms), rewritten on every beat and expiring
:data:`ADDR_LEASES` leases after the last write; a node adds the others' counts (live
nodes' only) to its own. Without Redis, each node holds every limit alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from redis.exceptions import RedisError

from . import shared_rate
from .lease import as_text as _text
from .node import addr_key, held_key

if TYPE_CHECKING:
    from .service import ClusterService

ADDR_LEASES = 10
"""An address's counts expire this many leases after a node last wrote them: each beat
rewrites those of the addresses a node still has, and the last connection's end
deletes its count at once, so a count is never left for long (a node that died)."""
LEFT = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
"""
"""One connection from an address ended on node ARGV[1]: its count goes down, and at
nothing it goes (a hash with no fields is no key: nothing is left of the address)."""
PUBLISH = """
for i, key in ipairs(KEYS) do
  local count = tonumber(ARGV[2 + i])
  if count > 0 then
    redis.call('HSET', key, ARGV[1], count)
    redis.call('PEXPIRE', key, ARGV[2])
  else
    redis.call('HDEL', key, ARGV[1])
  end
end
return #KEYS
"""
"""A node's counts for many addresses at once: KEYS the hashes, ARGV[1] the node,
ARGV[2] their lifetime (ms), then each key's count (0: the node's field goes). One
command per :data:`PUBLISH_CHUNK` addresses: a beat's rewrite of a thousand addresses
was two thousand commands built on the event loop at once (the tail of every move)."""
PUBLISH_CHUNK = 250


class AddressCaps:
    """One node's share of the cluster's per-address counts; see the module docstring."""

    def __init__(self, service: ClusterService) -> None:
        self.service = service
        self.ttl_ms = ADDR_LEASES * service.lease_ms
        self._publish_script = service.redis.register_script(PUBLISH)
        self._published: set[str] = set()
        """Addresses whose connection count this node wrote on its last beat."""
        self._held: set[str] = set()
        """Addresses whose held rooms this node wrote on its last beat."""

    async def admits(self, peer: str) -> bool:
        """Whether one more connection from ``peer`` keeps the address within
        ``max_connections_per_ip`` over every live node (``gridhall:addr:{peer}`` holds
        each node's count); counted there when it does. Without Redis, each node holds
        the limit alone. Two nodes admitting at the same instant may both pass: the bound
        is approximate by one connection per node."""
        service = self.service
        if not service.available:
            return True
        try:
            counts = self._others(await service.redis.hgetall(addr_key(peer)))
            live = await service.registry.live(list(counts))
            total = service.server.per_ip[peer] + sum(counts[n] for n in live)
            if total >= service.server.config.max_connections_per_ip:
                return False
            pipe = service.redis.pipeline(transaction=False)
            pipe.hincrby(addr_key(peer), service.node, 1)
            pipe.pexpire(addr_key(peer), self.ttl_ms)
            await pipe.execute()
            self._published.add(peer)  # (the next beat rewrites it, or deletes it)
        except (RedisError, OSError, ValueError):
            return True
        return True

    def left(self, peer: str) -> None:
        """A connection from ``peer`` ended: its count goes down, and with the last one
        it goes (the next beat rewrites the counts anyway)."""
        service = self.service
        if service.available:
            service.spawn(service.redis.eval(LEFT, 1, addr_key(peer), service.node))

    def _others(self, counts: dict[bytes, bytes]) -> dict[str, int]:
        """Other nodes' counts in one per-address hash (of which only live nodes' count:
        a dead node's, or a name no node signed for, count for nothing)."""
        found = {_text(n): int(c) for n, c in counts.items()}
        return {n: c for n, c in found.items() if n != self.service.node and c > 0}

    def held_elsewhere(self, address: str) -> int:
        """Open rooms created from ``address`` that other live nodes hold (0 without
        Redis: each node then holds ``max_rooms_per_address`` alone)."""
        service = self.service
        if not service.available or not address:
            return 0
        now = service.leases.now
        try:
            counts = self._others(now.hgetall(held_key(address)))
            return sum(counts[n] for n in service.registry.live_now(now, list(counts)))
        except (RedisError, OSError, ValueError):
            return 0

    def shared_creations(self, address: str, now: float) -> float:
        """The cluster's bucket of room creations from ``address`` (0.0: go on; else
        the seconds to wait); without Redis, only each node's own bucket counts."""
        service = self.service
        if not service.available:
            return 0.0
        config = service.server.config
        try:
            return shared_rate.take(
                service.leases.now,
                address,
                config.room_creations_per_minute / 60.0,
                config.room_creation_burst,
                now,
            )
        except (RedisError, OSError, ValueError):
            return 0.0

    def room_made(self, address: str) -> None:
        """A room created from ``address`` is leased here: counted over the cluster at
        once (Redis errors go to the caller)."""
        now, key = self.service.leases.now, held_key(address)
        now.hincrby(key, self.service.node, 1)
        now.pexpire(key, self.ttl_ms)
        self._held.add(address)  # (the next beat rewrites or deletes it)

    async def beat(self) -> None:
        """Write this node's counts again: its connections and the rooms it holds, per
        address (an address with none here any more is taken out)."""
        per_ip = dict(self.service.server.per_ip)  # this node's connections per address
        held = self._held_rooms()  # and the rooms each address holds here
        counts = {addr_key(peer): count for peer, count in per_ip.items()}
        counts.update((addr_key(peer), 0) for peer in self._published - set(per_ip))
        counts.update((held_key(peer), count) for peer, count in held.items())
        counts.update((held_key(peer), 0) for peer in self._held - set(held))
        await self._publish(counts)
        self._published = set(per_ip)
        self._held = set(held)

    async def _publish(self, counts: dict[str, int]) -> None:
        """Each hash of ``counts`` gets this node's count (0: its field goes)."""
        service = self.service
        keys = list(counts)
        for start in range(0, len(keys), PUBLISH_CHUNK):
            chunk = keys[start : start + PUBLISH_CHUNK]
            args = [service.node, self.ttl_ms, *(counts[key] for key in chunk)]
            await self._publish_script(keys=chunk, args=args)

    def _held_rooms(self) -> dict[str, int]:
        """Open rooms this node owns, by the address that created them."""
        held: dict[str, int] = {}
        rooms = self.service.hub.lobby.rooms
        for code in self.service.store.epochs:
            room = rooms.get(code)
            if room is not None and room.address and not room.closed:
                held[room.address] = held.get(room.address, 0) + 1
        return held
