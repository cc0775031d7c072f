"""Where a client goes when its server node is gone (PROTOCOL.md "Clusters").

A node of a cluster lists every node in ``welcome.nodes``, itself first. When the
connection drops, the session tries the address it was on first, then the other
nodes in order (one *round*), pausing with backoff between rounds, and after
:data:`ROUNDS` failed rounds gives up and says so. Wherever it lands it says
``hello`` with its token, so a node that knows the token seats the player again.

``welcome.nodes`` is the server's data: only well-formed ``ws``/``wss`` addresses
are kept, and only so many, so a hostile server cannot make the client dial
``file:`` URLs or loop over a million addresses.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from gridhall.protocol.i18n import _, ngettext

MAX_NODES = 32
"""Node addresses kept from one ``welcome``."""
MAX_URL = 200
"""Characters of one node address at most."""
ROUNDS = 6
"""Rounds over every node (with backoff between them) before the client gives up."""


def node_addresses(raw: object) -> list[str]:
    """The usable addresses of ``welcome.nodes``, in order, each once."""
    if not isinstance(raw, list | tuple):
        return []
    found: dict[str, None] = {}
    for item in raw:
        url = _address(item)
        if url is not None:
            found.setdefault(url, None)
        if len(found) >= MAX_NODES:
            break
    return list(found)


def _address(item: object) -> str | None:
    if not isinstance(item, str) or len(item) > MAX_URL:
        return None
    try:
        parts = urlsplit(item.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme.lower() not in ("ws", "wss") or not parts.hostname or port is None:
        return None
    if (
        parts.username
        or parts.password
        or parts.query
        or parts.fragment
        or parts.path not in ("", "/")
    ):
        return None
    if not all(ch.isascii() and ch.isprintable() and ch != " " for ch in item.strip()):
        return None
    return item.strip()


@dataclass
class Route:
    """One failover: the addresses to try (the current one first) and how far we got."""

    order: list[str]
    at: int = 0
    rounds: int = 0
    """Rounds over :attr:`order` that failed."""

    @classmethod
    def from_(cls, current: str, nodes: list[str]) -> Route:
        return cls([current, *(n for n in nodes if n != current)])

    @property
    def current(self) -> str:
        return self.order[self.at]

    def failed(self) -> bool:
        """The current address failed: move on. True when that ends a round (every
        address tried once); :attr:`current` is then the first again."""
        self.at += 1
        if self.at < len(self.order):
            return False
        self.at = 0
        self.rounds += 1
        return True


def reconnecting_text(address: str) -> str:
    """The line a UI shows while the session tries ``address`` again or anew."""
    return _("Reconnecting to {address}…", address=address)


def gave_up_text(count: int) -> str:
    """The line a UI shows when no node answered for :data:`ROUNDS` rounds."""
    return ngettext(
        "The server did not answer; gave up. Reconnect to try again.",
        "None of the {count} servers of this cluster answered; gave up. Reconnect to try again.",
        count,
        count=count,
    )
