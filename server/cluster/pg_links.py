"""Linked devices' tokens and link codes on PostgreSQL, so a code made on one node is
redeemed on any other and the token it makes works on every node (docs/cluster.md).

The same tables and effects as SQLite's (``server/io/store/link_store.py``), written inside
:class:`~.pg_store.PgStore`'s transaction. A code is used up in one statement
(:meth:`PgLinks.take`): of two nodes redeeming it at once, one gets it.

A device signed out on one node must stop working on all of them: its token's rows go,
and a row in ``revoked_tokens`` says so. A node asks for it before it lets a token it
knows in memory resume an identity (:meth:`PgLinks.revoked`), and reads the new ones on
every beat (:func:`sync_devices`), closing that device's connection if it is here.
Those rows are deleted after :data:`TOMBSTONE_DAYS`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import psycopg

from ..core.devices import SIGNED_OUT, SIGNED_OUT_REASON
from ..core.effects import DropLinkCode, DropToken, SaveDevice, SaveLinkCode, SaveToken
from ..io.store.link_store import READ_DEVICES, DeviceRow, LinkEffect, LinkTables, device_row

if TYPE_CHECKING:
    from ..io.net.app import GameServer

log = logging.getLogger("gridhall.cluster")

SCHEMA = """
CREATE TABLE IF NOT EXISTS identity_tokens (
    token_hash text PRIMARY KEY,
    player text NOT NULL
);
CREATE INDEX IF NOT EXISTS identity_tokens_player ON identity_tokens(player);
CREATE TABLE IF NOT EXISTS link_codes (
    code_hash text PRIMARY KEY,
    player text NOT NULL,
    expires double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS link_codes_player ON link_codes(player);
CREATE TABLE IF NOT EXISTS devices (
    token_hash text PRIMARY KEY,
    player text NOT NULL,
    name text NOT NULL,
    created_at double precision NOT NULL,
    last_seen double precision NOT NULL
);
ALTER TABLE devices ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT '';
ALTER TABLE devices ADD COLUMN IF NOT EXISTS platform text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS devices_player ON devices(player);
CREATE TABLE IF NOT EXISTS revoked_tokens (
    token_hash text PRIMARY KEY,
    player text NOT NULL,
    at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS revoked_tokens_at ON revoked_tokens(at);
"""
SAVE_DEVICE = (
    "INSERT INTO devices (token_hash, player, name, kind, platform, created_at, last_seen)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (token_hash) DO UPDATE SET"
    " name = EXCLUDED.name, kind = EXCLUDED.kind, platform = EXCLUDED.platform,"
    " last_seen = EXCLUDED.last_seen"
)
TOMBSTONE_DAYS = 1.0
"""Days a revoked token's row is kept for the other nodes to read (a node down longer
still refuses the token: the rows that made it work are gone)."""

LINK_KINDS = (SaveToken, SaveLinkCode, DropLinkCode, SaveDevice, DropToken)


class PgLinks(LinkTables):
    """:class:`LinkTables` over a psycopg connection (the store's, given as a callable
    so a connection made again after PostgreSQL dropped it is used)."""

    def __init__(self, connection: Any) -> None:  # no SQLite: nothing of the base's state
        self.connection = connection

    def apply(self, e: LinkEffect) -> None:
        pg = self.connection()
        if isinstance(e, SaveToken):
            pg.execute(
                "INSERT INTO identity_tokens (token_hash, player) VALUES (%s, %s)"
                " ON CONFLICT (token_hash) DO UPDATE SET player = EXCLUDED.player",
                (e.token_hash, e.player),
            )
        elif isinstance(e, SaveLinkCode):
            pg.execute("DELETE FROM link_codes WHERE player = %s", (e.player,))
            pg.execute(
                "INSERT INTO link_codes (code_hash, player, expires) VALUES (%s, %s, %s)"
                " ON CONFLICT (code_hash) DO UPDATE SET player = EXCLUDED.player,"
                " expires = EXCLUDED.expires",
                (e.code_hash, e.player, e.expires),
            )
        elif isinstance(e, SaveDevice):
            pg.execute(SAVE_DEVICE, e.row())
        elif isinstance(e, DropToken):
            pg.execute("DELETE FROM identity_tokens WHERE token_hash = %s", (e.token_hash,))
            pg.execute("DELETE FROM devices WHERE token_hash = %s", (e.token_hash,))
            pg.execute(
                "INSERT INTO revoked_tokens VALUES (%s, %s, EXTRACT(EPOCH FROM now()))"
                " ON CONFLICT (token_hash) DO NOTHING",
                (e.token_hash, e.player),
            )
        else:
            pg.execute("DELETE FROM link_codes WHERE code_hash = %s", (e.code_hash,))

    def forget(self, player: str) -> None:
        pg = self.connection()
        pg.execute("DELETE FROM identity_tokens WHERE player = %s", (player,))
        pg.execute("DELETE FROM devices WHERE player = %s", (player,))
        pg.execute("DELETE FROM link_codes WHERE player = %s", (player,))

    def devices(self, player: str | None = None) -> list[DeviceRow]:
        """Device rows: every one, or ``player``'s."""
        rows = (
            self.connection().execute(READ_DEVICES + " WHERE player = %s", (player,))
            if player is not None
            else self.connection().execute(READ_DEVICES)
        ).fetchall()
        return [device_row(r) for r in rows]

    def tokens_of(self, player: str) -> list[str]:
        """The hashes of ``player``'s linked devices' tokens (made on any node)."""
        return [
            str(r[0])
            for r in self.connection()
            .execute("SELECT token_hash FROM identity_tokens WHERE player = %s", (player,))
            .fetchall()
        ]

    def revoked(self, token_digest: str) -> bool:
        """Was this token signed out (on any node)? PostgreSQL unreachable: not known
        to be, so False (the node's memory decides, as for every other lookup)."""
        try:
            row = (
                self.connection()
                .execute("SELECT 1 FROM revoked_tokens WHERE token_hash = %s", (token_digest,))
                .fetchone()
            )
        except psycopg.Error:
            return False
        return row is not None

    def revoked_since(self, since: float) -> list[tuple[str, str, float]]:
        """Tokens signed out at or after ``since`` (database time): (player, hash, at);
        rows older than :data:`TOMBSTONE_DAYS` are deleted."""
        pg = self.connection()
        pg.execute(
            "DELETE FROM revoked_tokens WHERE at < EXTRACT(EPOCH FROM now()) - %s",
            (TOMBSTONE_DAYS * 86400.0,),
        )
        return [
            (str(r[0]), str(r[1]), float(r[2]))
            for r in pg.execute(
                "SELECT player, token_hash, at FROM revoked_tokens WHERE at >= %s ORDER BY at",
                (since,),
            ).fetchall()
        ]

    def tokens(self) -> list[tuple[str, str]]:
        return [
            (str(r[0]), str(r[1]))
            for r in self.connection()
            .execute("SELECT player, token_hash FROM identity_tokens")
            .fetchall()
        ]

    def codes(self, now: float) -> list[tuple[str, str, float]]:
        pg = self.connection()
        pg.execute("DELETE FROM link_codes WHERE expires <= %s", (now,))
        return [
            (str(r[0]), str(r[1]), float(r[2]))
            for r in pg.execute("SELECT code_hash, player, expires FROM link_codes").fetchall()
        ]

    def take(self, digest: str) -> tuple[str, float] | None:
        """The live code ``digest`` (its player and end), used up now; None if it is
        unknown, used (here or on another node) or expired."""
        try:
            row = (
                self.connection()
                .execute(
                    "DELETE FROM link_codes WHERE code_hash = %s RETURNING player, expires",
                    (digest,),
                )
                .fetchone()
            )
        except psycopg.Error:
            return None  # PostgreSQL unreachable: the code is refused, and kept
        return (str(row[0]), float(row[1])) if row else None


def sync_devices(server: GameServer, since: float) -> float:
    """Tokens signed out on any node since ``since`` stop working here too; a connection
    of such a device here is closed (4001). Returns where to read from next time.
    PostgreSQL unreachable: nothing changes, and the same rows are read next time."""
    assert isinstance(server.store.links, PgLinks)
    try:
        revoked = server.store.links.revoked_since(since)
    except psycopg.Error:
        return since
    hub = server.hub
    for player, digest, at in revoked:
        since = max(since, at)
        ident = hub.identities.by_id.get(player)
        if ident is None:
            continue
        hub.identities.revoke(ident, digest)  # (a hello here with it may have done so)
        session = server.sessions.get(player)
        if session is not None and ident.device == digest and not session.link.closed:
            log.warning("%s: a device signed out on another node", player, extra={"player": player})
            server.close_link(session.link, SIGNED_OUT, SIGNED_OUT_REASON)
    return since
