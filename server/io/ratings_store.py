"""The store's tables for ratings and co-op team records (part of
``server/io/store.py``'s file and connection; see there for durability).

They are written inside the transaction that saves the finished game
(:meth:`RatingsTables.game_saved`), so a crash never keeps a game without its
rating change or a rating change without its game. Rows are keyed by player id
and outlive the game rows the retention rules prune (``server/io/retention.py``).

- ``ratings``: per (player, game kind) the OpenSkill belief, games and wins, the
  ordinal the leaderboard orders by, the name of the latest rated game (shown when
  the identity is gone; otherwise ``identities.name``, the current one) and, for
  the computers' fixed reference rows, their level (``bot``). A computer's rating
  never moves, but its row counts the rated games it played and won, like anyone's
  (a database from before that counts them once from the games it kept);
- ``rating_history``: the shown rating after each rated game, the latest
  :data:`HISTORY_ROWS` per player and kind; a point goes with the game it names when
  the retention rules prune that game (a trigger), so a profile never names a game
  that is gone (the rating itself stays);
- ``rating_pairs``: per (person, opponent, game kind) the window of the farming cap
  (``server/core/rating_pairs.py``): when it opened and the net gain in it; rows
  of ended windows are deleted when that person is rated again and at start;
- ``team_records`` / ``team_times`` / ``player_records``: the co-op game that keeps
  team records (its plug-in's :class:`~..games.rating.TeamRecords`), per record
  (a preset board, no-guess flag and lives): games and wins, the :data:`BEST_TIMES`
  best winning times with the team and the game id, and each person's own games,
  wins and best time. The tables have no game column: one game keeps team records
  (``server/games/__init__.py`` checks it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from ..core.effects import SaveGame
from ..core.names import computer_name
from ..core.ratings import (
    COMPUTER_ID,
    ESTABLISHED_GAMES,
    PAIR_WINDOW,
    Change,
    Rating,
    reference_rows,
)
from ..games import rated, registry
from ..games.rating import TeamRecords

LISTED = f"(games >= {ESTABLISHED_GAMES} OR bot IS NOT NULL)"
"""The rows a leaderboard lists: established people and the computers' references (a
partial index holds just these, with the columns of this condition, so paging and
counting read the index alone)."""
HISTORY_ROWS = 500
"""Rating history rows kept per player and game kind (a profile shows 50)."""
BEST_TIMES = 10
"""Best times kept per team record."""
COUNTED = "computer_games"
"""The ``meta`` key set once the computers' rows count their rated games."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS ratings (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    ordinal REAL NOT NULL,
    name TEXT NOT NULL,
    bot TEXT,
    PRIMARY KEY (player, game)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(game, ordinal DESC, player);
CREATE INDEX IF NOT EXISTS ratings_listed_{established}
    ON ratings(game, ordinal DESC, player, games, bot) WHERE {listed};
CREATE TABLE IF NOT EXISTS rating_history (
    player TEXT NOT NULL,
    game TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    ended_at REAL NOT NULL,
    rating INTEGER NOT NULL,
    PRIMARY KEY (player, game, game_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rating_history_game ON rating_history(game_id);
CREATE TABLE IF NOT EXISTS rating_pairs (
    player TEXT NOT NULL,
    opponent TEXT NOT NULL,
    game TEXT NOT NULL,
    since REAL NOT NULL,
    gained REAL NOT NULL,
    PRIMARY KEY (player, opponent, game)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_records (
    board TEXT NOT NULL,
    no_guess INTEGER NOT NULL,
    lives INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (board, no_guess, lives)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_times (
    board TEXT NOT NULL,
    no_guess INTEGER NOT NULL,
    lives INTEGER NOT NULL,
    time REAL NOT NULL,
    game_id INTEGER NOT NULL,
    names TEXT NOT NULL,
    ended_at REAL NOT NULL,
    PRIMARY KEY (board, no_guess, lives, time, game_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS player_records (
    player TEXT NOT NULL,
    board TEXT NOT NULL,
    no_guess INTEGER NOT NULL,
    lives INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    best REAL,
    best_game INTEGER,
    PRIMARY KEY (player, board, no_guess, lives)
) WITHOUT ROWID;
"""


POINTS_FOLLOW_GAMES = """
CREATE TRIGGER games_forget_rating_points AFTER DELETE ON games BEGIN
    DELETE FROM rating_history WHERE game_id = OLD.id;
END;
"""
"""A pruned game takes the rating history points that name it along."""


class RatingsTables:
    """Ratings and team records on the store's connection."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.executescript(SCHEMA.format(established=ESTABLISHED_GAMES, listed=LISTED))
        if not db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'trigger'"
            " AND name = 'games_forget_rating_points'"
        ).fetchone():  # once: the points older versions left naming pruned games go
            db.execute("BEGIN")
            db.execute("DELETE FROM rating_history WHERE game_id NOT IN (SELECT id FROM games)")
            db.execute(POINTS_FOLLOW_GAMES)
            db.execute("COMMIT")
        for game, spec in rated().items():  # the computers' fixed rows, as defined now
            rows = reference_rows(spec)
            kept = {pid for pid, _level, _r in rows}
            for (pid,) in db.execute(
                "SELECT player FROM ratings WHERE game = ? AND bot IS NOT NULL", (game,)
            ).fetchall():
                if pid not in kept:
                    db.execute("DELETE FROM ratings WHERE player = ? AND game = ?", (pid, game))
            for pid, level, r in rows:  # their games and wins stay
                db.execute(
                    "INSERT INTO ratings VALUES (?,?,?,?,0,0,?,?,?) ON CONFLICT (player, game)"
                    " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal ="
                    " excluded.ordinal, name = excluded.name, bot = excluded.bot",
                    (pid, game, r.mu, r.sigma, r.ordinal, computer_name(level), level),
                )
        self._count_computer_games_once()

    def _count_computer_games_once(self) -> None:
        """A database from before the computers' rows counted their games: count the
        rated games it kept (a rated game has rating history), once."""
        db = self.db
        if db.execute("SELECT 1 FROM meta WHERE key = ?", (COUNTED,)).fetchone() is not None:
            return
        counts: dict[tuple[str, str], list[int]] = {}
        for game, players, result in db.execute(
            "SELECT game, players, result FROM games WHERE id IN"
            " (SELECT DISTINCT game_id FROM rating_history)"
        ):
            spec = registry().get(str(game))
            references = spec.references if spec is not None else {}
            for level, won in computers_in(json.loads(players), json.loads(result), references):
                tally = counts.setdefault((COMPUTER_ID + level, str(game)), [0, 0])
                tally[0] += 1
                tally[1] += won
        db.execute("BEGIN")
        for (pid, game), (games, wins) in counts.items():
            db.execute(
                "UPDATE ratings SET games = ?, wins = ? WHERE player = ? AND game = ?"
                " AND bot IS NOT NULL",
                (games, wins, pid, game),
            )
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, 1)", (COUNTED,))
        db.execute("COMMIT")

    def load(self) -> list[tuple[str, str, float, float, int, int]]:
        """Every person's rating: ``(player, game, mu, sigma, games, wins)``."""
        return [
            (str(r[0]), str(r[1]), float(r[2]), float(r[3]), int(r[4]), int(r[5]))
            for r in self.db.execute(
                "SELECT player, game, mu, sigma, games, wins FROM ratings WHERE bot IS NULL"
            )
        ]

    def pairs(self, now: float) -> list[tuple[str, str, str, float, float]]:
        """The farming cap's open windows ``(player, opponent, game, since, gained)``;
        ended ones are deleted."""
        self.db.execute("DELETE FROM rating_pairs WHERE since <= ?", (now - PAIR_WINDOW,))
        return [
            (str(r[0]), str(r[1]), str(r[2]), float(r[3]), float(r[4]))
            for r in self.db.execute(
                "SELECT player, opponent, game, since, gained FROM rating_pairs"
            )
        ]

    # -- inside the store's write transaction ----------------------------------
    def game_saved(self, game_id: int, e: SaveGame) -> None:
        """A finished game was inserted as ``game_id``: its rating changes and
        records go in with it."""
        for change in e.ratings:
            self._rated(game_id, e.game, e.ended_at, change.player, change.name, change.after)
            self._windows(e.game, e.ended_at, change)
        spec = registry().get(e.game)
        if e.ratings and spec is not None:  # rated: its computers played one more, perhaps won
            for level, won in computers_in(e.players, e.result, spec.references):
                self.db.execute(
                    "UPDATE ratings SET games = games + 1, wins = wins + ? WHERE player = ?"
                    " AND game = ? AND bot IS NOT NULL",
                    (int(won), COMPUTER_ID + level, e.game),
                )
        if spec is not None and isinstance(spec.rating, TeamRecords):
            self._team(game_id, e, spec.rating)

    def _rated(
        self, game_id: int, game: str, ended_at: float, player: str, name: str, r: Rating
    ) -> None:
        db = self.db
        db.execute(
            "INSERT INTO ratings VALUES (?,?,?,?,?,?,?,?,NULL) ON CONFLICT (player, game)"
            " DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games ="
            " excluded.games, wins = excluded.wins, ordinal = excluded.ordinal,"
            " name = CASE excluded.name WHEN '' THEN name ELSE excluded.name END",
            (player, game, r.mu, r.sigma, r.games, r.wins, r.ordinal, name),
        )
        db.execute(
            "INSERT OR REPLACE INTO rating_history VALUES (?,?,?,?,?)",
            (player, game, game_id, ended_at, r.shown),
        )
        if r.games > HISTORY_ROWS:
            db.execute(
                "DELETE FROM rating_history WHERE player = ? AND game = ? AND game_id"
                " IN (SELECT game_id FROM rating_history WHERE player = ? AND game = ?"
                " ORDER BY game_id DESC LIMIT -1 OFFSET ?)",
                (player, game, player, game, HISTORY_ROWS),
            )

    def _windows(self, game: str, ended_at: float, change: Change) -> None:
        if not change.pairs:
            return
        self.db.execute(
            "DELETE FROM rating_pairs WHERE player = ? AND since <= ?",
            (change.player, ended_at - PAIR_WINDOW),
        )
        self.db.executemany(
            "INSERT OR REPLACE INTO rating_pairs VALUES (?,?,?,?,?)",
            [(change.player, o, game, since, gained) for o, since, gained in change.pairs],
        )

    def _team(self, game_id: int, e: SaveGame, records: TeamRecords) -> None:
        key = records.key(e.options)
        result = e.result
        people = [p for p in e.players if not p.get("bot")]
        time = records.time(result)
        if key is None or not people or not records.played(result):
            return
        won = time is not None
        db = self.db
        db.execute(
            "INSERT INTO team_records VALUES (?,?,?,1,?) ON CONFLICT (board, no_guess,"
            " lives) DO UPDATE SET games = games + 1, wins = wins + excluded.wins",
            (*key, int(won)),
        )
        for p in people:
            best = time
            db.execute(
                "INSERT INTO player_records VALUES (?,?,?,?,1,?,?,?) ON CONFLICT (player, board,"
                " no_guess, lives) DO UPDATE SET"
                " games = games + 1, wins = wins + excluded.wins,"
                " best_game = CASE WHEN excluded.best IS NOT NULL AND (best IS NULL OR"
                " excluded.best < best) THEN excluded.best_game ELSE best_game END,"
                " best = CASE WHEN excluded.best IS NOT NULL AND (best IS NULL OR"
                " excluded.best < best) THEN excluded.best ELSE best END",
                (str(p["player"]), *key, int(won), best, game_id if won else None),
            )
        if won:
            names = json.dumps([str(p.get("name", "?")) for p in people])
            db.execute(
                "INSERT OR REPLACE INTO team_times VALUES (?,?,?,?,?,?,?)",
                (*key, time, game_id, names, e.ended_at),
            )
            db.execute(
                "DELETE FROM team_times WHERE board = ? AND no_guess = ? AND lives = ?"
                " AND (time, game_id) IN (SELECT time, game_id FROM team_times WHERE"
                " board = ? AND no_guess = ? AND lives = ? ORDER BY time, game_id"
                " LIMIT -1 OFFSET ?)",
                (*key, *key, BEST_TIMES),
            )


def computers_in(
    players: Any, result: Any, references: Mapping[str, Any]
) -> list[tuple[str, bool]]:
    """(level, won) of each computer with a reference rating (``references``: its
    game's) that sat in a game."""
    if not isinstance(players, list) or not isinstance(result, Mapping):
        return []
    winner = result.get("winner")
    return [
        (str(p["bot"]), winner is not None and p.get("player") == winner)
        for p in players
        if isinstance(p, Mapping) and p.get("bot") in references
    ]
