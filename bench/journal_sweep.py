"""What the journal costs per move as rooms multiply: schema 6's fold against the sweep.

Schema 6 appended a turn's entries to ``journal_tail`` and folded the tail into a
``journal`` keyed ``(room, n)`` every thousand entries, deleting a room's entries from
both tables at each snapshot. Schema 7 (``server/io/store/journal_table.py``) appends
to one table in the order written, ends entries with a write to ``rooms`` and sweeps
them later where they were written. Both are run here in SQLite as the store sets it
up (WAL, ``synchronous=NORMAL``, the WAL checkpointed every 200 turns and counted), on
the same turns: ``--rooms`` rooms, ``--per-turn`` of them moving in each transaction
(all of them: the throughput phase; one: a paced hall, each move its own commit), each
room snapshotted every 225 moves (a Gomoku game). The fold's statements are schema 6's
own; the sweep's are ``journal_table``'s. Printed: CPU per move, the longest commit
(a stall of every room), and the ratio sweep / fold of each, run after run.

    .venv/bin/python bench/journal_sweep.py --rooms 50 500 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
import time

from gridhall.server.io.store import journal_table

ENTRY = bytes(70)
"""About a Gomoku move's entry as the store packs it."""
GAME = 225
CHECKPOINT_TURNS = 200
ROOMS = "CREATE TABLE rooms (code TEXT PRIMARY KEY, row TEXT NOT NULL, snapshot TEXT,"
ROOMS += " base INTEGER NOT NULL DEFAULT 0, quarantine TEXT, since INTEGER NOT NULL DEFAULT 0)"


class Fold:
    """Schema 6: the tail, folded every thousand entries; deletions at each snapshot."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.execute(
            "CREATE TABLE journal (room TEXT NOT NULL, n INTEGER NOT NULL,"
            " entry BLOB NOT NULL, PRIMARY KEY (room, n)) WITHOUT ROWID"
        )
        db.execute(
            "CREATE TABLE journal_tail (seq INTEGER PRIMARY KEY, room TEXT NOT NULL,"
            " n INTEGER NOT NULL, entry BLOB NOT NULL)"
        )
        self.tail = 0

    def turn(self, rows: list[tuple[str, int, bytes]], snapshots: list[tuple[str, int]]) -> None:
        db = self.db
        db.execute("BEGIN")
        db.executemany("INSERT INTO journal_tail (room, n, entry) VALUES (?, ?, ?)", rows)
        self.tail += len(rows)
        for code, n in snapshots:
            db.execute("UPDATE rooms SET snapshot = '{}', base = ? WHERE code = ?", (n, code))
            db.execute("DELETE FROM journal WHERE room = ? AND n <= ?", (code, n))
            self.tail -= db.execute(
                "DELETE FROM journal_tail WHERE room = ? AND n <= ?", (code, n)
            ).rowcount
        if self.tail >= 1000:
            db.execute(
                "INSERT OR IGNORE INTO journal (room, n, entry)"
                " SELECT room, n, entry FROM journal_tail ORDER BY room, n, seq"
            )
            db.execute("DELETE FROM journal_tail")
            self.tail = 0
        db.execute("COMMIT")


class Sweep:
    """Schema 7: one table in the order written, swept (``journal_table``)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        db.execute(journal_table.CREATE)
        self.sweeper = journal_table.Sweeper()

    def turn(self, rows: list[tuple[str, int, bytes]], snapshots: list[tuple[str, int]]) -> None:
        db = self.db
        db.execute("BEGIN")
        db.executemany(journal_table.INSERT, rows)
        self.sweeper.appended += len(rows)
        for code, n in snapshots:
            db.execute("UPDATE rooms SET snapshot = '{}', base = ? WHERE code = ?", (n, code))
        if self.sweeper.due(0):
            self.sweeper.sweep(db)
        db.execute("COMMIT")


DESIGNS = {"fold": Fold, "sweep": Sweep}


def run(design: str, rooms: int, per_turn: int, moves: int) -> tuple[float, float]:
    """CPU microseconds per move, and the longest turn in milliseconds."""
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(os.path.join(tmp, "j.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute(ROOMS)
        codes = [f"R{n:05d}" for n in range(rooms)]
        db.executemany("INSERT INTO rooms (code, row) VALUES (?, '{}')", [(c,) for c in codes])
        journal = DESIGNS[design](db)
        made = dict.fromkeys(codes, 0)
        order = random.Random(1)
        longest = 0.0
        done = turns = 0
        start = time.thread_time()
        while done < moves:
            order.shuffle(codes)  # rooms out of step, as in a hall
            for first in range(0, rooms, per_turn):
                rows, snapshots = [], []
                for code in codes[first : first + per_turn]:
                    made[code] = n = made[code] + 1
                    rows.append((code, n, ENTRY))
                    if n % GAME == 0:
                        snapshots.append((code, n))
                began = time.perf_counter()
                journal.turn(rows, snapshots)
                longest = max(longest, time.perf_counter() - began)
                done += len(rows)
                turns += 1
                if turns % CHECKPOINT_TURNS == 0:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        spent = time.thread_time() - start
        db.close()
    return 1e6 * spent / done, 1e3 * longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--per-turn", type=int, nargs="+", default=[0, 1], help="0: every room")
    parser.add_argument("--moves", type=int, default=100_000, help="moves per run")
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per design")
    args = parser.parse_args()
    print(f"journal fold against sweep: load average {os.getloadavg()[0]:.2f}")
    for rooms in args.rooms:
        for per_turn in args.per_turn:
            each = per_turn or rooms
            cpu: dict[str, list[float]] = {name: [] for name in DESIGNS}
            stall: dict[str, list[float]] = {name: [] for name in DESIGNS}
            for _ in range(args.rounds):
                for name in DESIGNS:
                    us, ms = run(name, rooms, each, args.moves)
                    cpu[name].append(us)
                    stall[name].append(ms)
            for name in DESIGNS:
                print(
                    f"  {rooms:4} rooms, {each:4} a turn, {name:5}  us/move "
                    + " ".join(f"{v:6.2f}" for v in cpu[name])
                    + f"  median {statistics.median(cpu[name]):6.2f}"
                    + f"   longest turn ms {max(stall[name]):6.2f}"
                )
            ratios = [s / f for s, f in zip(cpu["sweep"], cpu["fold"], strict=True)]
            print(
                f"  {rooms:4} rooms, {each:4} a turn: sweep / fold CPU "
                + " ".join(f"{r:.2f}x" for r in ratios)
                + f", longest turn {max(stall['sweep']) / max(stall['fold']):.2f}x"
            )
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
