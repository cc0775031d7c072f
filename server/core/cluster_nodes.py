"""The addresses of this cluster's nodes, as ``welcome.nodes`` tells clients.

A client whose node is gone tries the others (PROTOCOL.md "Clusters"). The list
comes from one small object so its source can change: today the operator's
``--peer`` flags; with ``--cluster`` the live nodes' heartbeats in Redis (the
cluster code replaces :attr:`NodeList.peers` as nodes come and go). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

WILDCARD_HOSTS = ("", "0.0.0.0", "::")
"""Listen addresses that mean "every interface" (as server/io/lan/discovery.py has them)."""

MAX_NODES = 32
"""Addresses sent in one ``welcome`` at most (clients keep no more either)."""


def node_url(text: str) -> str | None:
    """``ws(s)://host:port/`` for a node address, or None when it is not one (a
    ``--peer`` value, or a heartbeat's address)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("ws", "wss") or not parts.hostname or port is None:
        return None
    if parts.query or parts.fragment or parts.username or parts.password:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}/"


def page_origin(url: str) -> str | None:
    """The web origin (``http://host:port``, as server/core/origin.py normalises it) of a
    page served by the node at ws ``url``: a page loaded from one node may open its
    socket to another node of the same cluster."""
    normal = node_url(url)
    if normal is None:
        return None
    scheme, _, rest = normal.partition("://")
    return ("https" if scheme == "wss" else "http") + "://" + rest.rstrip("/")


def own_address(host: str, port: int, lan: Callable[[], list[str]]) -> str:
    """The address this node advertises: its listen host and port, or on a wildcard
    listen address the first LAN address (``lan()``, as the invite lines show)."""
    if host in WILDCARD_HOSTS:
        found = lan()
        host = found[0] if found else "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"ws://{host}:{port}/"


class NodeList:
    """This node's address and its peers'; see the module docstring."""

    def __init__(self, peers: Iterable[str] = ()) -> None:
        self.own: str | None = None
        """This node's address, set once the server has its port."""
        self.peers: tuple[str, ...] = tuple(u for u in map(node_url, peers) if u is not None)
        """The other nodes' addresses (normalised), in the order clients try them."""

    def addresses(self) -> list[str]:
        """Every node's address, this node first; empty when there is no other node
        (a single server sends no ``welcome.nodes``)."""
        others = [u for u in dict.fromkeys(self.peers) if u != self.own]
        if not others:
            return []
        return ([self.own] if self.own else [])[:1] + others[: MAX_NODES - 1]

    def origins(self) -> frozenset[str]:
        """The web origins of every node's pages (accepted like this node's own)."""
        return frozenset(
            o for o in map(page_origin, (self.own or "", *self.peers)) if o is not None
        )
