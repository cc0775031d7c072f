"""Linked devices' tokens and link codes on PostgreSQL, so a code made on one node is
redeemed on any other and the token it makes works on every node (docs/cluster.md).

The same tables and effects as SQLite's (``server/io/link_store.py``), written inside
:class:`~.pg_store.PgStore`'s transaction. A code is used up in one statement
(:meth:`PgLinks.take`): of two nodes redeeming it at once, one gets it.
"""

from __future__ import annotations

from typing import Any

import psycopg

from ..core.effects import DropLinkCode, SaveLinkCode, SaveToken
from ..io.link_store import LinkEffect, LinkTables

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
"""

LINK_KINDS = (SaveToken, SaveLinkCode, DropLinkCode)


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
        else:
            pg.execute("DELETE FROM link_codes WHERE code_hash = %s", (e.code_hash,))

    def forget(self, player: str) -> None:
        pg = self.connection()
        pg.execute("DELETE FROM identity_tokens WHERE player = %s", (player,))
        pg.execute("DELETE FROM link_codes WHERE player = %s", (player,))

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

    def player_of(self, token_digest: str) -> str | None:
        """The identity a linked device's token belongs to, if it is one."""
        row = (
            self.connection()
            .execute("SELECT player FROM identity_tokens WHERE token_hash = %s", (token_digest,))
            .fetchone()
        )
        return str(row[0]) if row else None
