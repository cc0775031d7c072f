"""The store's tables for link codes (part of ``server/io/store.py``'s file, connection
and transactions; see there for durability).

- ``identity_tokens``: more token hashes per identity, one per device it was
  linked to (the first device's stays in ``identities``);
- ``link_codes``: the live codes, by their sha256 only, with their owner and end.

Both go with their identity when it is forgotten. Created if missing, so a
database from before link codes simply gains them (no other change).
"""

from __future__ import annotations

import sqlite3

from ..core.effects import DropLinkCode, SaveLinkCode, SaveToken

SCHEMA = """
CREATE TABLE IF NOT EXISTS identity_tokens (
    token_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS identity_tokens_player ON identity_tokens(player);
CREATE TABLE IF NOT EXISTS link_codes (
    code_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS link_codes_player ON link_codes(player);
"""

LinkEffect = SaveToken | SaveLinkCode | DropLinkCode


class LinkTables:
    """Extra tokens and link codes on the store's connection (inside its transactions)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(SCHEMA)

    def apply(self, e: LinkEffect) -> None:
        if isinstance(e, SaveToken):
            self.db.execute(
                "INSERT OR REPLACE INTO identity_tokens (token_hash, player) VALUES (?, ?)",
                (e.token_hash, e.player),
            )
        elif isinstance(e, SaveLinkCode):
            self.db.execute("DELETE FROM link_codes WHERE player = ?", (e.player,))
            self.db.execute(
                "INSERT OR REPLACE INTO link_codes (code_hash, player, expires) VALUES (?, ?, ?)",
                (e.code_hash, e.player, e.expires),
            )
        else:
            self.db.execute("DELETE FROM link_codes WHERE code_hash = ?", (e.code_hash,))

    def forget(self, player: str) -> None:
        """``player``'s identity is gone: its other tokens and its code too."""
        self.db.execute("DELETE FROM identity_tokens WHERE player = ?", (player,))
        self.db.execute("DELETE FROM link_codes WHERE player = ?", (player,))

    def tokens(self) -> list[tuple[str, str]]:
        """Every (player, token hash) of a linked device."""
        return [
            (r[0], r[1]) for r in self.db.execute("SELECT player, token_hash FROM identity_tokens")
        ]

    def codes(self, now: float) -> list[tuple[str, str, float]]:
        """The live codes (code hash, player, expires); ended ones are deleted."""
        self.db.execute("DELETE FROM link_codes WHERE expires <= ?", (now,))
        return [
            (r[0], r[1], r[2])
            for r in self.db.execute("SELECT code_hash, player, expires FROM link_codes")
        ]
