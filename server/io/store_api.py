"""The store as the server sees it: one interface, two back ends.

:class:`RoomStore` is what :class:`~gridhall.server.io.app.GameServer` calls on its store.
SQLite's :class:`~gridhall.server.io.store.Store` implements it for one process (the
default, needing nothing); :class:`~gridhall.server.cluster.pg_store.PgStore` implements
it on PostgreSQL for several nodes sharing rooms (``docs/cluster.md``), where each live
room has one owner at a time and every journal write carries the owner's epoch as a
fencing token (SQLite ignores epochs: it has one owner).
"""

from __future__ import annotations

import sqlite3
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


class RoomStore(Protocol):
    """What the server keeps, and how it gets it back after a restart or a takeover."""

    db: sqlite3.Connection
    """The SQLite file history queries read (PostgreSQL's store keeps history there too)."""
    admin: AdminTables
    links: LinkTables
    ratings: RatingsTables
    pruner: Pruner

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
