"""One node's part in the cluster: leases, heartbeat, lobby, takeovers (docs/cluster.md).

Runs beside :class:`~gridhall.server.io.net.app.GameServer` on its event loop. Every third of a
lease it renews the leases of the rooms this node owns, says it is alive (with its ws
address) and lists its public rooms; then it looks for live rooms whose lease is gone
and whose owner is dead (or is this node, which let them go after a failed commit) and
takes them over: a new epoch from Redis,
a compare-and-set of the owner in PostgreSQL, and the room replayed from PostgreSQL as a
restart replays it (:meth:`ClusterHub.adopt`). Players then resume by token here.

Redis down: rooms this node owns go on (their writes are fenced in PostgreSQL, which
nobody else can move while Redis is down); what needs another node, or a lease, is
refused with ``cluster-unavailable``. When Redis is back the node re-registers, takes
its leases again (a Redis that restarted empty has none), and waits one lease before
taking anything over, so that every live node has had a beat to say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

import redis
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from ..io.net.connection import Connection
from ..io.runtime.tasks import stop_task
from .address_caps import AddressCaps
from .cluster_hub import ClusterHub
from .lease import RELEASE, Leases, epoch_key, owner_key
from .lease import as_text as _text
from .node import Registry, node_key
from .pg_bans import sync_bans
from .pg_links import sync_devices
from .pg_store import PgStore
from .relay import PLAYER_TTL_MS, Relay, RemoteLink, in_key, out_key, player_key
from .signing import Signer

if TYPE_CHECKING:
    from ..core.session import Session
    from ..io.net.app import GameServer

log = logging.getLogger("gridhall.cluster")

MOVED_CLOSE = 1012
MOVED_REASON = "this room moved to another server node; reconnect to find it"


class NoSecret(ValueError):
    """A cluster node was started without the cluster secret (docs/cluster.md)."""


class ClusterService:
    """See the module docstring."""

    def __init__(self, server: GameServer, address: str) -> None:
        config = server.config
        assert config.cluster and isinstance(server.store, PgStore)
        assert isinstance(server.hub, ClusterHub)
        if not config.cluster_secret:
            raise NoSecret("a cluster node needs the cluster's secret (cluster_secret)")
        self.signer = Signer(config.cluster_secret)
        self.server = server
        self.store: PgStore = server.store
        self.hub: ClusterHub = server.hub
        self.node = self.store.node
        self.lease_ms = config.lease_ms
        self.redis: Any = aioredis.from_url(
            config.cluster,
            socket_timeout=max(0.5, config.lease_ms / 1000),
            socket_connect_timeout=max(0.5, config.lease_ms / 1000),
        )
        timeout = max(0.5, config.lease_ms / 1000)
        self.leases = Leases(
            self.redis,
            self.node,
            self.lease_ms,
            now=redis.Redis.from_url(
                config.cluster, socket_timeout=timeout, socket_connect_timeout=timeout
            ),
        )
        self.registry = Registry(self.redis, self.node, address, self.lease_ms, self.signer)
        self.address = address
        self.available = False
        """Redis answered the last beat (else cross-node work is refused)."""
        self.nodes: dict[str, str] = {}
        """Live nodes' ws addresses, by node id (this one included)."""
        self.elsewhere: list[dict[str, Any]] = []
        """Other nodes' public rooms (what ``list-rooms`` adds)."""
        self.takeovers = 0
        self._listed: set[str] = set()
        self._unleased: set[str] = set()
        """Rooms made here whose lease is not taken yet (Redis was down)."""
        self._quiet_until = 0.0
        self._players_due = 0.0
        """When every player's whereabouts are written again (:meth:`_relay_beat`)."""
        self._cut_off = False
        """Redis stopped answering after this node had joined (said once, and again
        when it is back)."""
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.store.on_created = self._created
        self.store.on_dropped = self._dropped
        self.store.on_lost = self._lost
        self.store.on_written = self._written
        self._members: dict[str, frozenset[str]] = {}
        self.hub.elsewhere = lambda: self.elsewhere
        self.hub.fetch_by_id = self.store.identity_by_id
        self.hub.take_link = self.store.pg_links.take
        self.hub.token_revoked = self.store.pg_links.revoked
        self.hub.devices_of = lambda pid: (
            self.store.pg_links.tokens_of(pid),
            self.store.pg_links.devices(pid),
        )
        self.devices_since = time.time() - 60.0
        """Signed-out tokens read up to here (``pg_links.sync_devices``)."""
        self.caps = AddressCaps(self)
        """The per-address limits over the cluster (``address_caps.py``)."""
        self.hub.held_elsewhere = self.caps.held_elsewhere
        self.hub.shared_creations = self.caps.shared_creations
        self.relay = Relay(self)
        self.hub.available = lambda: self.available

    # -- lifecycle --------------------------------------------------------------
    async def start(self) -> None:
        await self._beat()
        await self.relay.reader.watch(in_key(self.node))  # (from now: an earlier run's
        # messages were for its connections; none is for this one before it owns a room)
        self._task = asyncio.get_running_loop().create_task(self._run())
        self.relay.start()
        log.info("cluster node %s at %s", self.node, self.address)

    async def close(self) -> None:
        """Stop beating and hand this node's rooms to the others (their leases go now,
        so a takeover does not wait for them to run out)."""
        await self.relay.close()
        if self._task is not None:
            await stop_task(self._task)
        with contextlib.suppress(RedisError, OSError):
            for room in list(self.store.epochs):
                await self.leases.release(room)
            await self.redis.delete(self.registry_key(), in_key(self.node), out_key(self.node))
        await self.redis.aclose()
        self.leases.now.close()

    def registry_key(self) -> str:
        return node_key(self.node)

    def addresses(self) -> list[str]:
        """Every live node's ws address, this node's first (``welcome.nodes``)."""
        return [self.address, *sorted(a for n, a in self.nodes.items() if n != self.node)]

    # -- the server's connections ------------------------------------------------
    async def admits(self, peer: str) -> bool:
        """One more connection from ``peer`` within the cluster's cap (``address_caps.py``)."""
        return await self.caps.admits(peer)

    async def intercept(self, session: Session, frame: bytes | str) -> bool:
        """True if the relay took ``frame`` (see :meth:`Relay.intercept`)."""
        return await self.relay.intercept(session, frame)

    def local(self, session: Session) -> bool:
        """True if the relay would not take a frame of ``session`` (see :meth:`Relay.local`)."""
        return self.relay.local(session)

    def gone(self, session: Session) -> None:
        """``session``'s connection ended (see :meth:`Relay.gone`)."""
        self.relay.gone(session)

    def left(self, peer: str) -> None:
        """A connection from ``peer`` ended (``address_caps.py``)."""
        self.caps.left(peer)

    # -- the store's news ---------------------------------------------------------
    def _created(self, room: str, epoch: int) -> None:
        try:
            if self.available and self.leases.hold_now(room, epoch):
                made = self.hub.lobby.rooms.get(room)
                if made is not None and made.address:
                    self.caps.room_made(made.address)
                return
        except (RedisError, OSError) as exc:
            log.warning("room %s: no lease yet (%s); retried on the next beat", room, exc)
        self._unleased.add(room)
        self._wake.set()

    def _written(self, rooms: set[str]) -> None:
        """Where each player of these rooms is goes to Redis as soon as it changes,
        before anyone hears of it: after a failover, whichever node a player reaches
        finds its room through it (:meth:`Relay._resume_elsewhere`)."""
        lobby = self.hub.lobby.rooms
        changed: dict[str, str] = {}
        left: list[tuple[str, str]] = []
        for code in rooms:
            room = lobby.get(code)
            members = frozenset(m.id for m in room.members if not m.bot) if room else None
            if members is not None and members != self._members.get(code):
                left += [(pid, code) for pid in self._members.get(code, frozenset()) - members]
                self._members[code] = members
                changed.update((pid, code) for pid in members)
            elif members is None:
                self._members.pop(code, None)
        if (changed or left) and self.available:
            try:
                pipe = self.leases.now.pipeline(transaction=False)
                for pid, code in changed.items():
                    pipe.set(player_key(pid), code, px=PLAYER_TTL_MS)
                for pid, code in left:  # (unless it names another room by now)
                    pipe.eval(RELEASE, 1, player_key(pid), code)
                pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("cluster: could not say where players are (%s)", exc)
                self._players_due = 0.0  # (said again on the next beat)

    def _dropped(self, room: str) -> None:
        """A room closed: every key it made in Redis goes (its lease, epoch, listing,
        streams, and where its last members were)."""
        self._unleased.discard(room)
        members = self._members.pop(room, frozenset())
        self.spawn(self._release(room, members))

    def _lost(self, room: str) -> None:
        """Another node owns ``room`` now: stop serving it at once, and close its
        people's connections so they find it where it is."""
        self._unleased.discard(room)
        for pid in self.hub.let_go(room):
            session = self.server.sessions.get(pid)
            if session is None:
                continue
            link = session.link
            if isinstance(link, Connection):
                link.close(MOVED_CLOSE, MOVED_REASON, flush=False)  # nothing refused goes out
            elif isinstance(link, RemoteLink):
                link.moved(MOVED_REASON)  # its edge follows the room for it
            else:
                link.close(MOVED_CLOSE, MOVED_REASON)

    async def _release(self, room: str, members: frozenset[str] = frozenset()) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release(room)
            await self.registry.unlist([room])
            self._listed.discard(room)
            await self.redis.delete(epoch_key(room))
            for pid in members:
                await self.redis.eval(RELEASE, 1, player_key(pid), room)

    def spawn(self, work: Any) -> None:
        """Run ``work`` beside the beat (its failure is dropped: the next beat mends)."""
        task = asyncio.get_running_loop().create_task(work)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    # -- the beat ---------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            # asyncio.timeout, not wait_for: on 3.11 wait_for can lose a stop's cancel
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.lease_ms / 3000):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self._beat()
                if time.monotonic() >= self._quiet_until:
                    await self._take_over_dead_rooms()
            except (RedisError, OSError) as exc:
                if not self._cut_off:
                    log.warning(
                        "cluster: Redis is unreachable (%s); serving the rooms "
                        "this node owns, refusing cross-node work",
                        exc,
                    )
                self.available = False
                self._cut_off = True
            except Exception:
                log.exception("cluster: beat failed")

    async def _beat(self) -> None:
        for room in sorted(self._unleased):
            epoch = self.store.epochs.get(room)
            if epoch is not None:
                await self.leases.hold(room, epoch)
            self._unleased.discard(room)
        owned = [r for r in self.store.epochs if r not in self._unleased]
        for room in await self.leases.renew(owned):
            log.warning("room %s: its lease is held by another node", room)
            self.store.disown(room)
            self._lost(room)
        rooms = self.hub.lobby.rooms
        listings = {
            code: rooms[code].summary()
            for code in self.store.epochs
            if code in rooms and not rooms[code].private and not rooms[code].closed
        }
        gone = sorted(self._listed - set(listings))
        rejoined = await self.registry.beat(listings, gone)
        self._listed = set(listings)
        refresh = rejoined or not self.available or time.monotonic() >= self._players_due
        if rejoined or not self.available:
            if self._cut_off:
                log.warning("cluster: Redis answers; node %s is back in the cluster", self.node)
            self._quiet_until = time.monotonic() + self.lease_ms / 1000
        self.available = True
        self._cut_off = False
        await self._relay_beat(refresh)
        await self.caps.beat()
        self.nodes = await self.registry.alive()
        sync_bans(self.server, time.time())  # bans made on other nodes hold here
        self.devices_since = sync_devices(self.server, self.devices_since)
        listed = getattr(self.hub, "nodes", None)  # welcome.nodes (server/core/cluster_nodes.py)
        if listed is not None:
            listed.own = self.address
            listed.peers = tuple(a for n, a in sorted(self.nodes.items()) if n != self.node)
        self.elsewhere = [
            {**listing, "address": self.nodes[listing["node"]]}  # (its node's, signed)
            for code, listing in (await self.registry.listings()).items()
            if listing.get("node") != self.node
            and code not in rooms
            and listing.get("node") in self.nodes
        ]

    async def _relay_beat(self, refresh: bool) -> None:
        """Let relayed clients of a room whose owner changed go (to resume where it is
        now). With ``refresh``, say again where every player of this node's rooms is:
        :meth:`_written` says it as it changes, so only a Redis that lost it (restarted,
        or cut off when it changed) and a key near its expiry need it again; a thousand
        keys rewritten every beat were a burst on the event loop that made the tail."""
        pipe = self.redis.pipeline(transaction=False)
        if refresh:
            for pid, room in self.relay.players().items():
                pipe.set(player_key(pid), room, px=PLAYER_TTL_MS)
        relayed = sorted(self.relay.proxied_rooms())
        if relayed:
            pipe.mget([owner_key(room) for room in relayed])
        answers = await pipe.execute() if relayed or refresh else []
        if refresh:
            self._players_due = time.monotonic() + PLAYER_TTL_MS / 4000
        owners = answers[-1] if relayed else []
        self.relay.check_owners(
            {room: None if o is None else _text(o) for room, o in zip(relayed, owners)}
        )

    async def _take_over_dead_rooms(self) -> None:
        self.store.connected()
        for room, node, epoch in self.store.live_rooms():
            if self.store.holds(room) or (node != self.node and node in self.nodes):
                continue  # owned (or being made) here, or its owner lives (a live node's room may be
                # between its creation and its lease when Redis blinked)
            if await self.leases.held(room) or (
                node != self.node and await self.registry.is_alive(node)
            ):
                continue  # (a node that registered since this beat's look)
            await self.take_over(room, (node, epoch))  # (this node's own, let go, too)

    async def take_over(self, room: str, previous: tuple[str, int]) -> bool:
        """Own ``room`` (whose owner ``previous`` is dead) and replay it here. What
        edges send it from the moment the lease names this node (a player's ``open``)
        waits until the replay is done (:meth:`Relay.landing`), then is handled."""
        self.relay.landing(room)
        try:
            return await self._take_over(room, previous)
        finally:
            self.relay.landed(room)

    async def _take_over(self, room: str, previous: tuple[str, int]) -> bool:
        epoch = await self.leases.take(room)
        if epoch is None:
            return False
        claimed = self.store.claim(room, epoch, previous)
        saved = self.store.load_room(room) if claimed is not None else None
        if claimed is None or saved is None:
            self.store.disown(room)
            await self.leases.release(room)
            return False
        await self.leases.raise_epoch(room, claimed)
        now = time.time()
        down_since = self.store.alive_at(previous[0]) or now
        online = list(self.server.sessions)
        effects = self.hub.adopt(saved, self.store.identities(), now, down_since, online)
        self.server.execute(effects)
        if room not in self.hub.lobby.rooms:  # set aside (or closed by its own journal)
            await self.server.flushed()  # written under this node's epoch, then let go
            self.store.disown(room)
            await self.leases.release(room)
            return False
        self.takeovers += 1
        with contextlib.suppress(RedisError, OSError):
            await self.registry.unlist([room])
        log.warning(
            "room %s taken over from node %s (epoch %d)",
            room,
            previous[0],
            claimed,
            extra={"room": room},
        )
        return True
