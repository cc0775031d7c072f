"""How a server becomes a cluster node, as the I/O layer sees it: two small interfaces.

The cluster (``server/cluster/``) sits above the I/O layer: it drives the server, its
store and its connections. So the server never imports it. Whoever builds a
:class:`~gridhall.server.io.net.app.GameServer` hands it a :class:`Clustering`, which opens
the store and makes the hub a configuration asks for and, once the server listens,
starts this node's part in the cluster (a :class:`ClusterNode`); the command line hands
it the cluster's (``server/cluster/wiring.py``). Without one the server is a single
process on SQLite (:class:`SingleProcess`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...core.hub import Hub
from ..store.store_api import RoomStore, open_local

if TYPE_CHECKING:
    from ...core.config import ServerConfig
    from ...core.entropy import Entropy
    from ...core.session import Session
    from .app import GameServer


class ClusterNode(Protocol):
    """This node's running part in a cluster, as the server's connections meet it."""

    async def admits(self, peer: str) -> bool:
        """Whether one more connection from ``peer`` keeps its address within the
        per-address cap counted over every node (counted there when it does)."""

    async def intercept(self, session: Session, frame: bytes | str) -> bool:
        """True if the cluster took ``frame`` (relayed to the node owning the room);
        False: the session handles it here."""

    def local(self, session: Session) -> bool:
        """True if a frame from ``session`` is surely this node's to handle, at once:
        :meth:`intercept` would say False without waiting for anything."""

    def left(self, peer: str) -> None:
        """A connection from ``peer`` ended."""

    def gone(self, session: Session) -> None:
        """``session``'s connection ended (a relayed one ends at the room's owner too)."""

    async def close(self) -> None:
        """Leave the cluster (this node's rooms go to the others)."""


class Clustering(Protocol):
    """What a server is built with: its store, its hub, and its part in a cluster."""

    def open_store(self, config: ServerConfig) -> RoomStore:
        """The store ``config`` asks for."""

    def hub(self, config: ServerConfig, store: RoomStore, entropy: Entropy) -> Hub:
        """The hub for ``config``, over ``store``, drawing its tokens and codes from
        ``entropy``."""

    async def start(self, server: GameServer) -> ClusterNode | None:
        """Join the cluster once ``server`` listens; None when there is none to join."""


class SingleProcess:
    """One process alone: the SQLite store, the plain hub, no cluster."""

    def open_store(self, config: ServerConfig) -> RoomStore:
        if config.store or config.cluster:
            raise ValueError(
                "a server with --store or --cluster is built with the cluster's wiring: "
                "GameServer(config, ClusterWiring()) (server/cluster/wiring.py), as "
                "gridhall-server does"
            )
        return open_local(config)

    def hub(self, config: ServerConfig, store: RoomStore, entropy: Entropy) -> Hub:
        return Hub(config, entropy)

    async def start(self, server: GameServer) -> ClusterNode | None:
        return None
