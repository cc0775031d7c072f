"""The operator's bans on PostgreSQL, so a ban made on one node holds on every node
(docs/cluster.md).

:class:`PgAdmin` is the store's admin tables with the bans moved to PostgreSQL (the
audit log and the admin-set settings stay in the node's SQLite file). Each node
reads the live bans again on every beat (:func:`sync_bans`): a ban made elsewhere
takes effect here within a third of a lease, and removes whoever it covers that is
connected here; a ban lifted elsewhere is lifted here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg

from ..core.bans import Ban
from ..io.store.admin_store import AdminTables

if TYPE_CHECKING:
    from ..io.net.app import GameServer

log = logging.getLogger("gridhall.cluster")

SCHEMA = """
CREATE TABLE IF NOT EXISTS bans (
    id bigserial PRIMARY KEY,
    address text,
    player text,
    token_hash text,
    name text,
    until double precision NOT NULL,
    reason text NOT NULL,
    created_at double precision NOT NULL
);
"""


class PgAdmin(AdminTables):
    """:class:`AdminTables` whose bans live in PostgreSQL (``connection``: the store's,
    as a callable, so one made again after PostgreSQL dropped it is used)."""

    def __init__(self, local: AdminTables, connection: Callable[[], Any]) -> None:
        self.db = local.db  # the audit log and settings: the node's own file
        self.audit_count = local.audit_count
        self.connection = connection

    def add_ban(
        self,
        address: str | None,
        player: str | None,
        token_hash: str | None,
        name: str | None,
        until: float,
        reason: str,
        now: float,
    ) -> Ban:
        pg = self.connection()
        pg.execute("DELETE FROM bans WHERE until <= %s", (now,))
        row = pg.execute(
            "INSERT INTO bans (address, player, token_hash, name, until, reason, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
            (address, player, token_hash, name, until, reason, now),
        ).fetchone()
        return Ban(int(row[0]), address, player, token_hash, name, until, reason)

    def remove_ban(self, ban_id: int) -> bool:
        cur = self.connection().execute("DELETE FROM bans WHERE id = %s", (ban_id,))
        return bool(cur.rowcount)

    def load_bans(self, now: float) -> list[Ban]:
        pg = self.connection()
        pg.execute("DELETE FROM bans WHERE until <= %s", (now,))
        return [
            Ban(int(r[0]), r[1], r[2], r[3], r[4], float(r[5]), str(r[6]))
            for r in pg.execute(
                "SELECT id, address, player, token_hash, name, until, reason FROM bans ORDER BY id"
            ).fetchall()
        ]


def sync_bans(server: GameServer, now: float) -> None:
    """Make this node's bans PostgreSQL's: new ones (made on another node) are added
    and enforced on whoever is connected here; lifted ones go. PostgreSQL unreachable:
    the bans known stay as they are."""
    try:
        stored = {b.ban: b for b in server.store.admin.load_bans(now)}
    except psycopg.Error:
        return
    bans = server.hub.bans
    for ban_id in [i for i in bans.by_id if i not in stored]:
        bans.remove(ban_id)
    for ban_id, ban in stored.items():
        if ban_id in bans.by_id:
            continue
        bans.add(ban)
        log.warning("ban %d made on another node: in force here", ban_id)
        ident = server.hub.identities.by_id.get(ban.player) if ban.player else None
        if ban.player is None or ident is not None:
            server.admin_channel.actions._enforce(ban, ident, now)  # as if made here
