"""How a server becomes a cluster node: its store, the hub it runs and the service beside it.

:class:`ClusterWiring` is the :class:`~gridhall.server.io.clustering.Clustering` the
command line builds every server with (the I/O layer never imports the cluster); it
imports the cluster's libraries only when the configuration asks for a cluster or a
PostgreSQL store, so a single process needs none of them."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from ..core.cluster_settings import redacted
from ..core.config import ServerConfig
from ..core.entropy import Entropy
from ..core.hub import Hub
from ..io.netinfo import lan_addresses
from ..io.store_api import RoomStore, open_local

if TYPE_CHECKING:
    from ..io.app import GameServer
    from .service import ClusterService

WILDCARDS = ("", "0.0.0.0", "::")


class ClusterUnreachable(RuntimeError):
    """A node cannot start: Redis or PostgreSQL refused it or did not answer (the
    message names which, at which URL without its password, and why)."""


class ClusterWiring:
    """A server that is a cluster node with ``--cluster``, on PostgreSQL with ``--store``,
    else a single process on SQLite."""

    def open_store(self, config: ServerConfig) -> RoomStore:
        return open_store(config)

    def hub(self, config: ServerConfig, store: RoomStore, entropy: Entropy) -> Hub:
        return hub_for(config, store, entropy)

    async def start(self, server: GameServer) -> ClusterService | None:
        return await start_node(server)


def open_store(config: ServerConfig) -> RoomStore:
    """The store ``config`` asks for: SQLite (``--db``), or PostgreSQL (``--store``)
    with the SQLite file kept for history, ratings and the operator's tables."""
    local = open_local(config)
    if not config.store:
        return local
    import psycopg

    from .pg_store import PgStore

    if not config.node_id:  # one process alone keeps its name across restarts
        config.node_id = "n-" + secrets.token_hex(4) if config.cluster else "single"
    try:
        return PgStore(config.store, local, node=config.node_id, clustered=bool(config.cluster))
    except psycopg.Error as exc:
        local.close()
        raise ClusterUnreachable(
            f"cannot use PostgreSQL at {redacted(config.store)}: {str(exc).strip()}"
        ) from None


def hub_for(config: ServerConfig, store: RoomStore, entropy: Entropy) -> Hub:
    """The single-process hub, or a cluster node's (identities fetched from the store),
    drawing its tokens and codes from ``entropy``."""
    if not config.cluster:
        return Hub(config, entropy)
    from .cluster_hub import ClusterHub
    from .pg_store import PgStore

    assert isinstance(store, PgStore)
    hub = ClusterHub(config, entropy, fetch_identity=store.identity_by_token)
    hub.fetch_lost = store.lost_room
    return hub


def node_address(config: ServerConfig, port: int) -> str:
    """The ws:// URL this node gives clients: ``--node-address``, else the bound host
    (on a wildcard, the LAN address invites show) and port."""
    if config.node_address:
        return config.node_address
    host = config.host
    if host in WILDCARDS:
        host = next(iter(lan_addresses()), "127.0.0.1")
    if ":" in host:
        host = f"[{host}]"
    return f"ws://{host}:{port}/"


async def start_node(server: GameServer) -> ClusterService | None:
    """Join the cluster (``--cluster``) once the server listens; None without one."""
    if not server.config.cluster:
        return None
    from redis.exceptions import RedisError

    from .service import ClusterService

    service = ClusterService(server, node_address(server.config, server.port))
    try:
        await service.start()
    except (RedisError, OSError) as exc:
        raise ClusterUnreachable(
            f"cannot use Redis at {redacted(server.config.cluster)}: {exc}"
        ) from None
    return service
