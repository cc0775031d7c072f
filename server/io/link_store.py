"""The store's tables for link codes (part of ``server/io/store.py``'s file, connection
and transactions; see there for durability).

- ``identity_tokens``: more token hashes per identity, one per device it was
  linked to (the first device's stays in ``identities``);
- ``link_codes``: the live codes, by their sha256 only, with their owner and end;
- ``devices``: per token (the first device's too) what the player's device list
  shows: its name, when it was added and last seen (``server/core/devices.py``). A
  signed-out device's token goes from ``identity_tokens`` and ``devices`` at once.

All go with their identity when it is forgotten. Created if missing, so a
database from before link codes simply gains them (no other change).
"""

from __future__ import annotations

import sqlite3

from ..core.effects import DropLinkCode, DropToken, SaveDevice, SaveLinkCode, SaveToken

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
CREATE TABLE IF NOT EXISTS devices (
    token_hash TEXT PRIMARY KEY,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS devices_player ON devices(player);
"""

LinkEffect = SaveToken | SaveLinkCode | DropLinkCode | SaveDevice | DropToken
DeviceRow = tuple[str, str, str, float, float]
"""(player, token hash, name, created at, last seen)."""


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
        elif isinstance(e, SaveDevice):
            self.db.execute(
                "INSERT OR REPLACE INTO devices VALUES (?, ?, ?, ?, ?)",
                (e.token_hash, e.player, e.name, e.created_at, e.last_seen),
            )
        elif isinstance(e, DropToken):
            self.db.execute("DELETE FROM identity_tokens WHERE token_hash = ?", (e.token_hash,))
            self.db.execute("DELETE FROM devices WHERE token_hash = ?", (e.token_hash,))
        else:
            self.db.execute("DELETE FROM link_codes WHERE code_hash = ?", (e.code_hash,))

    def forget(self, player: str) -> None:
        """``player``'s identity is gone: its other tokens, its devices and its code too."""
        self.db.execute("DELETE FROM identity_tokens WHERE player = ?", (player,))
        self.db.execute("DELETE FROM devices WHERE player = ?", (player,))
        self.db.execute("DELETE FROM link_codes WHERE player = ?", (player,))

    def devices(self) -> list[DeviceRow]:
        """Every device row (for the device lists after a restart)."""
        return [
            (str(r[0]), str(r[1]), str(r[2]), float(r[3]), float(r[4]))
            for r in self.db.execute(
                "SELECT player, token_hash, name, created_at, last_seen FROM devices"
            )
        ]

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
