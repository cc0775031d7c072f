"""The store as the server sees it: one interface, two back ends.

:class:`RoomStore` is what :class:`~gridhall.server.io.app.GameServer` calls on its store.
SQLite's :class:`~gridhall.server.io.store.Store` implements it for one process (the
default, needing nothing); :class:`~gridhall.server.cluster.pg_store.PgStore` implements
it on PostgreSQL for several nodes sharing rooms (``docs/cluster.md``), where each live
room has one owner at a time and every journal write carries the owner's epoch as a
fencing token (SQLite ignores epochs: it has one owner).

SQLite commits a turn on the event loop in microseconds; PostgreSQL's commit is a round
trip the loop must not wait for, so its store also has :attr:`RoomStore.commits`
(:class:`Commits`): the server hands it each turn's writes with that turn's sends, which
go out once the commit returned, in order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..core.effects import Stored
from ..core.hub import SavedRoom
from ..core.restoring import Quarantined
from .store import Store

if TYPE_CHECKING:
    from ..core.config import ServerConfig
    from .admin_store import AdminTables
    from .link_store import LinkTables
    from .ratings_store import RatingsTables
    from .retention import Pruner


class Commits(Protocol):
    """Turns committed off the event loop (``server/cluster/pg_commits.py``)."""

    timed: Callable[[float], None]
    """Told how long each commit took."""

    def submit(self, effects: list[Stored], then: Callable[[], None] | None) -> None:
        """Store ``effects``, then call ``then``, after every earlier turn's ``then``
        (at once if nothing is to be stored and nothing waits)."""

    async def settled(self) -> None:
        """Wait until every turn submitted so far is stored and done."""


class RoomStore(Protocol):
    """What the server keeps, and how it gets it back after a restart or a takeover."""

    db: sqlite3.Connection
    """The SQLite file history queries read (PostgreSQL's store keeps history there too)."""
    admin: AdminTables
    links: LinkTables
    ratings: RatingsTables
    pruner: Pruner

    @property
    def commits(self) -> Commits | None:
        """None: :meth:`write` commits on the event loop (SQLite); else the server's
        turns go here."""

    def write(self, effects: list[Stored]) -> None:
        """Apply store effects in one transaction (all or nothing per room)."""

    def load_live(self) -> tuple[list[dict[str, Any]], list[SavedRoom]]:
        """The identities and the live rooms this process is to restore at start."""

    def quarantined(self) -> list[Quarantined]:
        """The rooms set aside because they could not be restored."""

    def release_quarantined(self, code: str) -> bool:
        """Put a room set aside back among the live rooms (tried at the next start)."""

    def delete_quarantined(self, code: str) -> bool:
        """Delete a room set aside, with its journal."""

    def mark_alive(self, now: float) -> None:
        """Record that this server was running at ``now``."""

    def alive_at(self) -> float | None:
        """When this server was last known to run (the downtime a restart skips)."""

    def prune(self, now: float) -> bool:
        """One batch of history past the retention limits; True if more is left."""

    def save_analysis(
        self, game_id: int, engine: str, budget: float, moves: list[dict[str, Any]], made_at: float
    ) -> None:
        """Keep a finished game's engine analysis."""

    def close(self) -> None:
        """Flush and close."""


def open_local(config: ServerConfig) -> Store:
    """The SQLite store (``--db``): one process's, and a cluster node's history file
    (the cluster's PostgreSQL store, ``server/cluster/wiring.py``, keeps it beside)."""
    return Store(config.db, durable_commits=config.durable_commits, limits=config.retention())
