"""A player who comes back while its room is being taken over (docs/cluster.md).

Between an owner's death and the takeover, a room has no live owner: its lease is
gone or held by a dead node. A player whose token says hello in that window would be
welcomed roomless; instead the node it reached waits, bounded, for the room's new
owner: if that is this node, the takeover puts the player back in its seat
(:meth:`ClusterHub.adopt` resumes whoever is connected); if another node, the player is
relayed to it. If nobody took the room over in time, the connection is closed with
1012 and a reason, and the client's reconnect loop (which every client has, for
restarts) tries again.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from gridhall.protocol.i18n import gettext as _

from ..core.session import Session
from ..io.net.connection import Connection
from .lease import owner_key

if TYPE_CHECKING:
    from .service import ClusterService

MOVING_CLOSE = 1012
POLL = 0.1
"""Seconds between two looks at the room's lease while waiting."""
WAIT_LEASES = 3
"""How many leases a player waits for a takeover: one for the lease to run out, a
third of one for the next beat, and room for the replay on a busy machine."""


def moving_reason() -> str:
    """The close reason a client sees when its room did not land in time."""
    return _("your room is moving to another server node; reconnect in a moment")


async def wait_for_owner(
    service: ClusterService, session: Session, room: str, leaving: str | None = None
) -> str | None:
    """The node that owns ``room`` once its takeover is done (this node's id if it took
    it here), or None: the room is gone (the player is simply roomless), the client
    left, or the wait ran out (the client is then closed to reconnect). ``leaving`` is
    an owner that let the room go: a lease that still names it is waited past."""
    if service.store.owner(room) is None:
        return None  # the room ended: nothing to wait for
    link = session.link
    if isinstance(link, Connection):
        service.server.unwelcomed.leave(link)  # it said hello: no hello timer
    deadline = time.monotonic() + WAIT_LEASES * service.lease_ms / 1000
    registry, redis = service.registry, service.redis
    while not link.closed:
        if room in service.hub.lobby.rooms:
            return service.node  # taken over here: the adoption seated the player
        if time.monotonic() >= deadline:
            break  # (looked at after the room: a takeover that stalled this node's
            # loop past the deadline still seated the player here)
        owner = await redis.get(owner_key(room))
        if owner is not None:
            node = str(owner.decode() if isinstance(owner, bytes) else owner)
            if node not in (service.node, leaving) and await registry.is_alive(node):
                return node
        await asyncio.sleep(POLL)
    if not link.closed:
        link.close(MOVING_CLOSE, moving_reason())
    return None
