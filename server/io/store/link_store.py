"""The store's tables for link codes (part of ``server/io/store/store.py``'s file, connection
and transactions; see there for durability).

- ``identity_tokens``: more token hashes per identity, one per device it was
  linked to (the first device's stays in ``identities``);
- ``link_codes``: the live codes, by their sha256 only, with their owner and end;
- ``devices``: per token (the first device's too) what the player's device list
  shows: its kind and platform (or an older client's ``name`` for it), when it was
  added and last seen (``server/core/devices.py``). A signed-out device's token goes
  from ``identity_tokens`` and ``devices`` at once.

All go with their identity when it is forgotten. Created if missing, so a
database from before link codes simply gains them (no other change); a ``devices``
table from before kinds gains its two columns (:func:`migrate`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from gridhall.protocol.devices import Description

from ...core.effects import DropLinkCode, DropToken, SaveDevice, SaveLinkCode, SaveToken

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
    last_seen REAL NOT NULL,
    kind TEXT NOT NULL DEFAULT '',
    platform TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS devices_player ON devices(player);
"""
DEVICE_COLUMNS = ("kind", "platform")
"""Added to ``devices`` with kinds (a table from before has them added, empty)."""
SAVE_DEVICE = (
    "INSERT OR REPLACE INTO devices (token_hash, player, name, kind, platform, created_at,"
    " last_seen) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
READ_DEVICES = "SELECT player, token_hash, name, kind, platform, created_at, last_seen FROM devices"

LinkEffect = SaveToken | SaveLinkCode | DropLinkCode | SaveDevice | DropToken
DeviceRow = tuple[str, str, Description, float, float]
"""(player, token hash, what the device is, created at, last seen)."""


def migrate(db: sqlite3.Connection) -> None:
    """A ``devices`` table from before kinds gains their columns (its rows keep their
    names, shown as they are)."""
    have = {str(row[1]) for row in db.execute("PRAGMA table_info(devices)")}
    for column in DEVICE_COLUMNS:
        if column not in have:
            db.execute(f"ALTER TABLE devices ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")


def device_row(row: Sequence[Any]) -> DeviceRow:
    """A row of :data:`READ_DEVICES` as a :data:`DeviceRow`."""
    player, digest, name, kind, platform, created_at, last_seen = row
    about = Description(str(kind), str(platform), str(name))
    return str(player), str(digest), about, float(created_at), float(last_seen)


class LinkTables:
    """Extra tokens and link codes on the store's connection (inside its transactions)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(SCHEMA)
        migrate(db)

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
            self.db.execute(SAVE_DEVICE, e.row())
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
        return [device_row(r) for r in self.db.execute(READ_DEVICES)]

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
