"""The store's transactions and its checkpoints off the event loop."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from gridhall.server.core.effects import DropRoom, Log, SaveRoom, SaveSnapshot
from gridhall.server.io.store import store as store_module
from gridhall.server.io.store.store import Store

JOURNALS = "SELECT room, n, entry FROM journal UNION ALL SELECT room, n, entry FROM journal_tail"
"""Every journal entry, folded or still in the tail."""


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


def tables(path: Path) -> tuple[int, int]:
    """Entries folded into ``journal``, and entries still in the tail."""
    with sqlite3.connect(path) as db:
        folded = db.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
        return folded, db.execute("SELECT COUNT(*) FROM journal_tail").fetchone()[0]


def entries(store: Store) -> dict[str, list[int]]:
    _, rooms = store.load_live()
    return {room.row["code"]: [n for n, _ in room.entries] for room in rooms}


def test_the_tail_folds_into_the_journal_and_a_restart_reads_both_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn's entries go to the tail in the order written; the turn that brings it to
    ``FOLD_ROWS`` moves them into ``journal``. A store opened again without a close
    (a crash) restores every entry, folded or not, in order; snapshots and dropped
    rooms delete from both; closing folds the rest."""
    monkeypatch.setattr(store_module, "FOLD_ROWS", 10)
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([SaveRoom(code, {"code": code}) for code in ("R1", "R2")])
    for n in range(1, 8):
        store.write([Log("R1", n, {"k": "tick"}), Log("R2", n, {"k": "tick"})])
        assert tables(path) == ((10, 2 * n - 10) if n >= 5 else (0, 2 * n))
    store.write([Log("R1", 8, {"k": "tick"})])  # a move alone: the tail's fifth
    assert tables(path) == (10, 5) and store.tail == 5

    crashed = Store(path)  # the first was never closed
    assert crashed.tail == 5
    assert entries(crashed) == {"R1": list(range(1, 9)), "R2": list(range(1, 8))}
    crashed.write([SaveSnapshot("R1", 6, {"code": "R1"}), DropRoom("R2")])
    assert entries(crashed) == {"R1": [7, 8]}
    assert tables(path) == (0, 2) and crashed.tail == 2
    crashed.write([Log("R1", 9, {"k": "tick"})])
    assert tables(path) == (0, 3)
    crashed.close()
    assert tables(path) == (3, 0)  # closing folds what is left
    assert entries(Store(path)) == {"R1": [7, 8, 9]}


def test_a_failed_turn_at_the_fold_leaves_the_tail_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "FOLD_ROWS", 3)
    path = tmp_path / "g.db"
    store = Store(path)
    store.write([Log("R1", 1, {"k": "tick"}), Log("R1", 2, {"k": "tick"})])
    with pytest.raises(TypeError):
        store.write([Log("R1", 3, {"k": "tick"}), Log("R1", 4, {"k": "tick", "x": object()})])
    assert store.tail == 2 and tables(path) == (0, 2) and not store.db.in_transaction
    store.write([Log("R1", 3, {"k": "tick"})])
    assert store.tail == 0 and tables(path) == (3, 0)
    store.close()
