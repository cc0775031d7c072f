"""The store's transactions and its checkpoints off the event loop."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.core.effects import DropRoom, Log, SaveRoom, SaveSnapshot, Stored
from gridhall.server.io.store import journal_table
from gridhall.server.io.store import store as store_module
from gridhall.server.io.store.store import NewerStore, Store

JOURNALS = "SELECT room, n, entry FROM journal"
"""Every journal entry, live or not yet swept."""


def journal(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as db:
        return db.execute(f"SELECT room, n FROM ({JOURNALS}) ORDER BY room, n").fetchall()


def test_one_write_is_one_transaction_all_or_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.write([Log("R1", 1, {"k": "tick"})])  # one entry: a statement of its own
    assert not store.db.in_transaction
    assert journal(tmp_path / "g.db") == [("R1", 1)]  # committed: another connection sees it
    unwritable = Log("R1", 2, {"k": "tick", "x": object()})  # neither MessagePack nor JSON
    with pytest.raises(TypeError):
        store.write([unwritable])
    assert not store.db.in_transaction
    with pytest.raises(TypeError):
        store.write([Log("R2", 1, {"k": "tick"}), unwritable])
    assert not store.db.in_transaction
    assert journal(tmp_path / "g.db") == [("R1", 1)]
    store.write([Log("R2", 1, {"k": "tick"}), Log("R2", 2, {"k": "tick"})])
    assert journal(tmp_path / "g.db") == [("R1", 1), ("R2", 1), ("R2", 2)]
    store.close()


def test_commits_never_checkpoint_a_thread_does_soon_after(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    assert store.db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    store.checkpointer.every = 0.01
    on_loop = threading.get_ident()
    store.write([Log("R1", n, {"k": "tick"}) for n in range(1, 200)])
    deadline = time.monotonic() + 30
    while store.checkpointer.checkpoints == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert store.checkpointer.checkpoints >= 1
    thread = store.checkpointer._thread
    assert thread is None or thread.ident != on_loop
    store.close()
    assert store.checkpointer._thread is None or not store.checkpointer._thread.is_alive()
    assert journal(tmp_path / "g.db")[-1] == ("R1", 199)


def test_journal_entries_are_messagepack_and_older_json_entries_still_load(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.write(
        [
            SaveRoom("R1", {"game": "gomoku"}),
            Log("R1", 1, {"k": "msg", "p": "a", "m": {"x": 7, "y": 7}, "t": 1.5}),
            Log("R1", 2, {"k": "work", "answer": 2**70}),
        ]
    )  # too big for MessagePack
    with sqlite3.connect(tmp_path / "g.db") as db:
        kinds = db.execute(f"SELECT typeof(entry) FROM ({JOURNALS}) ORDER BY n").fetchall()
        db.execute(
            "INSERT INTO journal (room, n, entry) VALUES ('R1', 3, ?)",
            ('{"k":"msg","p":"b","m":{"x":8,"y":8},"t":2.0}',),
        )  # an older version's
    assert kinds == [("blob",), ("text",)]
    _, [room] = store.load_live()
    assert room.entries == [
        (1, {"k": "msg", "p": "a", "m": {"x": 7, "y": 7}, "t": 1.5}),
        (2, {"k": "work", "answer": 2**70}),
        (3, {"k": "msg", "p": "b", "m": {"x": 8, "y": 8}, "t": 2.0}),
    ]
    store.close()


def rows(path: Path) -> int:
    """Entries in ``journal``, live or not yet swept."""
    with sqlite3.connect(path) as db:
        n: int = db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
        return n


def entries(store: Store) -> dict[str, list[int]]:
    _, rooms = store.load_live()
    return {room.row["code"]: [n for n, _ in room.entries] for room in rooms}


def tick(n: int) -> dict[str, object]:
    return {"k": "tick", "i": n}


def test_snapshots_and_drops_end_entries_and_the_sweep_deletes_them_where_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot or a drop writes only ``rooms``: the entries it ends stay until the
    sweep, every ``SWEEP_ROWS`` appends, comes by them, and none is restored
    meanwhile. A store opened again without a close (a crash) restores every live
    entry, in order."""
    monkeypatch.setattr(journal_table, "SWEEP_ROWS", 4)
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom(code, {"code": code}) for code in ("R1", "R2")])
    store.write([Log("R1", 1, tick(1)), Log("R2", 1, tick(1))])
    store.write([Log("R1", 2, tick(2))])  # a move alone: its own statement
    assert rows(path) == 3 and store.sweeper.appended == 3
    crashed = Store(path)  # the first was never closed
    assert entries(crashed) == {"R1": [1, 2], "R2": [1]}
    crashed.write([SaveSnapshot("R1", 2, {"code": "R1"}), DropRoom("R2")])
    assert entries(crashed) == {"R1": []} and rows(path) == 3  # ended, not yet deleted
    crashed.write([Log("R1", 3, tick(3))])
    crashed.write([Log("R1", 4, tick(4))])
    crashed.write([Log("R1", 5, tick(5))])
    crashed.write([Log("R1", 6, tick(6))])  # the fourth append: a sweep of 8 rows
    assert rows(path) == 4 and crashed.sweeper.appended == 0
    assert entries(crashed) == {"R1": [3, 4, 5, 6]}
    _, [room] = crashed.load_live()
    assert room.entries[0] == (3, tick(3))
    crashed.close()
    assert entries(Store(path)) == {"R1": [3, 4, 5, 6]}


def test_the_journal_stays_within_twice_its_live_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rooms that snapshot every few moves, some closing and new ones opening: the
    sweep keeps the table near its live entries however long the server runs."""
    monkeypatch.setattr(journal_table, "SWEEP_ROWS", 50)
    path = tmp_path / "g.db"
    store = Store(path)
    made = 0
    live: dict[str, int] = {}
    most = 0
    for turn in range(1, 1500):
        effects: list[Stored] = []
        if len(live) < 20:
            made += 1
            live[f"R{made}"] = 0
            effects.append(SaveRoom(f"R{made}", {"code": f"R{made}"}))
        for code in list(live):
            live[code] += 1
            effects.append(Log(code, live[code], tick(turn)))
            if live[code] % 7 == 0:
                effects.append(SaveSnapshot(code, live[code], {"code": code}))
        if turn % 13 == 0:  # a room closes
            code = min(live)
            del live[code]
            effects.append(DropRoom(code))
        store.write(effects)
        most = max(most, rows(path))
    assert entries(store) == {code: list(range(n - n % 7 + 1, n + 1)) for code, n in live.items()}
    assert most <= 2 * 7 * 20 + 4 * 50  # twice the live entries at most, and two windows


def test_a_room_made_again_with_a_code_a_dropped_one_had_restores_only_its_own_entries(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom("R1", {"code": "R1"}), Log("R1", 1, tick(1)), Log("R1", 2, tick(2))])
    store.write([DropRoom("R1")])
    store.write([SaveRoom("R1", {"code": "R1", "again": True}), Log("R1", 1, tick(9))])
    assert rows(path) == 3
    _, [room] = Store(path).load_live()
    assert room.row["again"] and room.entries == [(1, tick(9))]


def test_the_sweep_never_deletes_the_last_entry_so_a_newer_room_keeps_its_own(
    tmp_path: Path,
) -> None:
    """A dropped room's entries were the last written when a new room was made (its
    ``since``): had the sweep deleted them all, SQLite would number the new room's
    entries from the same ``seq`` again, and the restore would take them for the older
    room's (the restart model found it)."""
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom("R1", {"code": "R1"}), Log("R1", 1, tick(1)), Log("R1", 2, tick(2))])
    store.write([DropRoom("R1")])
    store.write([SaveRoom("R2", {"code": "R2"})])
    store.prune(1.0)  # a sweep: R1's first entry goes, its last is kept
    assert rows(path) == 1
    store.write([Log("R2", 1, tick(1))])
    store.write([Log("R2", 2, tick(2))])
    store.prune(1.0)  # now R1's last goes
    assert rows(path) == 2
    assert entries(Store(path)) == {"R2": [1, 2]}
    store.close()


def test_deleting_a_room_set_aside_deletes_its_entries_at_once(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom("R1", {"code": "R1"}), Log("R1", 1, tick(1))])
    store.write([SaveRoom("R2", {"code": "R2"}), Log("R2", 1, tick(1))])
    store.write([SaveRoom("R3", {"code": "R3"}), Log("R3", 1, tick(1))])
    store.db.execute("UPDATE rooms SET quarantine = '{}' WHERE code IN ('R1', 'R3')")
    assert store.delete_quarantined("R1")
    assert rows(path) == 2 and entries(store) == {"R2": [1]}
    assert store.delete_quarantined("R3")  # the last entry written: blanked, not deleted
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT room, n, entry FROM journal ORDER BY seq").fetchall() == [
            ("R2", 1, store_module._entry(tick(1))),
            ("", 0, b""),
        ]
    store.write([Log("R2", 2, tick(2))])
    store.prune(1.0)  # swept once another entry follows it
    assert rows(path) == 2 and entries(store) == {"R2": [1, 2]}
    store.close()


def test_pruning_sweeps_a_server_that_makes_no_moves(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom("R1", {"code": "R1"})] + [Log("R1", n, tick(n)) for n in range(1, 6)])
    store.write([SaveSnapshot("R1", 5, {"code": "R1"})])
    assert rows(path) == 5
    store.prune(1.0)  # all but the last written, which the sweep always keeps
    assert rows(path) == 1 and entries(store) == {"R1": []} and not store.db.in_transaction
    store.close()


def test_a_failed_turn_at_the_sweep_leaves_the_sweep_where_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_table, "SWEEP_ROWS", 3)
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom("R1", {"code": "R1"}), Log("R1", 1, tick(1)), Log("R1", 2, tick(2))])
    store.write([SaveSnapshot("R1", 2, {"code": "R1"})])
    with pytest.raises(TypeError):
        store.write([Log("R1", 3, tick(3)), Log("R1", 4, {"k": "tick", "x": object()})])
    assert store.sweeper.mark() == (0, 2) and rows(path) == 2 and not store.db.in_transaction
    store.write([Log("R1", 3, tick(3))])  # the third append: the sweep
    assert store.sweeper.appended == 0 and rows(path) == 1 and entries(store) == {"R1": [3]}
    store.close()


def test_a_schema_6_file_comes_back_with_every_entry_in_order(tmp_path: Path) -> None:
    """Schema 6's ``journal`` keyed ``(room, n)`` and the ``journal_tail`` not yet
    folded into it become the one table, each room's entries as they were read."""
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            """
            CREATE TABLE rooms (code TEXT PRIMARY KEY, row TEXT NOT NULL, snapshot TEXT,
                base INTEGER NOT NULL DEFAULT 0, quarantine TEXT);
            CREATE TABLE journal (room TEXT NOT NULL, n INTEGER NOT NULL,
                entry TEXT NOT NULL, PRIMARY KEY (room, n)) WITHOUT ROWID;
            CREATE TABLE journal_tail (seq INTEGER PRIMARY KEY, room TEXT NOT NULL,
                n INTEGER NOT NULL, entry TEXT NOT NULL);
            INSERT INTO rooms VALUES ('R1', '{"code":"R1"}', '{"code":"R1"}', 2, NULL);
            INSERT INTO rooms VALUES ('R2', '{"code":"R2"}', NULL, 0, NULL);
            INSERT INTO journal VALUES ('R2', 1, '{"k":"a"}'), ('R1', 3, '{"k":"b"}');
            INSERT INTO journal_tail (room, n, entry) VALUES ('R1', 4, '{"k":"c"}'),
                ('R2', 2, '{"k":"d"}'), ('R2', 1, '{"k":"again"}'), ('R1', 5, '{"k":"e"}');
            PRAGMA user_version=6;
            """
        )
    store = Store(path)
    _, rooms = store.load_live()
    assert {r.row["code"]: r.entries for r in rooms} == {
        "R1": [(3, {"k": "b"}), (4, {"k": "c"}), (5, {"k": "e"})],
        "R2": [(1, {"k": "a"}), (2, {"k": "d"})],  # a repeated (room, n): its first
    }
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master")}
    assert "journal_tail" not in tables and "journal_by_room" not in tables
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == 7
    store.write([Log("R2", 3, tick(3))])
    store.close()
    assert entries(Store(path))["R2"] == [1, 2, 3]


def test_a_file_from_a_newer_version_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read by a version that does not know its tables, a newer file's journal would
    replay entries its snapshots ended: the store refuses to open it, the server and
    its commands say why and exit 2, and the file keeps its schema and tables."""
    path = tmp_path / "new.db"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version=99")
    with pytest.raises(NewerStore) as refused:
        Store(path)
    assert refused.value.schema == 99 and refused.value.path == str(path)
    for argv in (
        ["--db", str(path), "--port", "0", "--no-discovery"],
        ["history", "--db", str(path)],
    ):
        with pytest.raises(SystemExit) as stopped:
            cli.main(argv)
        assert stopped.value.code == 2
        said = capsys.readouterr().err
        assert "newer gridhall" in said and "99" in said and str(path) in said
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 99
        assert db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0] == 0


def test_a_snapshot_is_stored_as_json_that_loads_as_it_was(tmp_path: Path) -> None:
    """A room's snapshot goes through msgspec's JSON encoder. The text loads as the
    snapshot was: non-ASCII as UTF-8, tuples as arrays, number keys as strings, as
    ``json.dumps`` wrote them. A key msgspec refuses (a bool or None) falls back to
    ``json.dumps``, and an object neither can write is refused, as before."""
    store = Store(tmp_path / "g.db")
    store.write([SaveRoom("R1", {"code": "R1", "name": "Sørens rom ☃"})])
    snapshot = {"game": {"moves": [(7, 7)], "names": {"p1": "Åsa"}, 3: "x", "big": 2**70}}
    store.write([SaveSnapshot("R1", 3, snapshot)])
    with sqlite3.connect(tmp_path / "g.db") as db:
        row, text = db.execute("SELECT row, snapshot FROM rooms WHERE code = 'R1'").fetchone()
    assert "☃" in row and "\\u" not in row  # UTF-8, not escapes
    assert json.loads(text) == {
        "game": {"moves": [[7, 7]], "names": {"p1": "Åsa"}, "3": "x", "big": 2**70}
    }
    assert store_module._json({None: "a", True: "b"}) == '{"null":"a","true":"b"}'  # fallback
    with pytest.raises(TypeError):
        store_module._json({"x": object()})
