"""History without sockets: the store's player index and its migration, the queries'
filters and pages, and replays re-run from records by the pure rules."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from gridhall.protocol.delta import apply
from gridhall.server.games.gomoku.game import GomokuGame
from gridhall.server.games.minesweeper.game import from_layout
from gridhall.server.io.services import replays
from gridhall.server.io.store import history
from gridhall.server.io.store.retention import Limits
from gridhall.server.io.store.store import SCHEMA_VERSION, Store

NOW = 1_800_000_000.0
OPTIONS = {"size": 15, "rule": "freestyle"}
OLD_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, room TEXT NOT NULL,
    game TEXT NOT NULL, options TEXT NOT NULL, players TEXT NOT NULL, result TEXT NOT NULL,
    record TEXT NOT NULL, started_at REAL NOT NULL, ended_at REAL NOT NULL)"""
"""The ``games`` table as schema 2 made it."""


def gomoku(moves: list[tuple[int, int]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Gomoku game of ``moves`` by p1 (black) and p2: its record and final view."""
    game = GomokuGame(dict(OPTIONS), ["p1", "p2"], 0, 0.0)
    for n, (x, y) in enumerate(moves):
        turn = game.turn()
        assert turn is not None
        game.apply(turn, {"x": x, "y": y}, float(n + 1))
    return game.record(), game.view(None)


def players(*names: str) -> list[dict[str, Any]]:
    return [{"player": f"p{n + 1}", "name": name, "seat": n} for n, name in enumerate(names)]


def save(
    store: Store,
    names: tuple[str, ...] = ("Ann", "Bob"),
    game: str = "gomoku",
    record: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    return store.save_game(
        "R1",
        game,
        options or dict(OPTIONS),
        players(*names),
        {"winner": "p1", "reason": "five"},
        record or gomoku([(0, 0), (0, 1)])[0],
        NOW - 60,
        NOW,
    )


def frames(start: dict[str, Any], steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    views = [start]
    for step in steps:
        views.append(apply(views[-1], step["view"], step["delta"]))
    return views


def test_games_filter_by_kind_player_and_name_newest_first(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ids = [
        save(store, ("Ann", "Bob")),
        save(store, ("Cy", "ann")),
        save(store, ("Bob", "Dee"), options={**OPTIONS, "rated": True}),
    ]
    db = store.db
    games, more = history.list_games(db)
    assert [g["game_id"] for g in games] == ids[::-1] and more is None
    assert [g["rated"] for g in games] == [True, False, False]
    games, _ = history.list_games(db, name="ANN")
    assert [g["game_id"] for g in games] == [ids[1], ids[0]]
    games, _ = history.list_games(db, player="p1", name="bob")
    assert [g["game_id"] for g in games] == [ids[2], ids[0]]
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    games, more = history.list_games(db, limit=1, before=ids[2])
    assert [g["game_id"] for g in games] == [ids[1]] and more == ids[1]
    assert history.list_games(db, game="minesweeper") == ([], None)
    assert games[0]["moves"] == 2 and "source" not in games[0]
    store.close()


def test_an_older_database_gets_the_player_index_and_move_counts(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    record, _ = gomoku([(0, 0), (0, 1), (1, 0)])
    with sqlite3.connect(path) as db:
        db.execute(OLD_GAMES)
        db.execute(
            "INSERT INTO games (room, game, options, players, result, record,"
            " started_at, ended_at) VALUES ('R1', 'gomoku', ?, ?, '{}', ?, 1, 2)",
            (json.dumps(OPTIONS), json.dumps(players("Ann", "Bob")), json.dumps(record)),
        )
        db.execute("PRAGMA user_version=2")
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
    games, _ = history.list_games(store.db, name="bob")
    assert len(games) == 1 and games[0]["moves"] == 3
    store.close()
    again = Store(path)  # a second start changes nothing
    assert again.db.execute("SELECT COUNT(*) FROM game_players").fetchone()[0] == 2
    again.close()


def test_a_pruned_game_leaves_no_player_rows(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db", limits=Limits(games_rows=1))
    for _ in range(5):
        save(store)
    while store.prune(NOW):
        pass
    kept = [r[0] for r in store.db.execute("SELECT id FROM games")]
    indexed = {r[0] for r in store.db.execute("SELECT game_id FROM game_players")}
    assert len(kept) == 1 and indexed == set(kept)
    store.close()


def test_a_long_replay_comes_in_pages_that_fold_to_the_same_frames() -> None:
    moves = [(x, y) for y in range(0, 15, 3) for x in range(15)][:40]
    record, final = gomoku(moves)
    whole = replays.page("gomoku", record)
    assert whole.total == 40 and whole.next is None
    views = frames(whole.start, whole.steps)
    assert views[-1] == {k: v for k, v in final.items() if k != "clock"}
    first = replays.page("gomoku", record, 0, limit=15)
    assert len(first.steps) == 15 and first.next == 15 and first.total == 40
    second = replays.page("gomoku", record, 15, limit=15)
    assert second.start == views[15] and second.next == 30
    assert frames(second.start, second.steps) == views[15:31]
    tail = replays.page("gomoku", record, 40)
    assert tail.start == views[-1] and tail.steps == [] and tail.next is None
    with pytest.raises(IndexError):
        replays.page("gomoku", record, 41)
    small = replays.page("gomoku", record, 0, max_bytes=1)
    assert len(small.steps) == 1 and small.next == 1


def test_a_gomoku_replay_ends_on_the_winning_line_and_labels_cells() -> None:
    record, final = gomoku([(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)])
    replay = replays.page("gomoku", record)
    assert [s["label"] for s in replay.steps[:2]] == ["A1", "A2"]
    assert [s["by"] for s in replay.steps[:2]] == ["p1", "p2"]
    assert frames(replay.start, replay.steps)[-1]["line"] == final["line"]


def test_a_minesweeper_replay_hides_the_mines_until_its_last_frame() -> None:
    mines = [(2, y) for y in range(5)]  # a wall: the first reveal opens the left side
    game = from_layout(mines, None, width=5, height=5, players=["p1", "p2"], options={"lives": 1})
    game.apply("p1", {"action": "reveal", "x": 0, "y": 0}, 1.0)
    game.apply("p2", {"action": "mark", "x": 2, "y": 0, "mark": "flag"}, 2.0)
    game.apply("p2", {"action": "reveal", "x": 2, "y": 4}, 3.0)
    assert game.result is not None
    replay = replays.page("minesweeper", game.record())
    views = frames(replay.start, replay.steps)
    assert [s["by"] for s in replay.steps] == ["p1", "p2", "p2"]
    for view in views[:-1]:
        assert "*" not in "".join(view["rows"]) and view.get("hit") is None
    assert views[-1]["rows"] == game.view(None)["rows"]
    assert views[-1]["hit"] == [[2, 4, "p2"]]


def test_an_unknown_kind_of_record_is_a_replay_error() -> None:
    with pytest.raises(replays.ReplayError):
        replays.page("chess", {})
    with pytest.raises(replays.ReplayError):
        replays.page("gomoku", {"moves": [[0, 0]]})


def test_a_race_replays_every_racer_on_one_timeline_with_hint_penalties_taken_off() -> None:
    from gridhall.server.games.linkmatch.board import copy_rows
    from gridhall.server.games.linkmatch.game import LinkMatchGame
    from gridhall.server.games.linkmatch.paths import first_pair

    options = {
        "width": 4,
        "height": 4,
        "kinds": 2,
        "gravity": "none",
        "time_limit": 600,
        "countdown": 0,
        "hint_penalty": 5,
    }
    game = LinkMatchGame(options, ["p1", "p2"], 7, 0.0)
    order: list[str] = []

    def link(player: str, now: float) -> None:
        pair = first_pair(copy_rows(game.racers[player].rows))
        assert pair is not None
        game.apply(player, {"action": "link", "a": list(pair[0]), "b": list(pair[1])}, now)
        order.append(player)

    game.apply("p2", {"action": "hint"}, 0.5)  # p2's clock now runs 5 s ahead
    link("p2", 1.0)
    link("p1", 2.0)
    link("p2", 3.0)
    game.refused("p1", {"action": "link", "a": [0, 0], "b": [0, 0]}, 3.5)  # not a step
    link("p1", 4.0)
    game.resign("p2", 5.0)
    while game.result is None:
        link("p1", 6.0 + len(order))
    replay = replays.page("linkmatch", game.record())
    assert [s["by"] for s in replay.steps] == [*order[:4], "p2", *order[4:]]  # p2 resigned
    assert all("path" in s["view"] for s in replay.steps if s["by"] == "p1")
    last = frames(replay.start, replay.steps)[-1]
    assert last["boards"] == {p: r.rows for p, r in game.racers.items()}
    spectator = game.view(None)
    for key in ("progress", "finished", "standing"):
        assert last[key] == spectator[key]
    assert replay.steps[0]["t"] == 1.0  # p2's clock said 6.0: the penalty is taken off


def test_a_race_replays_actions_in_the_order_they_were_taken_even_within_a_millisecond() -> None:
    """Racers' times are their clocks to the millisecond, so a resignation a fraction
    of one after another racer's link carries the same time; the replay still shows
    the link first (it once put the first seat first, showing no path for the link)."""
    from gridhall.server.games.linkmatch.board import copy_rows
    from gridhall.server.games.linkmatch.game import LinkMatchGame
    from gridhall.server.games.linkmatch.paths import first_pair

    options = {
        "width": 4,
        "height": 4,
        "kinds": 2,
        "gravity": "none",
        "time_limit": 600,
        "countdown": 0,
        "hint_penalty": 5,
    }
    game = LinkMatchGame(options, ["cy", "dee"], 7, 0.0)
    pair = first_pair(copy_rows(game.racers["dee"].rows))
    assert pair is not None
    game.apply("dee", {"action": "link", "a": list(pair[0]), "b": list(pair[1])}, 5.1236)
    game.resign("cy", 5.1238)
    record = game.record()
    assert record["actions"]["dee"][0]["t"] >= record["actions"]["cy"][0]["t"]  # a tie
    steps = replays.page("linkmatch", record).steps
    assert [s["by"] for s in steps[:2]] == ["dee", "cy"]
    assert "path" in steps[0]["view"] and "path" not in steps[1]["view"]
    assert steps[0]["t"] <= steps[1]["t"]
    del record["actions"]["dee"][0]["n"]  # a record from before ``n``: time, then seat
    assert [s["by"] for s in replays.page("linkmatch", record).steps[:2]] == ["cy", "dee"]
