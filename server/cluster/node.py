"""The node registry and the cluster's lobby, in Redis.

Each node keeps ``gridhall:node:{id}`` (a hash with its ws address) alive with an
expiry of one lease: a node whose key is gone is dead as far as the others go, and its
rooms are taken over once their own leases ran out too. ``gridhall:rooms`` maps each
public room's code to its listing (the node that owns it included), so every node's
``list-rooms`` shows the whole cluster; an owner rewrites its rooms' listings on each
beat, and a listing whose owner is dead is dropped by whichever node takes the room.
"""

from __future__ import annotations

import json
from typing import Any

from .lease import PREFIX

ROOMS = PREFIX + "rooms"


def node_key(node: str) -> str:
    return f"{PREFIX}node:{node}"


def addr_key(peer: str) -> str:
    """One address's open connections, per node (per-address limits over the cluster);
    a dead node's count stops counting when its node key is gone."""
    return f"{PREFIX}addr:{peer}"


def held_key(peer: str) -> str:
    """The open rooms created from one address, per node (``max_rooms_per_address``
    over the cluster); a dead node's count stops counting when its node key is gone."""
    return f"{PREFIX}held:{peer}"


ADDR_TTL_MS = 3_600_000
"""An address's counts go an hour after its last connection changed them."""


class Registry:
    """This node's entry, the others', and the shared lobby."""

    def __init__(self, redis: Any, node: str, address: str, lease_ms: int) -> None:
        self.redis = redis
        self.node = node
        self.address = address
        self.lease_ms = lease_ms

    async def beat(self, listings: dict[str, dict[str, Any]], gone: list[str]) -> bool:
        """Say this node is alive and list its public rooms; True if the node's key had
        expired or was lost (Redis restarted: wait a lease before taking rooms over)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(node_key(self.node))
        pipe.hset(node_key(self.node), mapping={"address": self.address})
        pipe.pexpire(node_key(self.node), self.lease_ms)
        if listings:
            pipe.hset(
                ROOMS,
                mapping={
                    code: json.dumps({**listing, "node": self.node, "address": self.address})
                    for code, listing in listings.items()
                },
            )
        if gone:
            pipe.hdel(ROOMS, *gone)
        answers = await pipe.execute()
        return not answers[0]

    async def alive(self) -> dict[str, str]:
        """Every live node's id and ws address."""
        nodes: dict[str, str] = {}
        keys = [k async for k in self.redis.scan_iter(match=node_key("*"), count=100)]
        if not keys:
            return nodes
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.hget(key, "address")
        for key, address in zip(keys, await pipe.execute()):
            if address is not None:
                name = key.decode() if isinstance(key, bytes) else str(key)
                nodes[name.removeprefix(node_key(""))] = (
                    address.decode() if isinstance(address, bytes) else str(address)
                )
        return nodes

    async def is_alive(self, node: str) -> bool:
        return bool(await self.redis.exists(node_key(node)))

    async def listings(self) -> dict[str, dict[str, Any]]:
        """Every listed room of the cluster, by code."""
        found: dict[str, dict[str, Any]] = {}
        for code, text in (await self.redis.hgetall(ROOMS)).items():
            try:
                listing = json.loads(text)
            except ValueError:
                continue
            if isinstance(listing, dict):
                found[code.decode() if isinstance(code, bytes) else str(code)] = listing
        return found

    async def unlist(self, rooms: list[str]) -> None:
        if rooms:
            await self.redis.hdel(ROOMS, *rooms)
