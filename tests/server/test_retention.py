"""History within limits: chat per room, by age and in all; finished games by age
and count; in small batches, and the file stops growing."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.effects import SaveChat, SaveGame
from gridhall.server.core.ratings import Ratings, Seat
from gridhall.server.io.store.retention import BATCH, DAY, GAME_BATCH, Limits
from gridhall.server.io.store.store import Store

NOW = 1_800_000_000.0
MOVES = {"moves": [[x, 0] for x in range(12)]}
"""A Gomoku record long enough to be rated."""


def count(path: Path, table: str, where: str = "1") -> int:
    with sqlite3.connect(path) as db:
        n: int = db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}").fetchone()[0]
        return n


def chat(store: Store, room: str, lines: int, ts: float = NOW, start: int = 0) -> None:
    for n in range(start, start + lines):
        store.write([SaveChat(room, "p1", "Ann", f"line {n}", ts + n * 0.001)])


def game(store: Store, ended_at: float, room: str = "R1", address: str = "") -> None:
    store.write(
        [
            SaveGame(
                room,
                "gomoku",
                {},
                [],
                {"reason": "resign"},
                {"moves": [[1, 2]] * 50},
                ended_at - 60,
                ended_at,
                address=address,
            )
        ]
    )


def drain(store: Store, now: float) -> int:
    """Prune until nothing is left to do; the number of calls it took."""
    calls = 1
    while store.prune(now):
        calls += 1
        assert calls < 10_000
    return calls


def test_a_rooms_chat_keeps_its_latest_lines_up_to_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(chat_rows_per_room=40))
    chat(store, "R1", 1000)
    chat(store, "R2", 5)
    assert count(path, "chat", "room = 'R1'") <= 40 + 40 // 8  # trimmed as it is written
    assert count(path, "chat", "room = 'R2'") == 5
    lines = store.chat_lines("R1", 40)
    assert [text for _, _, text, _ in lines] == [f"line {n}" for n in range(960, 1000)]
    store.close()


def test_chat_older_than_its_days_goes_in_small_batches(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(chat_days=7, chat_rows_per_room=0))
    for room in range(5):
        chat(store, f"OLD{room}", BATCH, ts=NOW - 8 * DAY)
    chat(store, "NEW", 10, ts=NOW - 6 * DAY)
    assert store.prune(NOW)  # one batch, and more to do
    assert count(path, "chat") == 4 * BATCH + 10
    drain(store, NOW)
    assert count(path, "chat") == 10 and count(path, "chat", "room = 'NEW'") == 10
    store.close()


def test_chat_in_all_is_capped_oldest_first(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(chat_rows=300, chat_rows_per_room=0))
    chat(store, "R1", 500)
    chat(store, "R2", 100, start=500)
    drain(store, NOW)
    assert count(path, "chat") == 300
    assert count(path, "chat", "room = 'R2'") == 100  # the newest stay
    store.close()
    reopened = Store(path, limits=Limits(chat_rows=50, chat_rows_per_room=0))
    drain(reopened, NOW)  # the count is read again on open
    assert count(path, "chat") == 50
    reopened.close()


def test_finished_games_are_pruned_by_age_and_by_count(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(games_days=30, games_rows=25))
    for n in range(GAME_BATCH + 5):
        game(store, NOW - 40 * DAY + n)
    for n in range(40):
        game(store, NOW - n)
    assert store.prune(NOW)
    drain(store, NOW)
    assert count(path, "games", f"ended_at < {NOW - 30 * DAY}") == 0
    assert count(path, "games") == 25
    assert [g.ended_at for g in store.recent_games(25)] == [NOW - n for n in range(25)]
    store.close()


def test_finished_games_are_pruned_to_their_megabytes_oldest_first(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(games_mb=0.05, games_days=0, games_rows=0))
    for n in range(60):  # about 2.4 kB each: 140 kB in all
        store.write(
            [
                SaveGame(
                    "R1",
                    "minesweeper",
                    {},
                    [],
                    {"reason": "cleared"},
                    {"actions": [["p1", "reveal", 1, 2, None, 0.5]] * 80},
                    NOW + n - 60,
                    NOW + n,
                )
            ]
        )
    drain(store, NOW + 60)
    assert store.pruner.games_bytes <= 0.05 * 2**20
    kept = count(path, "games")
    assert 15 <= kept < 60
    assert [g.ended_at for g in store.recent_games(kept)] == [
        NOW + n for n in range(59, 59 - kept, -1)
    ]
    store.close()
    reopened = Store(path, limits=Limits(games_mb=0.05))
    assert reopened.pruner.games_bytes == store.pruner.games_bytes  # counted again on open
    reopened.close()


def flood(store: Store) -> None:
    """Three players' 30 older games each (10.0.0.1-3), then 400 from 10.0.0.9; pruned."""
    for n in range(90):
        game(store, NOW - 1000 + n, address=f"10.0.0.{n % 3 + 1}")
    for n in range(400):
        game(store, NOW + n, address="10.0.0.9")
    drain(store, NOW + 400)


def owners(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as db:
        return dict(db.execute("SELECT owner, COUNT(*) FROM games GROUP BY owner").fetchall())


@pytest.mark.parametrize("cap", ["rows", "bytes"])
def test_one_address_flooding_games_pushes_out_its_own_not_the_others(
    tmp_path: Path, cap: str
) -> None:
    """Three players' older games, then 400 from one address (the computer resigned to
    over and over): past the cap, the flooder's oldest go, and every other game stays."""
    path = tmp_path / "g.db"
    size = len('{}[]{"reason":"resign"}') + len(
        json.dumps({"moves": [[1, 2]] * 50}, separators=(",", ":"))
    )
    limits = (
        Limits(games_rows=160, games_days=0, games_mb=0)
        if cap == "rows"
        else Limits(games_rows=0, games_days=0, games_mb=160.5 * size / 2**20)
    )
    store = Store(path, limits=limits)
    flood(store)
    assert owners(path) == {"10.0.0.1": 30, "10.0.0.2": 30, "10.0.0.3": 30, "10.0.0.9": 70}
    assert [g.ended_at for g in store.recent_games(70)] == [NOW + n for n in range(399, 329, -1)]
    store.close()


def test_a_cap_too_small_for_everyone_leaves_each_address_an_equal_share(tmp_path: Path) -> None:
    """Past the cap the largest holder loses first, down to the next largest: a flooder
    can push nobody below an equal share (here 100 / 4 = 25)."""
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(games_rows=100, games_days=0, games_mb=0))
    flood(store)
    assert owners(path) == {"10.0.0.1": 25, "10.0.0.2": 25, "10.0.0.3": 25, "10.0.0.9": 25}
    store.close()


def test_an_ipv6_flooder_counts_as_its_whole_64(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(games_rows=80, games_days=0, games_mb=0))
    for n in range(30):
        game(store, NOW - 1000 + n, address="2001:db8:0:1::1")
    for n in range(90):  # a new address of the same /64 for every game
        game(store, NOW + n, address=f"2001:db8:0:2::{n + 1:x}")
    drain(store, NOW + 90)
    assert owners(path) == {"2001:db8:0:1::/64": 30, "2001:db8:0:2::/64": 50}
    store.close()


def test_a_pruned_rated_game_takes_its_rating_history_points_along(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(games_rows=2, games_days=0, games_mb=0))
    ann = Seat("p1", "Ann")
    ratings = Ratings()
    for n in range(4):
        changes = ratings.rate("gomoku", [ann, Seat("c", "Computer", "easy")], {}, MOVES)
        store.write(
            [
                SaveGame(
                    "R1",
                    "gomoku",
                    {"rated": True},
                    [{"player": "p1", "name": "Ann", "seat": 0}],
                    {"winner": None},
                    MOVES,
                    NOW + n - 60,
                    NOW + n,
                    ratings=tuple(changes),
                )
            ]
        )
    drain(store, NOW + 4)
    kept = {g.id for g in store.recent_games(10)}
    assert len(kept) == 2
    with sqlite3.connect(path) as db:
        named = {r[0] for r in db.execute("SELECT game_id FROM rating_history")}
        games = db.execute("SELECT games FROM ratings WHERE player = 'p1'").fetchone()[0]
    assert named == kept and games == 4  # the points go with their games; the rating stays
    store.close()


def test_zero_means_no_limit(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(
        path,
        limits=Limits(
            chat_days=0, chat_rows_per_room=0, chat_rows=0, games_days=0, games_rows=0, games_mb=0
        ),
    )
    chat(store, "R1", 300, ts=NOW - 1000 * DAY)
    game(store, NOW - 1000 * DAY)
    assert not store.prune(NOW)
    assert count(path, "chat") == 300 and count(path, "games") == 1
    store.close()


def test_the_file_stops_growing_once_the_limits_are_reached(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path, limits=Limits(chat_rows_per_room=50, chat_rows=500, games_rows=20))
    pages = []
    for rnd in range(12):
        for room in range(20):
            chat(store, f"R{rnd}-{room}", 60, start=rnd * 100)
        for _ in range(10):
            game(store, NOW + rnd)
        drain(store, NOW + rnd)
        pages.append(store.db.execute("PRAGMA page_count").fetchone()[0])
    assert count(path, "chat") <= 500 and count(path, "games") == 20
    # Freed pages are reused: twelve rounds of writes take about what two did (a few
    # pages more for the indexes' half-full pages), not six times as much.
    assert pages[-1] <= pages[1] * 1.25
    store.close()


def test_the_server_options_reach_the_store(tmp_path: Path) -> None:
    args = cli.build_parser().parse_args(
        [
            "--chat-days",
            "2",
            "--chat-rows-per-room",
            "7",
            "--chat-rows",
            "70",
            "--games-days",
            "3",
            "--games-rows",
            "30",
            "--games-mb",
            "1.5",
            "--journal-rows",
            "99",
        ]
    )
    assert (
        args.chat_days,
        args.chat_rows_per_room,
        args.chat_rows,
        args.games_days,
        args.games_rows,
        args.games_mb,
        args.journal_rows,
    ) == (2.0, 7, 70, 3.0, 30, 1.5, 99)
    limits = ServerConfig(
        chat_days=2, chat_rows_per_room=7, chat_rows=70, games_days=3, games_rows=30, games_mb=1.5
    ).retention()
    assert limits == Limits(
        chat_days=2, chat_rows_per_room=7, chat_rows=70, games_days=3, games_rows=30, games_mb=1.5
    )


@pytest.mark.parametrize("flag", ["--chat-rows", "--games-days", "--games-mb"])
def test_a_negative_or_unreadable_limit_is_refused(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for value in ("-1", "many"):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args([flag, value])
        assert "0 or more" in capsys.readouterr().err
