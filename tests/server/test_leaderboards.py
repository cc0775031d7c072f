"""Ratings and team records in the store, and the queries that read them back
(server/io/store/ratings_store.py, server/io/services/leaderboards.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gridhall.server.core.effects import SaveGame, SaveIdentity
from gridhall.server.core.ratings import ESTABLISHED_GAMES, PAIR_GAIN, Rating, Ratings, Seat
from gridhall.server.io.services.leaderboards import (
    QueryError,
    leaderboard,
    profile,
    rank_of,
    records,
)
from gridhall.server.io.store.ratings_store import BEST_TIMES
from gridhall.server.io.store.store import Store

MOVES = {"moves": [[x, x % 2] for x in range(10)]}


def established(ratings: Ratings, *seats: Seat) -> None:
    """Seats with a rating of ESTABLISHED_GAMES games already (on the leaderboard once
    they play one more, which writes their row)."""
    for seat in seats:
        ratings.table[(seat.player, "gomoku")] = Rating(25.0, 3.0, ESTABLISHED_GAMES, 5)


def rated_game(ratings: Ratings, winner: Seat, loser: Seat, at: float) -> SaveGame:
    seats = [winner, loser]
    result = {"winner": winner.player, "reason": "five"}
    changes = ratings.rate("gomoku", seats, result, MOVES, at)
    players = [
        {"player": s.player, "name": s.name, "seat": n, **({"bot": s.bot} if s.bot else {})}
        for n, s in enumerate(seats)
    ]
    return SaveGame(
        "R1",
        "gomoku",
        {"size": 15, "rule": "freestyle", "rated": True},
        players,
        result,
        MOVES,
        at - 60,
        at,
        ratings=tuple(changes),
    )


def test_ratings_are_saved_with_the_game_and_load_back(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    a, b = Seat("pa", "Ann"), Seat("pb", "Bob")
    store.write([rated_game(ratings, a, b, 100.0), rated_game(ratings, a, b, 200.0)])
    store.close()
    store = Store(tmp_path / "g.db")
    again = Ratings()
    again.load(store.ratings.load())
    assert again.table == ratings.table
    history = profile(store.db, "pa")["ratings"]["gomoku"]["history"]
    assert [h[2] for h in history] == [1, 2] and [h[0] for h in history] == [100.0, 200.0]
    assert history[-1][1] == ratings.get("pa", "gomoku").shown
    store.close()


def test_the_pair_windows_are_saved_with_the_game_and_load_back(tmp_path: Path) -> None:
    """Ann's gains against Bob are capped for a day; after a restart still."""
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    a, b = Seat("pa", "Ann"), Seat("pb", "Bob")
    established(ratings, a, b)
    store.write([rated_game(ratings, a, b, 100.0 + n) for n in range(8)])
    windows = {(r[0], r[1]): r[2:] for r in store.ratings.pairs(200.0)}
    assert windows[("pa", "pb")] == ("gomoku", 100.0, PAIR_GAIN)
    assert windows[("pb", "pa")][2] < 0  # Bob lost: his window holds his net loss
    store.close()
    store = Store(tmp_path / "g.db")
    again = Ratings()
    again.load(store.ratings.load())
    again.pairs.load(store.ratings.pairs(300.0), 300.0)
    before = again.get("pa", "gomoku")
    rated_game(again, a, b, 300.0)
    assert again.get("pa", "gomoku").ordinal == pytest.approx(before.ordinal)
    assert store.ratings.pairs(100.0 + 86400.0) == []  # ended windows are deleted
    store.close()


def test_a_failed_game_write_keeps_no_rating_change(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    saved = rated_game(ratings, Seat("pa", "Ann"), Seat("pb", "Bob"), 100.0)
    bad = SaveGame("R1", "gomoku", {}, [], {"x": object()}, {}, 0.0, 1.0)  # not JSON: fails
    with pytest.raises(TypeError):
        store.write([saved, bad])
    assert store.db.execute("SELECT COUNT(*) FROM ratings WHERE bot IS NULL").fetchone() == (0,)
    assert store.db.execute("SELECT COUNT(*) FROM rating_history").fetchone() == (0,)
    store.close()


def board(db: sqlite3.Connection, **kw: Any) -> list[str]:
    return [r["name"] for r in leaderboard(db, "gomoku", **kw)["rows"]]


def test_leaderboard_best_first_with_current_names_computers_and_paging(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    people = [Seat(f"p{n:02}", f"P{n:02}") for n in range(20)]
    established(ratings, *people)
    effects: list[Any] = []
    for n, winner in enumerate(people):  # P00 beats everyone after it once, P01 ...
        for loser in people[n + 1 : n + 4]:
            effects.append(rated_game(ratings, winner, loser, 100.0 + len(effects)))
    effects.append(SaveIdentity("p00", "h", "Zoe", None, None))  # P00 renamed since
    store.write(effects)
    db = store.db
    page = leaderboard(db, "gomoku")
    assert page["total"] == 22 and page["offset"] == 0  # 20 people + 2 computers
    rows = page["rows"]
    assert [r["rank"] for r in rows] == list(range(1, 21))
    assert [r["rating"] for r in rows] == sorted((r["rating"] for r in rows), reverse=True)
    assert {"Zoe", "Computer (hard)", "Computer (easy)"} <= {r["name"] for r in rows}
    hard = next(r for r in rows if r["name"] == "Computer (hard)")
    assert (hard["rating"], hard["bot"], hard["provisional"]) == (2000, "hard", False)
    assert not any(r["provisional"] for r in rows)  # established, every one
    # offset/limit pages are slices of the whole board
    whole = board(db, limit=50)
    assert board(db, offset=5, limit=7) == whole[5:12]
    assert leaderboard(db, "gomoku", offset=100)["rows"] == []
    # around: the player's rank and five either side
    for pid in ("p00", "p10", "p19"):
        rank = rank_of(db, "gomoku", pid)
        assert rank is not None
        got = leaderboard(db, "gomoku", around=pid)
        names = [r["name"] for r in got["rows"]]
        assert names == whole[max(0, rank - 6) : rank + 5]
        assert next(r for r in got["rows"] if r["player"] == pid)["rank"] == rank
    store.close()


def test_the_leaderboard_lists_established_players_only(tmp_path: Path) -> None:
    """Thirty throw-away identities are provisional: none of them is on the board; the
    farmer who beat them all is (30 games), at the 1000 it started from; asking for
    the rows around a provisional player says why."""
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    farmer = Seat("pfarm", "Farmer")
    store.write([rated_game(ratings, farmer, Seat(f"t{n:02}", "T"), 100.0 + n) for n in range(30)])
    store.write([rated_game(ratings, Seat("pann", "Ann"), Seat("pbob", "Bob"), 200.0)])
    page = leaderboard(store.db, "gomoku")
    assert [(r["player"], r["rating"]) for r in page["rows"]] == [
        ("computer:hard", 2000),
        ("computer:easy", 1680),
        ("pfarm", 1000),
    ]
    assert page["total"] == 3 and rank_of(store.db, "gomoku", "t00") is None
    with pytest.raises(QueryError, match=r"10 or more rated games \(1 so far\)"):
        leaderboard(store.db, "gomoku", around="pann")
    assert profile(store.db, "pann")["ratings"]["gomoku"]["provisional"] is True
    established(ratings, Seat("pann", "Ann"))
    store.write([rated_game(ratings, Seat("pann", "Ann"), Seat("pbob", "Bob"), 300.0)])
    assert rank_of(store.db, "gomoku", "pann") is not None
    assert leaderboard(store.db, "gomoku")["total"] == 4
    store.close()


def test_leaderboard_refuses_bad_requests(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    with pytest.raises(QueryError, match="minesweeper"):
        leaderboard(store.db, "minesweeper")
    with pytest.raises(QueryError, match="limit"):
        leaderboard(store.db, "gomoku", limit=51)
    with pytest.raises(QueryError, match="no gomoku rating"):
        leaderboard(store.db, "gomoku", around="pnobody")
    with pytest.raises(QueryError, match="No player"):
        profile(store.db, "pnobody")
    assert leaderboard(store.db, "linkmatch") == {
        "game": "linkmatch",
        "rows": [],
        "total": 0,
        "offset": 0,
    }
    store.close()


def sweep(
    game_id: int, names: list[str], reason: str, time: float, options: dict[str, Any] | None = None
) -> SaveGame:
    players = [{"player": "p" + n.lower(), "name": n, "seat": k} for k, n in enumerate(names)]
    stats = {p["player"]: {"revealed": 5, "flags": 0, "mines_hit": 0} for p in players}
    opts = {"preset": "beginner", "no_guess": False, "lives": 1, **(options or {})}
    return SaveGame(
        "R2",
        "minesweeper",
        opts,
        players,
        {"winner": None, "reason": reason, "stats": stats, "time": time},
        {},
        1000.0 + game_id,
        1100.0 + game_id,
    )


def test_minesweeper_team_records_per_board_flag_and_lives(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    games = [
        sweep(1, ["Ann", "Bob"], "cleared", 50.0),
        sweep(2, ["Ann"], "mine", 9.0),
        sweep(3, ["Cy", "Bob"], "cleared", 31.5),
        sweep(4, ["Ann"], "cleared", 40.0, {"no_guess": True}),
        sweep(5, ["Ann"], "cleared", 1.0, {"preset": None, "width": 10}),  # custom
        sweep(6, ["Ann"], "cleared", 20.0, {"preset": "expert", "lives": 3}),
    ]
    store.write(games)
    got = records(store.db)
    assert [(r["board"], r["no_guess"], r["lives"]) for r in got] == [
        ("beginner", False, 1),
        ("beginner", True, 1),
        ("expert", False, 3),
    ]
    first = got[0]
    assert (first["games"], first["wins"], first["win_rate"]) == (3, 2, 0.667)
    assert [(b["time"], b["game_id"], b["names"]) for b in first["best"]] == [
        (31.5, 3, ["Cy", "Bob"]),
        (50.0, 1, ["Ann", "Bob"]),
    ]
    mine = profile(store.db, "pann")["records"]["minesweeper"]
    assert [(r["board"], r["games"], r["wins"], r["best"]) for r in mine] == [
        ("beginner", 2, 1, [{"time": 50.0, "game_id": 1}]),
        ("beginner", 1, 1, [{"time": 40.0, "game_id": 4}]),
        ("expert", 1, 1, [{"time": 20.0, "game_id": 6}]),
    ]
    assert profile(store.db, "pbob")["records"]["minesweeper"][0]["best"] == [
        {"time": 31.5, "game_id": 3}
    ]  # his best, with Cy
    store.write([sweep(7, ["Dan"], "mine", 3.0)])
    dan = profile(store.db, "pdan")
    assert dan["records"]["minesweeper"][0]["best"] == [] and dan["name"] == "Dan"
    store.close()


def test_only_the_best_times_are_kept(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.write([sweep(n, ["Ann"], "cleared", 100.0 - n) for n in range(1, BEST_TIMES + 6)])
    best = records(store.db)[0]["best"]
    assert len(best) == BEST_TIMES
    assert best[0]["time"] == 100.0 - (BEST_TIMES + 5)
    assert records(store.db)[0]["games"] == BEST_TIMES + 5
    store.close()


def test_around_and_pages_agree_when_ratings_tie(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    db = store.db
    db.executemany(
        "INSERT INTO ratings VALUES (?, 'linkmatch', ?, 1.0, 10, 1, ?, ?, NULL)",
        [(f"p{n:02}", 20.0 + n // 4, 17.0 + n // 4, f"P{n:02}") for n in range(30)],
    )
    whole = [r["player"] for r in leaderboard(db, "linkmatch", limit=50)["rows"]]
    for pid in whole:
        rank = whole.index(pid) + 1
        assert rank_of(db, "linkmatch", pid) == rank
        got = leaderboard(db, "linkmatch", around=pid)
        assert [r["player"] for r in got["rows"]] == whole[max(0, rank - 6) : rank + 5]
        assert [r["rank"] for r in got["rows"]] == list(
            range(max(1, rank - 5), min(30, rank + 5) + 1)
        )
    store.close()


def test_a_racer_whose_name_the_room_lost_keeps_the_name_on_the_board(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    established(ratings, Seat("pa", "Ann"), Seat("pb", "Bob"))
    store.write(
        [
            rated_game(ratings, Seat("pa", "Ann"), Seat("pb", "Bob"), 100.0),
            rated_game(ratings, Seat("pb", "Bob"), Seat("pa", ""), 200.0),
        ]
    )
    names = {r["player"]: r["name"] for r in leaderboard(store.db, "gomoku")["rows"]}
    assert names["pa"] == "Ann" and names["pb"] == "Bob"
    store.close()


def computers(db: sqlite3.Connection) -> dict[str, tuple[int, int]]:
    """Gomoku's computer rows (every rated game has its own)."""
    found = db.execute(
        "SELECT bot, games, wins FROM ratings WHERE bot IS NOT NULL AND game = 'gomoku'"
    )
    return {bot: (games, wins) for bot, games, wins in found}


def test_an_older_database_counts_the_computers_rated_games_once(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ratings = Ratings()
    ann, hard = Seat("pa", "Ann"), Seat("pbot", "Computer (hard)", bot="hard")
    easy = Seat("pe", "Computer (easy)", bot="easy")
    unrated = SaveGame("R2", "gomoku", {}, [{"player": "pe", "bot": "easy"}], {}, {}, 0.0, 1.0)
    store.write(
        [
            rated_game(ratings, hard, ann, 100.0),
            rated_game(ratings, ann, hard, 200.0),
            rated_game(ratings, easy, ann, 300.0),
            unrated,  # no rating moved: not a rated game, not counted
        ]
    )
    assert computers(store.db) == {"hard": (2, 1), "easy": (1, 1)}
    # as a server from before counting left them: zeros, and no note that it counted
    store.db.execute("UPDATE ratings SET games = 0, wins = 0 WHERE bot IS NOT NULL")
    store.db.execute("DELETE FROM meta WHERE key = 'computer_games'")
    store.close()
    store = Store(tmp_path / "g.db")
    assert computers(store.db) == {"hard": (2, 1), "easy": (1, 1)}
    store.db.execute("UPDATE ratings SET games = 5 WHERE bot = 'easy'")
    store.close()
    store = Store(tmp_path / "g.db")  # counted once: later starts keep the live counts
    assert computers(store.db) == {"hard": (2, 1), "easy": (5, 1)}
    store.close()
