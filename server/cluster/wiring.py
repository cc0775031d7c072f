"""How a server becomes a cluster node: the hub it runs and the service beside it.

Imported by the server in every mode; it imports the cluster's libraries only when the
configuration asks for a cluster, so a single process needs none of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.cluster_settings import redacted
from ..core.config import ServerConfig
from ..core.entropy import Entropy
from ..core.hub import Hub
from ..io.netinfo import lan_addresses

if TYPE_CHECKING:
    from ..io.app import GameServer
    from ..io.store_api import RoomStore
    from .service import ClusterService

WILDCARDS = ("", "0.0.0.0", "::")


class ClusterUnreachable(RuntimeError):
    """A node cannot start: Redis or PostgreSQL refused it or did not answer (the
    message names which, at which URL without its password, and why)."""


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
