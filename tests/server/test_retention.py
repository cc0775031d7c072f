"""History within limits: chat per room, by age and in all; finished games by age
and count; in small batches, and the file stops growing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.effects import SaveChat, SaveGame
from gridhall.server.io.retention import BATCH, DAY, GAME_BATCH, Limits
from gridhall.server.io.store import Store

NOW = 1_800_000_000.0


def count(path: Path, table: str, where: str = "1") -> int:
    with sqlite3.connect(path) as db:
        n: int = db.execute(f"SELECT COUNT(*) FROM {table} WHERE {where}").fetchone()[0]
        return n


def chat(store: Store, room: str, lines: int, ts: float = NOW, start: int = 0) -> None:
    for n in range(start, start + lines):
        store.write([SaveChat(room, "p1", "Ann", f"line {n}", ts + n * 0.001)])


def game(store: Store, ended_at: float, room: str = "R1") -> None:
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
