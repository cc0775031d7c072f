"""The store's tables for the server's operator: bans, the audit log, and the
settings changed from the admin page (part of ``server/io/store/store.py``'s file and
connection; see there for durability).

Each write is its own small transaction, committed before the action it records
takes effect (operator actions are rare). The audit log is bounded like the rest
of the history: past :data:`AUDIT_ROWS` rows (plus a margin, so the delete is
amortised) the oldest go.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from ...core.bans import Ban

AUDIT_ROWS = 10_000
"""Audit rows kept, the latest."""
AUDIT_MARGIN = 500

SCHEMA = """
CREATE TABLE IF NOT EXISTS bans (
    id INTEGER PRIMARY KEY,
    address TEXT,
    player TEXT,
    token_hash TEXT,
    name TEXT,
    until REAL NOT NULL,
    reason TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY,
    ts REAL NOT NULL,
    address TEXT NOT NULL,
    action TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS admin_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class AdminTables:
    """Bans, audit rows and admin-set settings on the store's connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(SCHEMA)
        self.audit_count = int(db.execute("SELECT COUNT(*) FROM audit").fetchone()[0])

    # -- bans -------------------------------------------------------------------
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
        """A new ban (the ended ones go at the same time, so the table stays small)."""
        self.db.execute("DELETE FROM bans WHERE until <= ?", (now,))
        cursor = self.db.execute(
            "INSERT INTO bans (address, player, token_hash, name, until, reason, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (address, player, token_hash, name, until, reason, now),
        )
        assert cursor.lastrowid is not None
        return Ban(cursor.lastrowid, address, player, token_hash, name, until, reason)

    def remove_ban(self, ban_id: int) -> bool:
        return self.db.execute("DELETE FROM bans WHERE id = ?", (ban_id,)).rowcount > 0

    def load_bans(self, now: float) -> list[Ban]:
        """The bans still in force; ended ones are deleted."""
        self.db.execute("DELETE FROM bans WHERE until <= ?", (now,))
        return [
            Ban(*row)
            for row in self.db.execute(
                "SELECT id, address, player, token_hash, name, until, reason FROM bans ORDER BY id"
            )
        ]

    # -- the audit log ----------------------------------------------------------
    def audit(self, ts: float, address: str, action: str, detail: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO audit (ts, address, action, detail) VALUES (?, ?, ?, ?)",
            (ts, address, action, json.dumps(detail, ensure_ascii=False, separators=(",", ":"))),
        )
        self.audit_count += 1
        if self.audit_count > AUDIT_ROWS + AUDIT_MARGIN:
            self.db.execute(
                "DELETE FROM audit WHERE id IN (SELECT id FROM audit ORDER BY id LIMIT ?)",
                (self.audit_count - AUDIT_ROWS,),
            )
            self.audit_count = AUDIT_ROWS

    def recent_audit(self, limit: int = 50) -> list[dict[str, Any]]:
        """The latest rows, newest first."""
        return [
            {"ts": ts, "address": address, "action": action, "detail": json.loads(detail)}
            for ts, address, action, detail in self.db.execute(
                "SELECT ts, address, action, detail FROM audit ORDER BY id DESC LIMIT ?", (limit,)
            )
        ]

    # -- settings changed from the admin page -------------------------------------
    def settings(self) -> dict[str, Any]:
        return {
            key: json.loads(value)
            for key, value in self.db.execute("SELECT key, value FROM admin_settings ORDER BY key")
        }

    def save_settings(self, values: dict[str, Any]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO admin_settings (key, value) VALUES (?, ?)",
            [(k, json.dumps(v)) for k, v in values.items()],
        )
