"""Reading ratings and records back: leaderboards, profiles, co-op team records.

Plain functions over a SQLite connection, registered with the history service
(``server/io/history_service.py``: off the event loop, on its read-only connections,
rate-limited per connection with the other history queries) as the answers to
``leaderboard``, ``get-profile`` and ``records`` (PROTOCOL.md, "History, replays,
ratings"). A bad request raises :class:`QueryError` with a sentence for the
client; nothing here writes.
Names are the identity's current name (``identities``), else the name the
player last played a rated game under. A leaderboard lists established players only
(:data:`~..core.ratings.ESTABLISHED_GAMES` rated games) and the computers: a
provisional rating, a throw-away identity's above all, is not a place on it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from typing import Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.i18n import gettext as _

from ..core.ratings import ESTABLISHED_GAMES, PROVISIONAL_GAMES, display
from ..games import rated, with_records
from ..games.rating import TeamRecords
from .history import list_games
from .history_service import query
from .ratings_store import LISTED

JSON = dict[str, Any]
AROUND = 5
"""Rows above and below the player's own that ``around`` answers."""
HISTORY = 50
"""Rating history points a profile carries (the latest)."""
RECENT = 10
"""Recent games a profile lists."""
DEFAULT_LIMIT = 20
MAX_LIMIT = 50

_ROW = (
    "SELECT r.player, COALESCE(i.name, NULLIF(r.name, ''), '?'), r.ordinal, r.games,"
    " r.bot FROM ratings r LEFT JOIN identities i ON i.id = r.player"
)
_LISTED = " AND " + LISTED
"""What every leaderboard query adds to its ``WHERE`` (the partial index's condition)."""
_R_LISTED = " AND " + LISTED.replace("games", "r.games").replace("bot", "r.bot")
"""The same in the queries that join ``identities`` (which has a ``bot`` too)."""


class QueryError(ValueError):
    """A request that cannot be answered as asked (the client's mistake)."""


def _check_game(game: str) -> None:
    kept = rated()
    if game not in kept:
        raise QueryError(f"Leaderboards are kept for {' and '.join(kept)}; not for {game!r:.40}.")


def _records_of(game: str | None = None) -> tuple[str, TeamRecords] | None:
    """The game that keeps team records and its model (``game``: only if it is that
    one), or None."""
    for name, spec in with_records().items():
        if isinstance(spec.rating, TeamRecords) and game in (None, name):
            return name, spec.rating
    return None


def _row(rank: int, r: tuple[Any, ...]) -> JSON:
    row: JSON = {
        "rank": rank,
        "player": r[0],
        "name": r[1],
        "rating": display(r[2]),
        "games": r[3],
        "provisional": r[4] is None and r[3] < PROVISIONAL_GAMES,
    }
    if r[4] is not None:
        row["bot"] = r[4]
    return row


def rank_of(db: sqlite3.Connection, game: str, player: str) -> int | None:
    """The player's place on ``game``'s leaderboard (1 = best), None if not on it
    (unrated, or provisional)."""
    mine = db.execute(
        "SELECT ordinal FROM ratings WHERE game = ? AND player = ?" + _LISTED, (game, player)
    ).fetchone()
    if mine is None:
        return None
    better = db.execute(
        "SELECT COUNT(*) FROM ratings WHERE game = ? AND ordinal > ?" + _LISTED, (game, mine[0])
    ).fetchone()[0]
    tied = db.execute(
        "SELECT COUNT(*) FROM ratings WHERE game = ? AND ordinal = ? AND player < ?" + _LISTED,
        (game, mine[0], player),
    ).fetchone()[0]
    return int(better) + int(tied) + 1


def leaderboard(
    db: sqlite3.Connection,
    game: str,
    offset: int | None = None,
    limit: int | None = None,
    around: str | None = None,
) -> JSON:
    """A page of ``game``'s leaderboard, best first: ``offset``/``limit``, or the
    rows around ``around``'s own (its rank and :data:`AROUND` either side)."""
    _check_game(game)
    if limit is None:
        limit = DEFAULT_LIMIT
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"limit must be from 1 to {MAX_LIMIT}.")
    total = int(
        db.execute("SELECT COUNT(*) FROM ratings WHERE game = ?" + _LISTED, (game,)).fetchone()[0]
    )
    if around is not None:
        return _around(db, game, around, total)
    offset = offset or 0
    # The skipped rows are stepped over in the covering index only; the page's own
    # rows are then read whole.
    found = db.execute(
        _ROW
        + " JOIN (SELECT player AS k FROM ratings WHERE game = ?"
        + _LISTED
        + " ORDER BY ordinal DESC, player LIMIT ? OFFSET ?) ON r.player = k"
        " WHERE r.game = ? ORDER BY r.ordinal DESC, r.player",
        (game, limit, offset, game),
    ).fetchall()
    rows = [_row(offset + n, r) for n, r in enumerate(found, 1)]
    return {"game": game, "rows": rows, "total": total, "offset": offset}


def _around(db: sqlite3.Connection, game: str, player: str, total: int) -> JSON:
    """The player's row and :data:`AROUND` either side, read from the index at the
    player's place (the rank costs one count; no page is skipped through)."""
    rank = rank_of(db, game, player)
    mine = db.execute(
        "SELECT ordinal, games FROM ratings WHERE game = ? AND player = ?", (game, player)
    ).fetchone()
    if mine is None:
        raise QueryError(f"Player {player!r:.40} has no {game} rating yet.")
    if rank is None:
        raise QueryError(
            _(
                "Not on the leaderboard yet: it lists players with {need} or more rated"
                " games ({games} so far).",
                need=ESTABLISHED_GAMES,
                games=mine[1],
            )
        )
    # Each part is one range of the index (an OR would scan from the board's end).
    ordinal = mine[0]
    above = db.execute(
        _ROW
        + " WHERE r.game = ? AND r.ordinal = ? AND r.player < ?"
        + _R_LISTED
        + " ORDER BY r.player DESC LIMIT ?",
        (game, ordinal, player, AROUND),
    ).fetchall()
    above += db.execute(
        _ROW
        + " WHERE r.game = ? AND r.ordinal > ?"
        + _R_LISTED
        + " ORDER BY r.ordinal, r.player DESC LIMIT ?",
        (game, ordinal, AROUND - len(above)),
    ).fetchall()
    below = db.execute(
        _ROW
        + " WHERE r.game = ? AND r.ordinal = ? AND r.player >= ?"
        + _R_LISTED
        + " ORDER BY r.player LIMIT ?",
        (game, ordinal, player, AROUND + 1),
    ).fetchall()
    below += db.execute(
        _ROW
        + " WHERE r.game = ? AND r.ordinal < ?"
        + _R_LISTED
        + " ORDER BY r.ordinal DESC, r.player LIMIT ?",
        (game, ordinal, AROUND + 1 - len(below)),
    ).fetchall()
    offset = rank - 1 - len(above)
    found = [*reversed(above), *below]
    rows = [_row(offset + n, r) for n, r in enumerate(found, 1)]
    return {"game": game, "rows": rows, "total": total, "offset": offset}


def records(db: sqlite3.Connection) -> list[JSON]:
    """The co-op team records: per record (preset board, no-guess flag and lives),
    games, wins, the win rate and the best winning times with the team."""
    best: dict[tuple[str, int, int], list[JSON]] = {}
    for board, no_guess, lives, time, game_id, names, ended_at in db.execute(
        "SELECT board, no_guess, lives, time, game_id, names, ended_at FROM team_times"
        " ORDER BY time, game_id"
    ):
        best.setdefault((board, no_guess, lives), []).append(
            {"time": time, "game_id": game_id, "names": json.loads(names), "ended_at": ended_at}
        )
    out = []
    for board, no_guess, lives, games, wins in db.execute(
        "SELECT board, no_guess, lives, games, wins FROM team_records"
    ):
        out.append(
            {
                **_record(board, no_guess, lives, games, wins),
                "best": best.get((board, no_guess, lives), []),
            }
        )
    return sorted(out, key=_record_order)


def _record(board: str, no_guess: int, lives: int, games: int, wins: int) -> JSON:
    return {
        "board": board,
        "no_guess": bool(no_guess),
        "lives": lives,
        "games": games,
        "wins": wins,
        "win_rate": round(wins / games, 3) if games else 0.0,
    }


def _record_order(r: JSON) -> tuple[int, bool, int]:
    found = _records_of()
    boards = found[1].boards if found is not None else ()
    board = r["board"]
    return (
        boards.index(board) if board in boards else len(boards),
        r["no_guess"],
        r["lives"],
    )


def profile(
    db: sqlite3.Connection,
    player: str,
    recent: Callable[[sqlite3.Connection, str, int], list[JSON]] | None = None,
) -> JSON:
    """A player's ratings with their history, recent games (``recent`` lists them:
    the history service's game summaries) and team records (by their game)."""
    ratings: JSON = {}
    name = None
    for game, ordinal, games, wins, last_name, bot in db.execute(
        "SELECT game, ordinal, games, wins, name, bot FROM ratings WHERE player = ? ORDER BY game",
        (player,),
    ):
        history = db.execute(
            "SELECT ended_at, rating, game_id FROM rating_history WHERE player = ? AND"
            " game = ? ORDER BY game_id DESC LIMIT ?",
            (player, game, HISTORY),
        ).fetchall()
        ratings[game] = {
            "rating": display(ordinal),
            "games": games,
            "wins": wins,
            "provisional": bot is None and games < PROVISIONAL_GAMES,
            "history": [list(h) for h in reversed(history)],
        }
        name = name or last_name or None
    mine = [
        {
            **_record(board, no_guess, lives, games, wins),
            "best": [] if best is None else [{"time": best, "game_id": best_game}],
        }
        for board, no_guess, lives, games, wins, best, best_game in db.execute(
            "SELECT board, no_guess, lives, games, wins, best, best_game FROM"
            " player_records WHERE player = ?",
            (player,),
        )
    ]
    ident = db.execute("SELECT name FROM identities WHERE id = ?", (player,)).fetchone()
    if ident is None:  # gone: the name of their latest stored game, if any
        ident = db.execute(
            "SELECT name FROM game_players WHERE player = ? ORDER BY game_id DESC LIMIT 1",
            (player,),
        ).fetchone()
    if ident is not None:
        name = ident[0]
    if name is None and not ratings and not mine:
        raise QueryError(f"No player has the id {player!r:.40}.")
    return {
        "player": player,
        "name": name or "?",
        "ratings": ratings,
        "recent": recent(db, player, RECENT) if recent is not None else [],
        "records": {name: sorted(mine, key=_record_order) for name in with_records()},
    }


def _refused(exc: QueryError, rid: int | None) -> ProtocolError:
    return ProtocolError(ErrorCode.BAD_MESSAGE, str(exc), rid)


def _recent(db: sqlite3.Connection, player: str, limit: int) -> list[JSON]:
    return list_games(db, player=player, limit=limit)[0]


@query(p.GetLeaderboard)
def _leaderboard(db: sqlite3.Connection, msg: p.GetLeaderboard) -> p.Leaderboard:
    try:
        page = leaderboard(db, msg.game, msg.offset, msg.limit, msg.around)
    except QueryError as exc:
        raise _refused(exc, msg.id) from None
    return p.Leaderboard(**page, re=msg.id)


@query(p.GetProfile)
def _profile(db: sqlite3.Connection, msg: p.GetProfile) -> p.PlayerProfile:
    try:
        found = profile(db, msg.player, _recent)
    except QueryError as exc:
        raise _refused(exc, msg.id) from None
    return p.PlayerProfile(**found, re=msg.id)


@query(p.GetRecords)
def _records(db: sqlite3.Connection, msg: p.GetRecords) -> p.Records:
    if _records_of(msg.game) is None:
        kept = " and ".join(with_records())
        raise _refused(
            QueryError(f"Team records are kept for {kept}; not for {msg.game!r:.40}."), msg.id
        )
    return p.Records(game=msg.game, records=records(db), re=msg.id)
