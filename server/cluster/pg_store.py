"""The store on PostgreSQL: live rooms, their journals and identities, shared by nodes.

Each live room has one owner at a time. ``room_owner`` holds its current ``epoch``
(and the owning node); every write of a room's state names the epoch its writer owns
the room under and is refused IN THE SAME STATEMENT when the room's epoch moved on:

    INSERT INTO room_journal (room, seq, epoch, entry)
    SELECT ... WHERE (SELECT epoch FROM room_owner WHERE room = $room) = $epoch

so a node that lost its lease (paused, partitioned) and did not notice can never add
a move after another node took the room over: its transaction finds 0 rows written,
rolls back, and the node stops owning the room at once (:attr:`PgStore.on_lost`). The
primary key ``(room, seq)`` refuses two writers of the same entry besides.

Linked devices' tokens, link codes (``pg_links.py``) and bans (``pg_bans.py``) are
here too. History (finished games, chat), ratings, the audit log and settings stay
in the node's own SQLite file (:attr:`PgStore.local`): they are written after the game
they come from and read by that node's history queries (``docs/cluster.md`` says what
that costs). Calls are synchronous on the event loop, as SQLite's are: a loopback
round trip is a fraction of a millisecond, and one transaction covers a whole turn.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

import msgpack
import psycopg

from ..core.effects import (
    DropRoom,
    ForgetIdentity,
    Log,
    Quarantine,
    SaveIdentity,
    SaveRoom,
    SaveSnapshot,
    Stored,
)
from ..core.hub import SavedRoom
from ..core.restoring import Quarantined
from ..io.admin_store import AdminTables
from ..io.link_store import LinkTables
from ..io.store import Store
from .pg_bans import SCHEMA as BAN_SCHEMA
from .pg_bans import PgAdmin
from .pg_links import LINK_KINDS, PgLinks
from .pg_links import SCHEMA as LINK_SCHEMA

log = logging.getLogger("gridhall.cluster.store")

SCHEMA = """
CREATE TABLE IF NOT EXISTS room_owner (
    room text PRIMARY KEY,
    epoch bigint NOT NULL,
    node text NOT NULL
);
CREATE TABLE IF NOT EXISTS live_rooms (
    room text PRIMARY KEY,
    row text NOT NULL,
    snapshot text,
    base bigint NOT NULL DEFAULT 0
);
ALTER TABLE live_rooms ADD COLUMN IF NOT EXISTS quarantine text;
CREATE TABLE IF NOT EXISTS room_journal (
    room text NOT NULL,
    seq bigint NOT NULL,
    epoch bigint NOT NULL,
    entry bytea NOT NULL,
    PRIMARY KEY (room, seq)
);
CREATE TABLE IF NOT EXISTS identities (
    id text PRIMARY KEY,
    token_hash text NOT NULL UNIQUE,
    name text NOT NULL,
    color text,
    bot text,
    expires double precision
);
CREATE TABLE IF NOT EXISTS node_alive (
    node text PRIMARY KEY,
    at double precision NOT NULL
);
"""

SCHEMA_LOCK = 0x67726964
"""The advisory lock nodes take to create the tables (PostgreSQL's ``CREATE TABLE IF
NOT EXISTS`` is not safe against another session doing the same at once)."""

FENCE = "(SELECT epoch FROM room_owner WHERE room = %(room)s) = %(epoch)s"
"""The condition every write of a room's state carries: its writer still owns it."""

JOURNAL = (
    "INSERT INTO room_journal (room, seq, epoch, entry)"
    " SELECT %(room)s, s, %(epoch)s, e"
    " FROM unnest(%(seqs)s::bigint[], %(entries)s::bytea[]) AS t(s, e)"
    " WHERE " + FENCE
)

LIVE_KINDS = (
    Log,
    SaveSnapshot,
    SaveRoom,
    DropRoom,
    Quarantine,
    SaveIdentity,
    ForgetIdentity,
    *LINK_KINDS,
)
"""The effects PostgreSQL keeps; the rest go to the node's SQLite file."""


class StaleOwner(Exception):
    """A write named an epoch the room has moved past: another node owns it now."""

    def __init__(self, room: str) -> None:
        super().__init__(f"room {room}: another node owns it now")
        self.room = room


_pack = msgpack.Packer(use_bin_type=True).pack


def pack_entry(entry: dict[str, Any]) -> bytes:
    """MessagePack, or JSON text for what MessagePack cannot hold (an entry is a map,
    so JSON starts with ``{``, which MessagePack never does for a map)."""
    try:
        packed: bytes = _pack(entry)
    except (TypeError, ValueError, OverflowError):
        return json.dumps(entry, separators=(",", ":")).encode()
    return packed


def unpack_entry(data: bytes) -> Any:
    if data[:1] == b"{":
        return json.loads(data)
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _room_of(effect: Stored) -> str | None:
    if isinstance(effect, (Log, SaveSnapshot, SaveRoom, DropRoom, Quarantine)):
        return effect.room
    return None


class PgStore:
    """:class:`~gridhall.server.io.store_api.RoomStore` on PostgreSQL (see the module
    docstring). ``clustered``: rooms come by takeover (a node restores none at start);
    otherwise this one process owns every live room and fences out any older one."""

    def __init__(self, url: str, local: Store, node: str, clustered: bool = False) -> None:
        self.url = url
        self.local = local
        self.node = node
        self.clustered = clustered
        self.pg = psycopg.connect(url, autocommit=True)
        with self.pg.transaction():  # nodes starting together: one creates the tables
            self.pg.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            self.pg.execute(SCHEMA)
            self.pg.execute(LINK_SCHEMA)
            self.pg.execute(BAN_SCHEMA)
        self.db: sqlite3.Connection = local.db
        self.admin: AdminTables = PgAdmin(local.admin, self.connected)
        """Bans in PostgreSQL (every node's); the audit log and settings stay local."""
        self.pg_links = PgLinks(self.connected)
        """Linked devices' tokens and link codes, shared by every node."""
        self.links: LinkTables = self.pg_links
        self.ratings = local.ratings
        self.pruner = local.pruner
        self.epochs: dict[str, int] = {}
        """The rooms this node owns, with the epoch it owns each under."""
        self.on_created: Callable[[str, int], None] = lambda room, epoch: None
        self.on_dropped: Callable[[str], None] = lambda room: None
        self.on_written: Callable[[set[str]], None] = lambda rooms: None
        """Called after each commit with the rooms whose journal grew."""
        self.on_lost: Callable[[str], None] = lambda room: None
        """Called after a write found the room owned by another node (its effects were
        not written); the server must stop serving the room at once."""

    # -- writes ---------------------------------------------------------------
    def write(self, effects: list[Stored]) -> None:
        """Live effects in one PostgreSQL transaction, fenced per room; the others in
        one SQLite transaction. A room whose epoch moved on loses its effects (and
        only its own) and is reported to :attr:`on_lost`."""
        live: list[Stored] = [e for e in effects if isinstance(e, LIVE_KINDS)]
        rest: list[Stored] = [
            e for e in effects if not isinstance(e, LIVE_KINDS) or isinstance(e, ForgetIdentity)
        ]  # linked tokens go with the identity
        created: list[tuple[str, int]] = []
        dropped: list[str] = []
        lost: list[str] = []
        if live:
            try:
                created, dropped, lost = self._write_live(self.connected(), live)
            except psycopg.Error as exc:
                self._unreachable(live, rest, exc)
                raise
        if rest:
            self.local.write(rest)
        for room in lost:
            self.on_lost(room)
        for room, epoch in created:
            self.on_created(room, epoch)
        for room in dropped:
            self.on_dropped(room)
        if live:
            self.on_written({e.room for e in live if isinstance(e, Log)} - set(lost))

    def connected(self) -> psycopg.Connection[Any]:
        """The connection, made again if PostgreSQL dropped it (a restart, a network
        cut); psycopg's error if it still cannot be reached."""
        if self.pg.closed or self.pg.broken:
            self.pg = psycopg.connect(self.url, autocommit=True)
        return self.pg

    def _unreachable(self, live: list[Stored], rest: list[Stored], exc: Exception) -> None:
        """PostgreSQL failed a commit: nothing of it was written, so nothing of it may
        be shown. Every room in it is let go at once (:attr:`on_lost`: its players are
        closed before this turn's frames go out) and taken over again, from what
        PostgreSQL has, once its lease runs out (by this node or another)."""
        rooms = sorted({r for r in map(_room_of, live) if r is not None})
        log.error("PostgreSQL failed a commit (%s); letting %d rooms go", exc, len(rooms))
        for room in rooms:
            self.epochs.pop(room, None)
        with contextlib.suppress(psycopg.Error):
            self.pg.close()
        if rest:
            self.local.write(rest)
        for room in rooms:
            self.on_lost(room)

    def _write_live(
        self, pg: psycopg.Connection[Any], effects: list[Stored]
    ) -> tuple[list[tuple[str, int]], list[str], list[str]]:
        rooms = {r for r in map(_room_of, effects) if r is not None}
        created = [
            (e.room, 1) for e in effects if isinstance(e, SaveRoom) and e.room not in self.epochs
        ]
        lost: list[str] = []
        dropped: list[str] = []
        with pg.transaction():
            for room, epoch in created:  # a new room: this node is its first owner
                cur = self.pg.execute(
                    "INSERT INTO room_owner (room, epoch, node) VALUES (%s, %s, %s)"
                    " ON CONFLICT (room) DO NOTHING",
                    (room, epoch, self.node),
                )
                if cur.rowcount == 1:
                    self.epochs[room] = epoch
            # the owner rows stay locked to the commit: a takeover waits for it
            owned: dict[str, int] = dict(
                self.pg.execute(
                    "SELECT room, epoch FROM room_owner WHERE room = ANY(%s) FOR UPDATE",
                    (sorted(rooms),),
                ).fetchall()
            )
            for room in sorted(rooms):
                if room not in self.epochs or owned.get(room) != self.epochs[room]:
                    lost.append(room)
            skip = set(lost)
            journal: dict[str, list[Log]] = {}
            for effect in effects:
                code = _room_of(effect)
                if code in skip:
                    continue
                if isinstance(effect, Log):
                    journal.setdefault(effect.room, []).append(effect)
                    continue
                if code is not None and code in journal:
                    self._journal(journal.pop(code))
                self._apply(effect)
                if isinstance(effect, DropRoom):
                    dropped.append(effect.room)
            for logs in journal.values():
                self._journal(logs)
        for room in lost:
            self.epochs.pop(room, None)
            log.warning(
                "room %s: another node owns it now; this node's write was refused",
                room,
                extra={"room": room},
            )
        for room in dropped:
            self.epochs.pop(room, None)
        return [(r, e) for r, e in created if self.epochs.get(r) == e], dropped, lost

    def _journal(self, logs: list[Log]) -> None:
        room = logs[0].room
        cur = self.pg.execute(
            JOURNAL,
            {
                "room": room,
                "epoch": self.epochs[room],
                "seqs": [e.n for e in logs],
                "entries": [pack_entry(e.entry) for e in logs],
            },
        )
        if cur.rowcount != len(logs):
            raise StaleOwner(room)  # cannot happen under the row lock; rolls back all

    def _fenced(self, sql: str, room: str, **params: Any) -> None:
        cur = self.pg.execute(
            sql + " AND " + FENCE, {"room": room, "epoch": self.epochs[room], **params}
        )
        if cur.rowcount == 0:
            raise StaleOwner(room)

    def _apply(self, e: Stored) -> None:
        if isinstance(e, SaveSnapshot):
            self._fenced(
                "UPDATE live_rooms SET snapshot = %(snap)s, base = %(n)s WHERE room = %(room)s",
                e.room,
                snap=json.dumps(e.snapshot, separators=(",", ":")),
                n=e.n,
            )
            self.pg.execute("DELETE FROM room_journal WHERE room = %s AND seq <= %s", (e.room, e.n))
        elif isinstance(e, SaveRoom):
            self._fenced(
                "INSERT INTO live_rooms (room, row) SELECT %(room)s, %(row)s"
                " WHERE NOT EXISTS (SELECT 1 FROM live_rooms WHERE room = %(room)s)",
                e.room,
                row=json.dumps(e.row, separators=(",", ":")),
            )
        elif isinstance(e, Quarantine):  # by the room's owner, which could not replay it
            self._fenced(
                "UPDATE live_rooms SET quarantine = %(info)s WHERE room = %(room)s",
                e.room,
                info=json.dumps(e.info, separators=(",", ":")),
            )
        elif isinstance(e, DropRoom):
            self.pg.execute("DELETE FROM live_rooms WHERE room = %s", (e.room,))
            self.pg.execute("DELETE FROM room_journal WHERE room = %s", (e.room,))
            self.pg.execute("DELETE FROM room_owner WHERE room = %s", (e.room,))
        elif isinstance(e, SaveIdentity):
            self.pg.execute(
                "INSERT INTO identities (id, token_hash, name, color, bot, expires)"
                " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET"
                " token_hash = EXCLUDED.token_hash, name = EXCLUDED.name,"
                " color = EXCLUDED.color, bot = EXCLUDED.bot, expires = EXCLUDED.expires",
                (e.player, e.token_hash, e.name, e.color, e.bot, e.expires),
            )
        elif isinstance(e, ForgetIdentity):
            self.pg.execute("DELETE FROM identities WHERE id = %s", (e.player,))
            self.pg_links.forget(e.player)
        elif isinstance(e, LINK_KINDS):
            self.pg_links.apply(e)

    # -- reads ----------------------------------------------------------------
    def load_live(self) -> tuple[list[dict[str, Any]], list[SavedRoom]]:
        """Every identity; the live rooms only when this process is the one owner
        (each then claimed under a new epoch, fencing out an older process); never
        the rooms set aside (:meth:`quarantined`)."""
        identities = self.identities()
        if self.clustered:
            return identities, []
        rooms: list[SavedRoom] = []
        for (room,) in self.pg.execute(
            "SELECT room FROM live_rooms WHERE quarantine IS NULL ORDER BY room"
        ).fetchall():
            epoch = self.claim(room, None)
            saved = self.load_room(room) if epoch is not None else None
            if saved is not None:
                rooms.append(saved)
        return identities, rooms

    def identities(self, where: str = "", params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        rows = self.pg.execute(
            "SELECT id, token_hash, name, color, bot, expires FROM identities " + where,
            tuple(params),
        ).fetchall()
        return [
            {
                "id": r[0],
                "token_hash": r[1],
                "name": r[2],
                "color": r[3],
                "bot": r[4],
                "expires": r[5],
            }
            for r in rows
        ]

    def identity_by_token(self, digest: str) -> dict[str, Any] | None:
        """The identity whose token (a linked device's too) hashes to ``digest`` (made
        on any node), or None."""
        found = self.identities(
            "WHERE token_hash = %s OR id = (SELECT player FROM"
            " identity_tokens WHERE token_hash = %s)",
            (digest, digest),
        )
        return found[0] if found else None

    def identity_by_id(self, pid: str) -> dict[str, Any] | None:
        found = self.identities("WHERE id = %s", (pid,))
        return found[0] if found else None

    def load_room(self, room: str) -> SavedRoom | None:
        """A live room as stored: fixed facts, snapshot, journal."""
        row = self.pg.execute(
            "SELECT row, snapshot, base FROM live_rooms WHERE room = %s", (room,)
        ).fetchone()
        if row is None:
            return None
        saved = SavedRoom(json.loads(row[0]), json.loads(row[1]) if row[1] else None, int(row[2]))
        for seq, entry in self.pg.execute(
            "SELECT seq, entry FROM room_journal WHERE room = %s ORDER BY seq", (room,)
        ).fetchall():
            saved.entries.append((int(seq), unpack_entry(bytes(entry))))
        return saved

    def owner(self, room: str) -> tuple[str, int] | None:
        """The node that owns ``room`` and its epoch, as PostgreSQL has it."""
        row = self.pg.execute(
            "SELECT node, epoch FROM room_owner WHERE room = %s", (room,)
        ).fetchone()
        return (str(row[0]), int(row[1])) if row else None

    def claim(
        self, room: str, at_least: int | None, previous: tuple[str, int] | None = None
    ) -> int | None:
        """Make this node the owner of ``room`` under a new epoch (past the stored one,
        and at least ``at_least``): compare-and-set against ``previous`` (node, epoch)
        when given. The new epoch, or None if the room is gone or moved on meanwhile."""
        sql = (
            "UPDATE room_owner SET epoch = GREATEST(epoch + 1, %(least)s), node = %(node)s"
            " WHERE room = %(room)s"
        )
        params: dict[str, Any] = {"room": room, "node": self.node, "least": at_least or 0}
        if previous is not None:
            sql += " AND node = %(old_node)s AND epoch = %(old_epoch)s"
            params.update(old_node=previous[0], old_epoch=previous[1])
        row = self.pg.execute(sql + " RETURNING epoch", params).fetchone()
        if row is None:
            return None
        self.epochs[room] = int(row[0])
        return int(row[0])

    def disown(self, room: str) -> None:
        """This node no longer serves ``room`` (its lease is gone): write nothing more."""
        self.epochs.pop(room, None)

    def live_rooms(self) -> list[tuple[str, str, int]]:
        """Every live room with its owner node and epoch."""
        return [
            (str(r), str(n), int(e))
            for r, n, e in self.pg.execute(
                "SELECT o.room, o.node, o.epoch FROM room_owner o"
                " JOIN live_rooms l ON l.room = o.room WHERE l.quarantine IS NULL"
                " ORDER BY o.room"
            ).fetchall()
        ]

    # -- rooms set aside (by whichever node could not replay them) --------------
    def quarantined(self) -> list[Quarantined]:
        found = [
            Quarantined.from_json(str(code), json.loads(info))
            for code, info in self.connected()
            .execute("SELECT room, quarantine FROM live_rooms WHERE quarantine IS NOT NULL")
            .fetchall()
        ]
        return sorted(found, key=lambda q: (q.at, q.code))

    def lost_room(self, pid: str) -> Quarantined | None:
        """The room set aside that ``pid`` was in, if any (a member resuming on a node
        that did not set it aside is told ``room-lost`` too)."""
        return next((q for q in self.quarantined() if pid in q.members), None)

    def release_quarantined(self, code: str) -> bool:
        """Back among the live rooms: replayed at the next start, or by the next
        takeover (its owner is not alive) in a cluster."""
        cur = self.connected().execute(
            "UPDATE live_rooms SET quarantine = NULL WHERE room = %s AND quarantine IS NOT NULL",
            (code,),
        )
        return cur.rowcount > 0

    def delete_quarantined(self, code: str) -> bool:
        pg = self.connected()
        with pg.transaction():
            cur = pg.execute(
                "DELETE FROM live_rooms WHERE room = %s AND quarantine IS NOT NULL", (code,)
            )
            if cur.rowcount == 0:
                return False
            pg.execute("DELETE FROM room_journal WHERE room = %s", (code,))
            pg.execute("DELETE FROM room_owner WHERE room = %s", (code,))
        return True

    # -- alive marks, history -------------------------------------------------
    def mark_alive(self, now: float) -> None:
        self.pg.execute(
            "INSERT INTO node_alive (node, at) VALUES (%s, %s)"
            " ON CONFLICT (node) DO UPDATE SET at = EXCLUDED.at",
            (self.node, now),
        )
        self.local.mark_alive(now)

    def alive_at(self, node: str | None = None) -> float | None:
        """When ``node`` (this one by default) last said it was running."""
        row = self.pg.execute(
            "SELECT at FROM node_alive WHERE node = %s", (node or self.node,)
        ).fetchone()
        return float(row[0]) if row else None

    def prune(self, now: float) -> bool:
        return self.local.prune(now)

    def save_analysis(
        self, game_id: int, engine: str, budget: float, moves: list[dict[str, Any]], made_at: float
    ) -> None:
        self.local.save_analysis(game_id, engine, budget, moves, made_at)

    def close(self) -> None:
        try:
            self.pg.close()
        finally:
            self.local.close()
