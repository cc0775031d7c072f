"""Everything the server keeps on disk, and the one place durability is reasoned about.

One SQLite file in WAL mode. It holds:

- ``identities``: player id, the sha256 of the secret token (never the token),
  name, colour, computer level, and for a roomless, offline identity when it is
  forgotten (``expires``);
- ``rooms``: each live room's fixed facts (code, game, options, creator, the
  secret seed its boards derive from, the password's PBKDF2 hash and salt), its
  latest snapshot and the journal entry that snapshot follows (``base``); and, for
  a room that could not be restored, why (``quarantine``): set aside with its rows,
  never replayed at start until the operator puts it back (``gridhall-server rooms``);
- ``journal``: per room, every input that changed it, in order (who, what, when),
  every room's in one table in the order written (``server/io/store/journal_table.py``);
- ``games`` and ``chat``: finished games and chat lines, for ``history``, kept
  within the operator's limits, each address's games first when its share is the
  largest (``server/io/store/retention.py``); ``game_players`` says who
  played each game, for the history queries' filters (``server/io/store/history.py``);
- ``analyses``: each finished game's engine analysis, made once
  (``server/io/store/analysis_store.py``);
- ``bans``, ``audit`` and ``admin_settings``: what the server's operator decided
  (``server/io/store/admin_store.py``);
- ``identity_tokens``, ``devices`` and ``link_codes``: more tokens per identity
  (linked devices), what each device is called and when it was last seen, and the
  live link codes, hashed (``server/io/store/link_store.py``);
- ``ratings``, ``rating_history`` and the co-op team records, written with the
  finished game they come from (``server/io/store/ratings_store.py``);
- ``meta``: ``alive_at``, refreshed every few seconds while the server runs, so a
  restart knows how long it was down.

The scheme: a room is a deterministic state machine (``server/core/room/``), so its
state is its snapshot plus the journal entries after it; the snapshot is taken
each time a new game starts, and every ``journal_rows`` entries in between (so a
game that never ends keeps a bounded journal), and the entries it covers are
no longer live (a sweep deletes them later, see ``journal_table.py``). Restoring a room
replays its entries through the same code that first handled them.

Where a turn's entries go: appended to ``journal`` in the order written, so a turn in
which fifty rooms moved dirties one or two pages, each written whole to the WAL at the
commit (and again at the checkpoint), where a table keyed ``(room, n)`` would dirty one
a room: about 1.5 us a move against 7.6 (``bench/journal_layout.py``). A snapshot or a
dropped room is one write to ``rooms``; the sweep deletes the entries it left behind a
thousand appends at a time, where they were written.

When an input is durable: the server writes the effects of every input handled
in one event-loop turn in ONE transaction, and delivers their messages only after
it committed (``GameServer.execute``). So nothing a client saw can be lost.

``synchronous=NORMAL`` (with WAL): a commit is written to the WAL file (into the
operating system's cache) before the server goes on, and the WAL is synced to the
disk at each checkpoint. A crash of the server process, ``kill -9`` included,
loses nothing committed. A power loss or kernel crash can roll back the
transactions committed since the last checkpoint (at most about a second's worth,
see below), but never leaves a broken database: SQLite ignores WAL frames whose
checksum fails (a torn last write), so the store opens at the last intact commit.
``gridhall-server --durable-commits`` (``synchronous=FULL``) syncs the WAL on every
commit instead, at the cost of one fsync per event-loop turn.

Checkpoints (copying the WAL into the database, with its fsyncs) do not run on the
event loop: SQLite's own would run inside whichever commit crossed 1000 pages and
stall every room for as long as the disk takes (tens of ms). A
:class:`Checkpointer` thread with its own connection runs them instead, at most
:data:`CHECKPOINT_EVERY` seconds after a commit (the GIL is released while SQLite
works). Commits, and so what is durable before it is broadcast, are unchanged.

Several nodes sharing rooms keep the live state in PostgreSQL instead, fenced by each
room owner's epoch: ``server/cluster/pg_store.py`` and ``docs/cluster.md``.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import msgspec

from ...core.effects import (
    DropLinkCode,
    DropRoom,
    DropToken,
    ForgetIdentity,
    Log,
    Quarantine,
    SaveChat,
    SaveDevice,
    SaveGame,
    SaveIdentity,
    SaveLinkCode,
    SaveRoom,
    SaveSnapshot,
    SaveToken,
    Stored,
)
from ...core.hub import SavedRoom
from ...core.restoring import Quarantined
from . import analysis_store, journal_table
from .admin_store import AdminTables
from .history import count_moves, index_game
from .history import migrate as migrate_history
from .link_store import LinkTables
from .ratings_store import RatingsTables
from .retention import Limits, Pruner, owner_of
from .retention import migrate as migrate_retention

SCHEMA_VERSION = 7
"""3: games gained ``source`` and ``moves`` and the ``game_players`` index (history);
4: ``analyses``, each game's engine analysis (server/io/store/analysis_store.py);
5: ``rooms.quarantine``, why a room that could not be restored was set aside;
6: ``journal_tail``, the latest journal entries in the order written;
7: ``journal`` is every entry in the order written, swept, not folded, and ``rooms.since``
(``server/io/store/journal_table.py``)."""
CHECKPOINT_EVERY = 1.0
"""Seconds at most between a commit and the checkpoint that syncs it to the disk."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    result TEXT NOT NULL,
    record TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL NOT NULL,
    source TEXT,
    moves INTEGER
);
CREATE INDEX IF NOT EXISTS games_ended ON games(ended_at);
CREATE TABLE IF NOT EXISTS chat (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    ts REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS chat_room ON chat(room, ts);
CREATE TABLE IF NOT EXISTS identities (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    color TEXT,
    bot TEXT,
    expires REAL
);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    row TEXT NOT NULL,
    snapshot TEXT,
    base INTEGER NOT NULL DEFAULT 0,
    quarantine TEXT,
    since INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value REAL NOT NULL
);
"""


class NewerStore(RuntimeError):
    """The file was written by a newer gridhall: this version would misread its tables
    (schema 7's journal read as schema 6's would replay entries a snapshot ended), so
    it does not open it at all."""

    def __init__(self, path: str, schema: int) -> None:
        super().__init__(f"{path}: store schema {schema}, newer than {SCHEMA_VERSION}")
        self.path = path
        self.schema = schema


@dataclass
class GameRow:
    id: int
    room: str
    game: str
    options: dict[str, Any]
    players: list[dict[str, Any]]
    result: dict[str, Any]
    record: dict[str, Any]
    started_at: float
    ended_at: float


_json_bytes = msgspec.json.Encoder().encode


def _json(value: Any) -> str:
    """``value`` as compact JSON text (rooms, snapshots, finished games): msgspec's
    encoder, about an eighth of ``json.dumps``'s cost on a finished game's record, which
    every game end writes. It writes non-ASCII as UTF-8, not as escapes (both load the
    same), and a set as an array where ``json.dumps`` refused it. What it refuses (a
    bool or None as a key) falls back to ``json.dumps``, which writes it, or refuses it
    as it always did. (It would write an infinite number as null, but none is stored:
    options and clocks are checked finite.)"""
    try:
        return _json_bytes(value).decode()
    except (TypeError, ValueError):
        return json.dumps(value, separators=(",", ":"))


_pack = msgspec.msgpack.Encoder().encode
"""msgspec's encoder writes the bytes msgpack's packer wrote, at about a third of the cost."""


def _entry(entry: dict[str, Any]) -> bytes | str:
    """A journal entry as stored: MessagePack (a BLOB), a tenth of the cost of JSON on
    the path of every move. What MessagePack cannot hold (an integer past 64 bits) is
    stored as JSON text, as older versions stored every entry; both load."""
    try:
        packed: bytes = _pack(entry)
    except (TypeError, ValueError, OverflowError):
        return _json(entry)
    return packed


def _load_entry(stored: bytes | str) -> Any:
    if isinstance(stored, str):  # written by a version that stored JSON
        return json.loads(stored)
    return msgpack.unpackb(stored, raw=False, strict_map_key=False)


class Store:
    """The SQLite store. Open one per server; close it on shutdown."""

    commits = None
    """A turn is committed on the event loop (:meth:`write`), in microseconds."""

    def __init__(
        self, path: str | Path, durable_commits: bool = False, limits: Limits | None = None
    ) -> None:
        self.path = str(path)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        found = self.db.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            self.db.close()
            raise NewerStore(self.path, found)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=" + ("FULL" if durable_commits else "NORMAL"))
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA + journal_table.CREATE)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(rooms)")}
        if "quarantine" not in columns:  # a file from before version 5
            self.db.execute("ALTER TABLE rooms ADD COLUMN quarantine TEXT")
        journal_table.migrate(self.db)  # a file from before version 7
        migrate_history(self.db)
        migrate_retention(self.db)
        analysis_store.create(self.db)
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self.db.execute("PRAGMA wal_autocheckpoint=0")  # the Checkpointer's job
        self.sweeper = journal_table.Sweeper()
        """Where the sweep of entries no longer live is (``journal_table.py``)."""
        self.checkpointer = Checkpointer(self.path)
        self.pruner = Pruner(self.db, limits or Limits())
        self.admin = AdminTables(self.db)
        """Bans, the audit log and settings changed from the admin page."""
        self.links = LinkTables(self.db)
        """Linked devices' tokens and live link codes."""
        self.ratings = RatingsTables(self.db)
        """Ratings and co-op team records (``server/io/store/ratings_store.py``)."""

    # -- the live state -------------------------------------------------------
    def write(self, effects: list[Stored]) -> None:
        """Apply store effects in one transaction (all or nothing)."""
        if not effects:
            return
        db = self.db
        sweeper = self.sweeper
        if len(effects) == 1 and type(effects[0]) is Log and not sweeper.due(1):
            self._journal_one(effects[0])  # a turn of one move
            self.checkpointer.poke()
            return
        held = sweeper.mark()
        db.execute("BEGIN")  # the connection is in autocommit mode: one transaction here
        try:
            entries: list[tuple[str, int, bytes | str]] = []
            for effect in effects:
                if type(effect) is Log:  # the common case: a move; one statement for a run
                    entries.append((effect.room, effect.n, _entry(effect.entry)))
                    continue
                if entries:
                    self._journal(entries)
                    entries = []
                self._apply(effect)
            if entries:
                self._journal(entries)
            if sweeper.due(0):
                sweeper.sweep(db)
        except BaseException:
            db.execute("ROLLBACK")
            sweeper.reset(held)
            raise
        db.execute("COMMIT")
        self.checkpointer.poke()

    def _journal(self, entries: list[tuple[str, int, bytes | str]]) -> None:
        self.db.executemany(journal_table.INSERT, entries)
        self.sweeper.appended += len(entries)

    def _journal_one(self, log: Log) -> None:
        """One entry alone: one statement, which the connection (in autocommit mode)
        commits as its own transaction, without a BEGIN and a COMMIT of their own."""
        self.db.execute(journal_table.INSERT, (log.room, log.n, _entry(log.entry)))
        self.sweeper.appended += 1

    def _apply(self, e: Stored) -> None:
        db = self.db
        if isinstance(e, Log):
            self._journal_one(e)
        elif isinstance(e, SaveSnapshot):
            db.execute(  # the entries it covers are no longer live
                "UPDATE rooms SET snapshot = ?, base = ? WHERE code = ?",
                (_json(e.snapshot), e.n, e.room),
            )
        elif isinstance(e, SaveRoom):
            db.execute(  # an older room's entries of this code are not its own
                "INSERT OR REPLACE INTO rooms (code, row, snapshot, base, since)"
                f" VALUES (?, ?, NULL, 0, {journal_table.SINCE})",
                (e.room, _json(e.row)),
            )
        elif isinstance(e, DropRoom):
            db.execute("DELETE FROM rooms WHERE code = ?", (e.room,))  # its entries too
            self.pruner.room_dropped(e.room)
        elif isinstance(e, Quarantine):
            db.execute("UPDATE rooms SET quarantine = ? WHERE code = ?", (_json(e.info), e.room))
        elif isinstance(e, SaveIdentity):
            db.execute(
                "INSERT OR REPLACE INTO identities (id, token_hash, name, color, bot,"
                " expires) VALUES (?, ?, ?, ?, ?, ?)",
                (e.player, e.token_hash, e.name, e.color, e.bot, e.expires),
            )
        elif isinstance(e, ForgetIdentity):
            db.execute("DELETE FROM identities WHERE id = ?", (e.player,))
            self.links.forget(e.player)
        elif isinstance(e, (SaveToken, SaveLinkCode, DropLinkCode, SaveDevice, DropToken)):
            self.links.apply(e)
        elif isinstance(e, SaveChat):
            db.execute(
                "INSERT INTO chat (room, player, name, text, ts) VALUES (?,?,?,?,?)",
                (e.room, e.player, e.name, e.text, e.ts),
            )
            self.pruner.chat_added(e.room)
        else:
            assert isinstance(e, SaveGame)
            texts = (_json(e.options), _json(e.players), _json(e.result), _json(e.record))
            owner = owner_of(e.address)
            cursor = db.execute(
                "INSERT INTO games (room, game, options, players, result, record, started_at,"
                " ended_at, source, moves, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    e.room,
                    e.game,
                    *texts,
                    e.started_at,
                    e.ended_at,
                    e.source,
                    count_moves(e.game, e.record),
                    owner,
                ),
            )
            assert cursor.lastrowid is not None
            index_game(db, cursor.lastrowid, e.players)
            self.pruner.game_added(sum(map(len, texts)), owner)
            self.ratings.game_saved(cursor.lastrowid, e)

    def load_live(self) -> tuple[list[dict[str, Any]], list[SavedRoom]]:
        """Every stored identity and live room (with its snapshot and journal); not
        the rooms set aside (:meth:`quarantined`)."""
        identities = [
            {
                "id": r[0],
                "token_hash": r[1],
                "name": r[2],
                "color": r[3],
                "bot": r[4],
                "expires": r[5],
            }
            for r in self.db.execute(
                "SELECT id, token_hash, name, color, bot, expires FROM identities"
            )
        ]
        rooms = {
            code: SavedRoom(json.loads(row), json.loads(snap) if snap else None, base)
            for code, row, snap, base in self.db.execute(
                "SELECT code, row, snapshot, base FROM rooms WHERE quarantine IS NULL ORDER BY code"
            )
        }
        for code, n, entry in journal_table.live_entries(self.db):
            rooms[code].entries.append((n, _load_entry(entry)))
        return identities, list(rooms.values())

    # -- rooms set aside ----------------------------------------------------------
    def quarantined(self) -> list[Quarantined]:
        """The rooms set aside because they could not be restored, oldest first."""
        found = [
            Quarantined.from_json(code, json.loads(info))
            for code, info in self.db.execute(
                "SELECT code, quarantine FROM rooms WHERE quarantine IS NOT NULL"
            )
        ]
        return sorted(found, key=lambda q: (q.at, q.code))

    def release_quarantined(self, code: str) -> bool:
        """Put room ``code`` back among the live rooms (replayed at the next start);
        False if no room of that code is set aside."""
        cursor = self.db.execute(
            "UPDATE rooms SET quarantine = NULL WHERE code = ? AND quarantine IS NOT NULL",
            (code,),
        )
        self.checkpointer.poke()
        return cursor.rowcount > 0

    def delete_quarantined(self, code: str) -> bool:
        """Delete room ``code``, set aside, with its journal; False if there is none."""
        found = self.db.execute(
            "SELECT 1 FROM rooms WHERE code = ? AND quarantine IS NOT NULL", (code,)
        ).fetchone()
        if found is None:
            return False
        self.write([DropRoom(code)])
        journal_table.forget(self.db, code)  # now, not at the sweep: the operator asked
        self.checkpointer.poke()
        return True

    def mark_alive(self, now: float) -> None:
        """Record that the server was running at ``now`` (for the downtime on restart)."""
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('alive_at', ?)", (now,))
        self.checkpointer.poke()

    def prune(self, now: float) -> bool:
        """Delete a small batch of history past the limits; True if more is left
        (call again soon). Never a ``VACUUM``: freed pages are reused."""
        more = self.pruner.prune(now)
        held = self.sweeper.mark()
        self.db.execute("BEGIN")  # and a sweep, for a server with no moves to sweep after
        try:
            self.sweeper.sweep(self.db)
        except BaseException:
            self.db.execute("ROLLBACK")
            self.sweeper.reset(held)
            raise
        self.db.execute("COMMIT")
        self.checkpointer.poke()
        return more

    def alive_at(self) -> float | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'alive_at'").fetchone()
        return float(row[0]) if row else None

    # -- history ----------------------------------------------------------------
    def save_game(
        self,
        room: str,
        game: str,
        options: dict[str, Any],
        players: list[dict[str, Any]],
        result: dict[str, Any],
        record: dict[str, Any],
        started_at: float,
        ended_at: float,
        source: str | None = None,
    ) -> int:
        """Store a finished game (``source``: ``import`` for one read from a file);
        returns its id."""
        self.write(
            [SaveGame(room, game, options, players, result, record, started_at, ended_at, source)]
        )
        gid: int = self.db.execute("SELECT max(id) FROM games").fetchone()[0]
        return gid

    def save_chat(self, room: str, player: str, name: str, text: str, ts: float) -> None:
        self.write([SaveChat(room, player, name, text, ts)])

    def recent_games(self, limit: int = 20) -> list[GameRow]:
        rows = self.db.execute(
            "SELECT id, room, game, options, players, result, record, started_at, ended_at"
            " FROM games ORDER BY ended_at DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [
            GameRow(
                r[0],
                r[1],
                r[2],
                json.loads(r[3]),
                json.loads(r[4]),
                json.loads(r[5]),
                json.loads(r[6]),
                r[7],
                r[8],
            )
            for r in rows
        ]

    def game(self, game_id: int) -> GameRow | None:
        """The finished game with this id (``history`` prints it), or None."""
        r = self.db.execute(
            "SELECT id, room, game, options, players, result, record, started_at, ended_at"
            " FROM games WHERE id = ?",
            (game_id,),
        ).fetchone()
        if r is None:
            return None
        return GameRow(
            r[0],
            r[1],
            r[2],
            json.loads(r[3]),
            json.loads(r[4]),
            json.loads(r[5]),
            json.loads(r[6]),
            r[7],
            r[8],
        )

    def save_analysis(
        self, game_id: int, engine: str, budget: float, moves: list[dict[str, Any]], made_at: float
    ) -> None:
        """Keep a game's finished analysis (``server/io/store/analysis_store.py``)."""
        analysis_store.save(self.db, game_id, engine, budget, moves, made_at)
        self.checkpointer.poke()

    def chat_lines(self, room: str, limit: int = 50) -> list[tuple[str, str, str, float]]:
        rows = self.db.execute(
            "SELECT player, name, text, ts FROM chat WHERE room = ? ORDER BY ts DESC, id DESC"
            " LIMIT ?",
            (room, limit),
        ).fetchall()
        return [(r[0], r[1], r[2], r[3]) for r in reversed(rows)]

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close."""
        self.checkpointer.stop()
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            self.db.close()


class Checkpointer:
    """Checkpoints the store's WAL from a thread of its own, at most
    :data:`CHECKPOINT_EVERY` seconds after a commit asked for one (:meth:`poke`).

    The thread starts on the first poke and ends after a while with nothing to do,
    so a store that is never closed leaves nothing running for long."""

    IDLE = 10.0
    """Seconds without a poke after which the thread ends (the next poke starts one)."""

    def __init__(self, path: str, every: float = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self.checkpoints = 0
        """Checkpoints run so far (tests read it)."""
        self._due = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def poke(self) -> None:
        """A commit happened: checkpoint within :attr:`every` seconds."""
        if self._due.is_set():
            return
        self._due.set()
        if self._thread is None and not self._stop.is_set():
            with self._lock:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, daemon=True, name="store-checkpoint"
                    )
                    self._thread.start()

    def stop(self) -> None:
        """End the thread (the store's own close checkpoints the rest)."""
        self._stop.set()
        self._due.set()
        thread = self._thread
        if thread is not None:
            thread.join(30)

    def _run(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while not self._stop.is_set():
                if not self._due.wait(self.IDLE):
                    with self._lock:
                        if not self._due.is_set():
                            self._thread = None
                            return
                    continue
                if self._stop.wait(self.every):
                    return
                self._due.clear()
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                    self.checkpoints += 1
                except sqlite3.Error:
                    pass  # busy or closing: the next commit asks again
        finally:
            db.close()
