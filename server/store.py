"""Everything the server keeps on disk: finished games and chat lines.

One SQLite file in WAL mode, written from the event loop (each write is one
short transaction). All persistence goes through this module so durability is
reasoned about in one place.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    result TEXT NOT NULL,
    record TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS games_ended ON games(ended_at);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    ts REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_room ON chat(room, ts);
"""


@dataclass
class GameRow:
    id: int
    room: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    result: dict[str, Any]
    record: dict[str, Any]
    started_at: float
    ended_at: float


class Store:
    """The SQLite store. Open one per server; close it on shutdown."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)

    def save_game(self, room: str, game: str, options: dict[str, Any],
                  players: list[dict[str, Any]], result: dict[str, Any],
                  record: dict[str, Any], started_at: float, ended_at: float) -> int:
        with self.db:
            cur = self.db.execute(
                "INSERT INTO games (room, game, options, players, result, record, started_at,"
                " ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (room, game, json.dumps(options), json.dumps(players), json.dumps(result),
                 json.dumps(record), started_at, ended_at))
        return int(cur.lastrowid or 0)

    def save_chat(self, room: str, player: str, name: str, text: str, ts: float) -> None:
        with self.db:
            self.db.execute("INSERT INTO chat (room, player, name, text, ts) VALUES (?,?,?,?,?)",
                            (room, player, name, text, ts))

    def recent_games(self, limit: int = 20) -> list[GameRow]:
        rows = self.db.execute(
            "SELECT id, room, game, options, players, result, record, started_at, ended_at"
            " FROM games ORDER BY ended_at DESC, id DESC LIMIT ?", (limit,)).fetchall()
        return [GameRow(r[0], r[1], r[2], json.loads(r[3]), json.loads(r[4]),
                        json.loads(r[5]), json.loads(r[6]), r[7], r[8]) for r in rows]

    def chat_lines(self, room: str, limit: int = 50) -> list[tuple[str, str, str, float]]:
        rows = self.db.execute(
            "SELECT player, name, text, ts FROM chat WHERE room = ? ORDER BY ts DESC, id DESC"
            " LIMIT ?", (room, limit)).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in reversed(rows)]

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self.db.close()
