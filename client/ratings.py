"""Leaderboards, profiles and team records for the Python clients, as rows of words.

Display-free (terminal and Tk). Wire shapes: PROTOCOL.md "History, replays,
ratings" (``leaderboard``, ``get-profile`` -> ``player-profile``, ``records``).
Ratings are per game kind; a co-op game has team records instead, so its "board"
is the records list. Which game has which, the descriptions say (``ratings``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gridhall.client.history import GameRow, game_row
from gridhall.protocol import games
from gridhall.protocol.i18n import _
from gridhall.protocol.players import shown_name

Message = dict[str, Any]
PAGE = 20
RATED_GAMES = tuple(games.rated())
"""Games with ratings and a leaderboard (their descriptions' ``ratings``)."""
RECORD_GAMES = tuple(games.with_records())
"""Co-op games that keep team records instead."""
BOARD_GAMES = RATED_GAMES + RECORD_GAMES
"""The games a leaderboard screen offers, the first by default."""
SPARKS = "▁▂▃▄▅▆▇█"


def board_request(game: str, *, around: str | None = None, offset: int = 0) -> Message:
    """The request for a game's board: its leaderboard (best first, from ``offset``, or
    the rows around player ``around``), or for a record game its team records."""
    if game in RECORD_GAMES:
        return {"type": "records", "game": game}
    request: Message = {"type": "leaderboard", "game": game, "limit": PAGE}
    if around:
        request["around"] = around
    elif offset:
        request["offset"] = max(0, int(offset))
    return request


@dataclass(frozen=True)
class RankRow:
    """One leaderboard row in words."""

    player: str
    rank: str
    name: str
    rating: str
    games: str
    me: bool
    bot: bool = False
    """A computer's fixed reference rating (it has no profile)."""


def _list(value: object) -> list[Any]:
    """``value`` if it is a list, else none (data of another shape is skipped)."""
    return value if isinstance(value, list) else []


def _number(value: object, digits: int = 0) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return ""
    return f"{value:.{digits}f}"


def rank_rows(answer: Message, me: str | None) -> list[RankRow]:
    """A ``leaderboard`` answer's rows, best first; provisional ratings marked ``?``
    and computers named as such."""
    rows = []
    for row in _list(answer.get("rows")):
        if not isinstance(row, dict):
            continue
        name = shown_name(row.get("name") or "?", row.get("bot"))
        if row.get("bot"):
            name += " " + _("(computer)")
        rating = _number(row.get("rating"))
        if row.get("provisional") and rating:
            rating += "?"
        rows.append(
            RankRow(
                str(row.get("player") or ""),
                _number(row.get("rank")),
                name,
                rating,
                _number(row.get("games")),
                row.get("player") == me,
                bool(row.get("bot")),
            )
        )
    return rows


def my_rank(answer: Message, me: str | None) -> str:
    """ "Your rank: 3 of 12" when we are on the page, else how many are rated."""
    total = answer.get("total")
    total = total if isinstance(total, int) else len(_list(answer.get("rows")))
    for row in rank_rows(answer, me):
        if row.me:
            return _("Your rank: {rank} of {total}", rank=row.rank, total=total)
    return _("{total} rated players", total=total)


@dataclass(frozen=True)
class RecordRow:
    """One team record in words."""

    preset: str
    no_guess: str
    best: str
    team: str
    games: str
    wins: str
    win_rate: str
    game_id: int | None


def record_rows(records: list[Any]) -> list[RecordRow]:
    """Team records, one per preset board, no-guess flag and lives: the best time with
    the team and the game it was set in (the ``records`` answer lists the best times;
    a profile's record holds its own best time and ``best_game``)."""
    rows = []
    for rec in records:
        if not isinstance(rec, dict):
            continue
        best, team, game_id = rec.get("best"), rec.get("names"), rec.get("best_game")
        if isinstance(best, list):  # the best times, fastest first
            top = best[0] if best and isinstance(best[0], dict) else {}
            best, team, game_id = top.get("time"), top.get("names"), top.get("game_id")
        preset = str(rec.get("board") or rec.get("preset") or "")
        lives = rec.get("lives")
        if isinstance(lives, int) and lives > 1:
            preset += " · " + _("{lives} lives", lives=lives)
        rate = rec.get("win_rate")
        rows.append(
            RecordRow(
                preset=preset,
                no_guess=_("yes") if rec.get("no_guess") else _("no"),
                best=_("{seconds} s", seconds=_number(best, 1)) if _number(best) else "",
                team=", ".join(str(n) for n in team) if isinstance(team, list) else "",
                games=_number(rec.get("games")),
                wins=_number(rec.get("wins")),
                win_rate=f"{100 * rate:.0f}%" if isinstance(rate, int | float) else "",
                game_id=game_id if isinstance(game_id, int) else None,
            )
        )
    return rows


def sparkline(values: list[float]) -> str:
    """A rating history as one line of block characters (low to high)."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    return "".join(SPARKS[round((v - low) / span * (len(SPARKS) - 1))] for v in values)


@dataclass(frozen=True)
class RatingLine:
    """One game's rating on a profile."""

    game: str
    rating: str
    games: str
    wins: str
    trend: str
    last_change: str


def rating_lines(profile: Message) -> list[RatingLine]:
    """A ``player-profile``'s ratings, one line per game, with the history's sparkline."""
    lines = []
    ratings = profile.get("ratings")
    for game, entry in ratings.items() if isinstance(ratings, dict) else ():
        if not isinstance(entry, dict):
            continue
        history = [
            float(h[1])
            for h in _list(entry.get("history"))
            if isinstance(h, list) and len(h) >= 2 and isinstance(h[1], int | float)
        ]
        rating = _number(entry.get("rating"))
        if entry.get("provisional") and rating:
            rating += "?"
        change = f"{history[-1] - history[-2]:+.0f}" if len(history) >= 2 else ""
        lines.append(
            RatingLine(
                str(game),
                rating,
                _number(entry.get("games")),
                _number(entry.get("wins")),
                sparkline(history),
                change,
            )
        )
    return lines


def recent_rows(profile: Message, me: str | None) -> list[GameRow]:
    """A profile's recent games, newest first (each opens its replay)."""
    return [
        game_row(s, me)
        for s in _list(profile.get("recent"))
        if isinstance(s, dict) and isinstance(s.get("game_id"), int)
    ]


def profile_records(profile: Message) -> list[RecordRow]:
    """A profile's team records (of the co-op game that keeps them)."""
    records = profile.get("records")
    found = [
        rec
        for game in RECORD_GAMES
        for rec in (records.get(game) if isinstance(records, dict) else None) or ()
    ]
    return record_rows(found)


def rating_change(ratings: object, me: str | None) -> str | None:
    """A rated game's ``game-over.ratings`` for us: "Your rating: 1000 → 1032 (+32)"."""
    mine = ratings.get(me) if isinstance(ratings, dict) and me is not None else None
    if not isinstance(mine, dict):
        return None
    before, after = mine.get("before"), mine.get("after")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (before, after)):
        return None
    assert isinstance(before, int | float) and isinstance(after, int | float)
    return _(
        "Your rating: {before} → {after} ({change})",
        before=round(before),
        after=round(after),
        change=f"{round(after) - round(before):+d}",
    )
