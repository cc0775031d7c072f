"""The store's transactions and its checkpoints off the event loop."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from gridhall.server.core.effects import Log, SaveRoom
from gridhall.server.io.store.store import Store


def journal(path: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT room, n FROM journal ORDER BY room, n").fetchall()


def test_one_write_is_one_transaction_all_or_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    store.write([Log("R1", 1, {"k": "tick"})])  # one entry: a statement of its own
    assert not store.db.in_transaction
    assert journal(tmp_path / "g.db") == [("R1", 1)]  # committed: another connection sees it
    with pytest.raises(sqlite3.IntegrityError):
        store.write([Log("R1", 1, {"k": "tick"})])
    assert not store.db.in_transaction
    with pytest.raises(sqlite3.IntegrityError):  # (R1, 1) is there already
        store.write([Log("R2", 1, {"k": "tick"}), Log("R1", 1, {"k": "tick"})])
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
        kinds = db.execute("SELECT typeof(entry) FROM journal ORDER BY n").fetchall()
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
