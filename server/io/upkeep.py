"""The server's life around its connections: the rooms brought back at start, the
store's "still running" mark and pruning on timers, and serving until a signal.

Apart from :class:`~gridhall.server.io.app.GameServer` because none of it is about a
connection: it is what a server does once at start, now and then while it runs, and
once at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("gridhall.server")

ALIVE_EVERY = 2.0
"""Seconds between the store's "still running" marks (the downtime a restart skips)."""
PRUNE_EVERY = 5.0
PRUNE_AGAIN = 0.05
"""Seconds between the store's pruning batches (server/io/retention.py): every few
seconds, and soon again while one batch was not enough."""


def restore(server: GameServer) -> None:
    """Bring back the identities and rooms the store holds (a restart)."""
    store = server.store
    identities, rooms = store.load_live()
    quarantined = store.quarantined()
    if not identities and not rooms and not quarantined:
        return
    now = time.time()
    down_since = store.alive_at() or now
    server.activity.restored(rooms, now)
    links = (store.links.tokens(), store.links.codes(now))
    devices = store.links.devices()
    server.execute(
        server.hub.restore(identities, rooms, now, down_since, links, devices, quarantined)
    )
    server.carrier.flush()
    for q in quarantined:  # set aside at an earlier start: not tried again
        log.warning(
            "room %s stays set aside (%s); see gridhall-server rooms --quarantined",
            q.code,
            q.reason,
            extra={"room": q.code},
        )


class Upkeep:
    """The store's timed chores while the server runs: the alive mark and pruning."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.stopped = False
        self._alive: asyncio.TimerHandle | None = None
        self._prune_timer: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self.mark_alive()
        self.prune()

    def stop(self) -> None:
        self.stopped = True
        if self._alive is not None:
            self._alive.cancel()
        if self._prune_timer is not None:
            self._prune_timer.cancel()

    def mark_alive(self) -> None:
        self._alive = None
        if self.stopped:
            return
        try:
            self.server.store.mark_alive(time.time())
        except Exception:
            log.exception("could not write to the store")
        self._alive = asyncio.get_running_loop().call_later(ALIVE_EVERY, self.mark_alive)

    def prune(self) -> None:
        """One small batch of history past the retention limits, then the next."""
        self._prune_timer = None
        if self.stopped:
            return
        more = False
        try:
            more = self.server.store.prune(time.time())
        except Exception:
            log.exception("could not prune the store")
        self._prune_timer = asyncio.get_running_loop().call_later(
            PRUNE_AGAIN if more else PRUNE_EVERY, self.prune
        )


async def run_until_signalled(
    server: GameServer, on_ready: Callable[[GameServer], None] | None = None
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down cleanly. The signals are the
    server's from before it starts: a Ctrl-C while it starts (probing engines,
    joining a cluster) ends the start, never with a traceback."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    starting = asyncio.ensure_future(server.start())
    stopping = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((starting, stopping), return_when=asyncio.FIRST_COMPLETED)
        if starting.done():
            starting.result()  # its error, if it failed (e.g. the port is taken)
        else:
            starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await starting
        if not stopping.done():
            if on_ready is not None:
                on_ready(server)
            await stopping
    finally:
        stopping.cancel()
    log.info("signal received: closing connections")
    await server.close()
