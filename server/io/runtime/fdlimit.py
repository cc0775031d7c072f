"""File descriptors: raise the soft limit, then size the socket caps to fit it.

A desktop's default soft limit (often 1024) is far below its hard limit, and a
server that runs out of descriptors cannot accept anyone: asyncio stops
accepting for a second at a time. So the server raises its soft limit to the
hard one at start, keeps :attr:`~.config.ServerConfig.fd_reserve` descriptors
for itself (database, worker pipes, listening sockets, discovery) and derives
its socket caps from the rest: sockets before the handshake get at most a
quarter of it, open connections what is left. Slow sockets then always meet a
cap before the descriptors run out, and a new player's connect still succeeds.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

try:
    import resource
except ImportError:  # pragma: no cover - Windows has no rlimits
    resource = None  # type: ignore[assignment]

log = logging.getLogger("gridhall.fdlimit")


def raise_soft_limit() -> int | None:
    """Raise this process's soft RLIMIT_NOFILE to its hard limit; the soft limit
    now in force (None where the platform has none)."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else 65536
    if soft == resource.RLIM_INFINITY:
        return None
    if soft >= target:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as exc:
        log.warning("could not raise the open-files limit from %d to %d: %s", soft, target, exc)
        return soft
    return target


@dataclass(frozen=True)
class SocketCaps:
    """How many sockets the server lets in at each stage, in total."""

    handshakes: int
    """Sockets before the WebSocket handshake is done."""
    connections: int
    """Open WebSocket connections."""
    ceiling: int | None = None
    """Sockets before the handshake there are descriptors for beside ``connections``
    (None: no limit known): the hard bound when a crowd arrives at once."""


def socket_caps(
    fd_limit: int | None, reserve: int, handshakes: int, connections: int
) -> SocketCaps:
    """The configured caps, lowered where ``fd_limit`` (less ``reserve``) cannot hold
    them all at once."""
    if fd_limit is None:
        return SocketCaps(handshakes, connections)
    budget = max(8, fd_limit - reserve)
    pending = min(handshakes, max(4, budget // 4))
    open_ = min(connections, max(4, budget - pending))
    if (pending, open_) != (handshakes, connections):
        log.warning(
            "open-files limit %d: at most %d sockets before the handshake and %d "
            "connections (raise `ulimit -n` for more)",
            fd_limit,
            pending,
            open_,
        )
    return SocketCaps(pending, open_, max(pending, budget - open_))
