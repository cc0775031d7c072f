"""What a turn's journal commit costs per move, by how the journal's rows are laid out.

Keyed ``(room, n)``, as the store kept its journal up to schema 6, a room's entries are
together, so a turn in which many rooms moved dirties one b-tree page per room, and
SQLite writes each dirty page whole to the WAL at the commit (and again at the
checkpoint). Rows keyed by the order they were written, as schema 7 keeps them
(``server/io/store/journal_table.py``), put a turn's entries on one or two pages. This
measures both layouts alone, in SQLite as the store sets it up (WAL,
``synchronous=NORMAL``), with the checkpoints counted: the CPU a move's entry costs
when ``--rooms`` rooms move in each turn. It measures the appends alone; what ending
and deleting entries costs each design is ``bench/journal_sweep.py``'s.

    .venv/bin/python bench/journal_layout.py --rooms 1 50 --rounds 3
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import tempfile
import time

LAYOUTS = {
    "by room": "CREATE TABLE journal (room TEXT NOT NULL, n INTEGER NOT NULL,"
    " entry BLOB NOT NULL, PRIMARY KEY (room, n)) WITHOUT ROWID",
    "by order": "CREATE TABLE journal (seq INTEGER PRIMARY KEY, room TEXT NOT NULL,"
    " n INTEGER NOT NULL, entry BLOB NOT NULL)",
}
ENTRY = bytes(70)
"""About a Gomoku move's entry as the store packs it."""
MOVES = 20_000
CHECKPOINT_TURNS = 200


def per_move(layout: str, rooms: int) -> float:
    """CPU microseconds per move: ``MOVES`` entries in turns of ``rooms``, one
    transaction a turn, a checkpoint every ``CHECKPOINT_TURNS`` turns."""
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(os.path.join(tmp, "j.db"), isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute(LAYOUTS[layout])
        codes = [f"R{n:05d}" for n in range(rooms)]
        turns = MOVES // rooms
        start = time.thread_time()
        for turn in range(turns):
            db.execute("BEGIN")
            db.executemany(
                "INSERT INTO journal (room, n, entry) VALUES (?, ?, ?)",
                [(code, turn, ENTRY) for code in codes],
            )
            db.execute("COMMIT")
            if turn % CHECKPOINT_TURNS == 0:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        spent = time.thread_time() - start
        db.close()
    return 1e6 * spent / (turns * rooms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 50])
    parser.add_argument("--rounds", type=int, default=3, help="alternating runs per layout")
    args = parser.parse_args()
    print(f"journal layouts: load average {os.getloadavg()[0]:.2f}")
    for rooms in args.rooms:
        figures: dict[str, list[float]] = {name: [] for name in LAYOUTS}
        for _ in range(args.rounds):
            for name in LAYOUTS:
                figures[name].append(per_move(name, rooms))
        medians = {name: statistics.median(v) for name, v in figures.items()}
        for name, values in figures.items():
            shown = "  ".join(f"{v:5.2f}" for v in values)
            print(
                f"  {rooms:3} rooms a turn, {name:8}  us/move  {shown}   median {medians[name]:5.2f}"
            )
        ratio = medians["by order"] / medians["by room"]
        print(f"  {rooms:3} rooms a turn: by order / by room = {ratio:.2f}x")
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
