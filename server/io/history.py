"""Finished games as the History screens ask for them: summaries, filtered and paged.

Only the ``games`` table is read, and only FINISHED games are ever stored there
(``server/core/room/`` saves a game at its end), so no answer built here can carry
a live board. The filters are served by ``game_players`` (one row per seated
player, kept by :func:`index_game` and a trigger that follows deletions) and an
index on ``games(game, id)``; :func:`migrate` adds both to an older database.

Pure SQL over one connection: the history service (``server/io/history_service.py``)
runs these in a thread with its own read-only connection, off the event loop.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

from gridhall.protocol.messages import HISTORY_PAGE

from ..games import registry

JSON = dict[str, Any]

SCHEMA = (  # a rowid table: SQLite 3.40's integrity_check misreads a WITHOUT ROWID one
    """CREATE TABLE IF NOT EXISTS game_players (
        game_id INTEGER NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL COLLATE NOCASE,
        seat INTEGER NOT NULL,
        PRIMARY KEY (game_id, seat)
    )""",
    "CREATE INDEX IF NOT EXISTS game_players_player ON game_players(player, game_id)",
    "CREATE INDEX IF NOT EXISTS game_players_name ON game_players(name, game_id)",
    "CREATE INDEX IF NOT EXISTS games_kind ON games(game, id)",
    """CREATE TRIGGER IF NOT EXISTS games_forget_players AFTER DELETE ON games BEGIN
        DELETE FROM game_players WHERE game_id = OLD.id;
    END""",
)
"""What history adds to the store, one statement each (run in one transaction)."""
COLUMNS = (("source", "TEXT"), ("moves", "INTEGER"))
"""Columns ``games`` gained for history (NULL source: played here)."""
SUMMARY_COLUMNS = "id, game, options, players, result, started_at, ended_at, moves, source"


def migrate(db: sqlite3.Connection) -> None:
    """Bring an older database's history up to date: the new columns, the players
    table filled from the stored games, the indexes. Does nothing when done already."""
    have = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    missing = [(name, kind) for name, kind in COLUMNS if name not in have]
    db.execute("BEGIN")
    try:
        for name, kind in missing:
            db.execute(f"ALTER TABLE games ADD COLUMN {name} {kind}")
        fresh = (
            db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'game_players'"
            ).fetchone()
            is None
        )
        for statement in SCHEMA:
            db.execute(statement)
        if fresh:
            for gid, game, players, record in db.execute(
                "SELECT id, game, players, record FROM games"
            ).fetchall():
                index_game(db, gid, json.loads(players))
                db.execute(
                    "UPDATE games SET moves = ? WHERE id = ?",
                    (count_moves(game, json.loads(record)), gid),
                )
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def index_game(db: sqlite3.Connection, game_id: int, players: Iterable[JSON]) -> None:
    """Make a stored game findable by its players' ids and names."""
    db.executemany(
        "INSERT OR REPLACE INTO game_players (game_id, player, name, seat) VALUES (?, ?, ?, ?)",
        [
            (
                game_id,
                str(pl.get("player")),
                str(pl.get("name")),
                pl["seat"] if isinstance(pl.get("seat"), int) else n,
            )
            for n, pl in enumerate(players)
        ],
    )


def count_moves(game: str, record: JSON) -> int:
    """How long a game was, in its own unit (its plug-in's ``moves``: stones, clicks,
    links; it reads any stored record without failing); 0 for a game this server does
    not know."""
    spec = registry().get(game)
    return spec.moves(record) if spec is not None else 0


def summary(row: tuple[Any, ...]) -> JSON:
    """A ``games`` row (:data:`SUMMARY_COLUMNS`) as the protocol's game summary."""
    gid, game, options, players, result, started_at, ended_at, moves, source = row
    opts: JSON = json.loads(options)
    out: JSON = {
        "game_id": gid,
        "game": game,
        "options": opts,
        "players": json.loads(players),
        "result": json.loads(result),
        "started_at": started_at,
        "ended_at": ended_at,
        "moves": int(moves or 0),
        "rated": opts.get("rated") is True,
    }
    if source:
        out["source"] = source
    return out


def list_games(
    db: sqlite3.Connection,
    *,
    game: str | None = None,
    player: str | None = None,
    name: str | None = None,
    before: int | None = None,
    limit: int = HISTORY_PAGE,
) -> tuple[list[JSON], int | None]:
    """Summaries of finished games, newest (highest id) first, and the ``before`` of
    the next page (None at the end). ``name`` matches a seated player's name in any
    case; every filter given must hold."""
    where: list[str] = []
    args: list[Any] = []
    if game is not None:
        where.append("g.game = ?")
        args.append(game)
    if before is not None:
        where.append("g.id < ?")
        args.append(before)
    if player is not None:
        where.append("g.id IN (SELECT game_id FROM game_players WHERE player = ?)")
        args.append(player)
    if name is not None:
        where.append("g.id IN (SELECT game_id FROM game_players WHERE name = ?)")
        args.append(name)
    sql = (
        f"SELECT {', '.join('g.' + c for c in SUMMARY_COLUMNS.split(', '))} FROM games g"
        + (" WHERE " + " AND ".join(where) if where else "")
        + " ORDER BY g.id DESC LIMIT ?"
    )
    rows = db.execute(sql, (*args, limit + 1)).fetchall()
    more = len(rows) > limit
    games = [summary(r) for r in rows[:limit]]
    return games, (games[-1]["game_id"] if more and games else None)


def load_game(db: sqlite3.Connection, game_id: int) -> tuple[JSON, JSON] | None:
    """The summary and the stored record of finished game ``game_id``, or None."""
    found = load_stored(db, game_id)
    if found is None:
        return None
    record: JSON = json.loads(found[1])
    return found[0], record


def load_stored(db: sqlite3.Connection, game_id: int) -> tuple[JSON, str] | None:
    """The summary of finished game ``game_id`` and its record as stored (JSON text,
    parsed by whoever replays it), or None."""
    row = db.execute(
        f"SELECT {SUMMARY_COLUMNS}, record FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return None
    return summary(row[:-1]), str(row[-1])
