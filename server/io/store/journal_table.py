"""The journal's table: every room's entries in the order written, swept, never folded.

A turn's entries are appended to ``journal`` (keyed by ``seq``, the order written), so a
commit dirties the one or two pages at its end however many rooms moved in it. An entry
stops being live when its room is snapshotted past it (``rooms.base``), when its room is
dropped (no ``rooms`` row), or when a room of the same code is made again
(``rooms.since``: the last ``seq`` written before the room was), and nothing deletes it
then: a snapshot or a drop is one write to ``rooms``. Instead, each time
:data:`SWEEP_ROWS` entries have been appended, the turn that reached the count deletes
the entries no longer live (but the last one written, :data:`KEEP_LAST`) among the next
``2 * SWEEP_ROWS`` after a cursor that goes round the table (:class:`Sweeper`): the
sweep reads rows where they were written, so it dirties a few pages, and as it looks at
two rows for each one appended it comes round the whole table while half as many are
appended. So the table holds at most about twice the live entries, and a stale one is
gone within one round. A server with no moves sweeps too, a window at each of its
pruning rounds (``Store.prune``).

Schema 6 kept the latest entries in ``journal_tail`` and folded them into a ``journal``
keyed ``(room, n)`` a thousand at a time: with hundreds of rooms each fold wrote a page
per room. With 500 rooms moving in each turn that cost 5.7 us a move and turns of up to
8.5 ms, against 2.0 us and 1.4 ms swept; one move a turn (a paced hall), 17.4 us and
6.1 ms against 12.7 us and 0.9 ms (``bench/journal_sweep.py``). :func:`migrate` moves
such a file's entries into this table, in the order the old one would have read them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

CREATE = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    entry BLOB NOT NULL
);
"""
INSERT = "INSERT INTO journal (room, n, entry) VALUES (?, ?, ?)"
SINCE = "(SELECT coalesce(max(seq), 0) FROM journal)"
"""A new room's ``rooms.since``: the entries written before it are not its own."""
LIVE = "{j}.seq > r.since AND {j}.n > r.base"
"""Is entry ``{j}`` of room ``r`` (its ``rooms`` row) live?"""
KEEP_LAST = "seq < (SELECT max(seq) FROM journal)"
"""Never the last entry written, stale or not: SQLite gives a new row the largest ``seq``
plus one, so deleting the last would give the next entry a ``seq`` already written, at or
below a newer room's ``since`` (``AUTOINCREMENT`` would too, at 3-5 us a commit)."""
SWEEP = (
    f"DELETE FROM journal WHERE seq > ? AND seq <= ? AND {KEEP_LAST} AND NOT EXISTS"
    " (SELECT 1 FROM rooms r WHERE r.code = journal.room AND " + LIVE.format(j="journal") + ")"
)
SWEEP_ROWS = 1000
"""Entries appended between two sweeps; each sweep looks at twice as many."""
LAST = 1 << 62
"""Beyond every ``seq``."""


class Sweeper:
    """Where the sweep is (``cursor``: the last ``seq`` it looked at, 0 before the first)
    and how many entries were appended since it last ran."""

    def __init__(self) -> None:
        self.cursor = 0
        self.appended = 0

    def due(self, more: int) -> bool:
        """Will appending ``more`` entries bring the count to a sweep?"""
        return self.appended + more >= SWEEP_ROWS

    def sweep(self, db: sqlite3.Connection) -> None:
        """Delete the stale entries among the next ``2 * SWEEP_ROWS`` (within the
        caller's transaction; on its rollback, :meth:`mark` and :meth:`reset`)."""
        row = db.execute(
            "SELECT seq FROM journal WHERE seq > ? ORDER BY seq LIMIT 1 OFFSET ?",
            (self.cursor, 2 * SWEEP_ROWS - 1),
        ).fetchone()
        upto = LAST if row is None else int(row[0])
        db.execute(SWEEP, (self.cursor, upto))
        self.cursor = 0 if row is None else upto  # at the end: round again
        self.appended = 0

    def mark(self) -> tuple[int, int]:
        return self.cursor, self.appended

    def reset(self, mark: tuple[int, int]) -> None:
        self.cursor, self.appended = mark


def live_entries(db: sqlite3.Connection) -> Iterator[tuple[str, int, bytes | str]]:
    """Every live room's live entries (``room, n, entry``), each room's in ``n`` order;
    a repeated ``(room, n)``, which the hub never writes, gives its first."""
    seen: set[tuple[str, int]] = set()
    rows = db.execute(
        "SELECT j.room, j.n, j.entry FROM journal j JOIN rooms r ON r.code = j.room"  # noqa: S608
        " WHERE r.quarantine IS NULL AND " + LIVE.format(j="j") + " ORDER BY j.room, j.n, j.seq"
    )
    for code, n, entry in rows:
        if (code, n) not in seen:
            seen.add((code, n))
            yield code, n, entry


def room_entries(db: sqlite3.Connection, room: str) -> int:
    """How many live entries room ``room`` has: what restoring it would replay."""
    n: int = db.execute(
        "SELECT COUNT(*) FROM journal j JOIN rooms r ON r.code = j.room"  # noqa: S608
        " WHERE j.room = ? AND " + LIVE.format(j="j"),
        (room,),
    ).fetchone()[0]
    return n


def forget(db: sqlite3.Connection, room: str) -> None:
    """Delete every entry of ``room`` now (an operator's deletion; a scan of the table).
    The last one written, if it is one of them, is blanked instead (no room, no entry)
    and kept (:data:`KEEP_LAST`) until the sweep passes it with another after it."""
    db.execute(f"DELETE FROM journal WHERE room = ? AND {KEEP_LAST}", (room,))  # noqa: S608
    db.execute(
        "UPDATE journal SET room = '', n = 0, entry = x''"
        " WHERE seq = (SELECT max(seq) FROM journal) AND room = ?",
        (room,),
    )


def migrate(db: sqlite3.Connection) -> None:
    """A file from before schema 7: its entries (``journal`` keyed ``(room, n)``, then
    ``journal_tail`` in the order written) into this table, in one transaction; and
    ``rooms.since`` (0: every entry is its room's)."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(rooms)")}
    if "since" not in columns:
        db.execute("ALTER TABLE rooms ADD COLUMN since INTEGER NOT NULL DEFAULT 0")
    if "seq" in {r[1] for r in db.execute("PRAGMA table_info(journal)")}:
        return
    tail = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_tail'"
    ).fetchone()
    db.execute("BEGIN")
    try:
        db.execute("ALTER TABLE journal RENAME TO journal_by_room")
        db.execute(CREATE)
        db.execute(
            "INSERT INTO journal (room, n, entry)"
            " SELECT room, n, entry FROM journal_by_room ORDER BY room, n"
        )
        if tail:
            db.execute(
                "INSERT INTO journal (room, n, entry)"
                " SELECT room, n, entry FROM journal_tail ORDER BY seq"
            )
            db.execute("DROP TABLE journal_tail")
        db.execute("DROP TABLE journal_by_room")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
