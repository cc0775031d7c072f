"""The node registry and the cluster's lobby, in Redis.

Each node keeps ``gridhall:node:{id}`` (a hash with its ws address) alive with an
expiry of one lease: a node whose key is gone is dead as far as the others go, and its
rooms are taken over once their own leases ran out too. ``gridhall:rooms`` maps each
public room's code to its listing (the node that owns it included), so every node's
``list-rooms`` shows the whole cluster; an owner rewrites its rooms' listings on each
beat, and a listing whose owner is dead is dropped by whichever node takes the room.

Both are signed with the cluster secret (:mod:`.signing`), with a time they are good
until (two leases after they were written, by the writer's clock): an entry written by
anyone else, or replayed after that, is no node and no listing here.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from .lease import PREFIX
from .lease import as_text as _text
from .signing import Signer

log = logging.getLogger("gridhall.cluster")

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


MAX_WARNED = 256
"""Refused entries whose node is named in the log (each once); past that, none."""


def _now_ms() -> int:
    return int(time.time() * 1000)


class Registry:
    """This node's entry, the others', and the shared lobby."""

    def __init__(self, redis: Any, node: str, address: str, lease_ms: int, signer: Signer) -> None:
        self.redis = redis
        self.node = node
        self.address = address
        self.lease_ms = lease_ms
        self.signer = signer
        self._warned: set[str] = set()

    def _until(self) -> int:
        """Until when what this node writes now is good (its clock): two leases."""
        return _now_ms() + 2 * self.lease_ms

    def entry(self) -> dict[str, Any]:
        """This node's registry entry, signed."""
        until = self._until()
        sig = self.signer.sign("node", self.node, self.address, until)
        return {"address": self.address, "until": until, "sig": sig}

    def _checked(self, node: str, fields: dict[bytes, bytes]) -> str | None:
        """The address of a node entry that is signed and not out of date, else None
        (said in the log, once per node name)."""
        address, until, sig = (fields.get(k) for k in (b"address", b"until", b"sig"))
        try:
            good = (
                address is not None
                and until is not None
                and self.signer.valid(sig, "node", node, address, until)
                and int(until) >= _now_ms()
            )
        except ValueError:
            good = False
        if good:
            return _text(address)
        if fields and node not in self._warned and len(self._warned) < MAX_WARNED:
            self._warned.add(node)
            log.warning(
                "cluster: the registry entry of node %r is not signed with this cluster's "
                "secret (or is out of date); ignored. A node started with another "
                "--cluster-secret, clocks far apart, or someone else writing to Redis.",
                node[:64],
            )
        return None

    async def beat(self, listings: dict[str, dict[str, Any]], gone: list[str]) -> bool:
        """Say this node is alive and list its public rooms; True if the node's key had
        expired or was lost (Redis restarted: wait a lease before taking rooms over)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.exists(node_key(self.node))
        pipe.hset(node_key(self.node), mapping=self.entry())
        pipe.pexpire(node_key(self.node), self.lease_ms)
        if listings:
            until = self._until()
            pipe.hset(
                ROOMS,
                mapping={
                    code: self._listing(code, listing, until) for code, listing in listings.items()
                },
            )
        if gone:
            pipe.hdel(ROOMS, *gone)
        answers = await pipe.execute()
        return not answers[0]

    def _listing(self, code: str, listing: dict[str, Any], until: int) -> str:
        """A listing as stored: its signature (hex), a space, then its JSON."""
        text = json.dumps(
            {**listing, "node": self.node, "address": self.address, "until": until},
            sort_keys=True,
        )
        return self.signer.sign("room", code, text).hex() + " " + text

    async def alive(self) -> dict[str, str]:
        """Every live node's id and ws address (signed entries only)."""
        nodes: dict[str, str] = {}
        keys = [k async for k in self.redis.scan_iter(match=node_key("*"), count=100)]
        if not keys:
            return nodes
        pipe = self.redis.pipeline(transaction=False)
        for key in keys:
            pipe.hgetall(key)
        for key, fields in zip(keys, await pipe.execute()):
            name = _text(key).removeprefix(node_key(""))
            address = self._checked(name, fields)
            if address is not None:
                nodes[name] = address
        return nodes

    async def live(self, names: list[str]) -> set[str]:
        """Those of ``names`` that are live nodes now (signed entries)."""
        if not names:
            return set()
        pipe = self.redis.pipeline(transaction=False)
        for name in names:
            pipe.hgetall(node_key(name))
        entries = await pipe.execute()
        return {n for n, e in zip(names, entries) if self._checked(n, e) is not None}

    def live_now(self, client: Any, names: list[str]) -> set[str]:
        """:meth:`live` over a synchronous client (before the event loop goes on)."""
        if not names:
            return set()
        pipe = client.pipeline(transaction=False)
        for name in names:
            pipe.hgetall(node_key(name))
        return {n for n, e in zip(names, pipe.execute()) if self._checked(n, e) is not None}

    async def is_alive(self, node: str) -> bool:
        """Whether ``node`` has a live, signed entry."""
        return self._checked(node, await self.redis.hgetall(node_key(node))) is not None

    async def listings(self) -> dict[str, dict[str, Any]]:
        """Every listed room of the cluster, by code (signed, up-to-date ones only)."""
        found: dict[str, dict[str, Any]] = {}
        now = _now_ms()
        for key, value in (await self.redis.hgetall(ROOMS)).items():
            code = _text(key)
            sig, _, text = _text(value).partition(" ")
            if not self.signer.valid(sig, "room", code, text):
                continue
            try:
                listing = json.loads(text)
            except ValueError:
                continue
            if isinstance(listing, dict) and int(listing.get("until", 0)) >= now:
                found[code] = listing
        return found

    async def unlist(self, rooms: list[str]) -> None:
        if rooms:
            await self.redis.hdel(ROOMS, *rooms)
