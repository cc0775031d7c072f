"""The ``analyses`` table: each finished game's engine analysis, made once and kept.

Rows are written on the event loop through the server's one :class:`~.store.Store`
connection (one small insert when a job ends) and read off the loop by
:func:`lookup`, on a history thread's read-only connection
(``server/io/history_service.py``): a request never waits on a big record's decoding
on the loop. A row belongs to a game: rows whose game the
retention limits removed are deleted with the next insert.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS analyses (
    game_id INTEGER NOT NULL,
    engine TEXT NOT NULL,
    budget REAL NOT NULL,
    result TEXT NOT NULL,
    made_at REAL NOT NULL,
    PRIMARY KEY (game_id, engine)
) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Found:
    """What :func:`lookup` found for a game id: no game (``game`` None), or the game's
    kind, options and record, and its stored analysis if there is one."""

    game: str | None = None
    options: dict[str, Any] | None = None
    record: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    analysis: dict[str, Any] | None = None
    """``{"moves": [...], "budget": float}`` when analysed already."""


def create(db: sqlite3.Connection) -> None:
    """Add the table to an existing database (a no-op when it is there)."""
    db.executescript(SCHEMA)


def save(
    db: sqlite3.Connection,
    game_id: int,
    engine: str,
    budget: float,
    moves: list[dict[str, Any]],
    made_at: float,
) -> None:
    """Keep a finished analysis (replacing an older one by the same engine) and drop
    the analyses of games that are no longer kept."""
    db.execute(
        "INSERT OR REPLACE INTO analyses (game_id, engine, budget, result, made_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (game_id, engine, budget, json.dumps(moves, separators=(",", ":")), made_at),
    )
    db.execute("DELETE FROM analyses WHERE game_id NOT IN (SELECT id FROM games)")


def lookup(db: sqlite3.Connection, game_id: int, engines: Mapping[str, str]) -> Found:
    """The game and its analysis by its game's engine (``engines``: game -> engine name;
    run it on a history thread's read-only connection: the record's JSON may be large)."""
    row = db.execute(
        "SELECT game, options, record, result FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return Found()
    stored = db.execute(
        "SELECT budget, result FROM analyses WHERE game_id = ? AND engine = ?",
        (game_id, engines.get(row[0], "")),
    ).fetchone()
    analysis = None if stored is None else {"budget": stored[0], "moves": json.loads(stored[1])}
    return Found(row[0], json.loads(row[1]), json.loads(row[2]), json.loads(row[3]), analysis)
