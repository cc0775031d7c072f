"""The store on PostgreSQL: live rooms, their journals and identities, shared by nodes.

Each live room has one owner at a time. ``room_owner`` holds its current ``epoch``
(and the owning node); every write of a room's state names the epoch its writer owns
the room under and is refused IN THE SAME STATEMENT when the room's epoch moved on
(``server/cluster/pg_plan.py``): a commit first locks the owner rows of the rooms this
node still owns under the epochs it names, and every row it writes is joined against
them, so a node that lost its lease (paused, partitioned) and did not notice can never
add a move after another node took the room over: that room's rows are not written,
and the node stops owning it at once (:attr:`PgStore.on_lost`). The primary key
``(room, seq)`` refuses two writers of the same entry besides.

The server commits off its event loop (:attr:`PgStore.commits`,
``server/cluster/pg_commits.py``): a turn's frames go out once its commit returned,
in order, and the turns made while a commit is in flight share the next one.

Linked devices' tokens, link codes (``pg_links.py``) and bans (``pg_bans.py``) are
here too. History (finished games, chat), ratings, the audit log and settings stay
in the node's own SQLite file (:attr:`PgStore.local`): they are written with the turn
they come from, whatever PostgreSQL's commit does, and read by that node's history
queries (``docs/cluster.md`` says what that costs). Reads, claims and the operator's
tables are synchronous on the event loop, as SQLite's are: they are rare.
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
from .pg_commits import COMMIT_TIMEOUT, Commits, run_general_now
from .pg_links import LINK_KINDS, PgLinks
from .pg_links import SCHEMA as LINK_SCHEMA
from .pg_plan import Plan, Turn, plan, room_of

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


def unpack_entry(data: bytes) -> Any:
    if data[:1] == b"{":
        return json.loads(data)
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class PgStore:
    """:class:`~gridhall.server.io.store_api.RoomStore` on PostgreSQL (see the module
    docstring). ``clustered``: rooms come by takeover (a node restores none at start);
    otherwise this one process owns every live room and fences out any older one."""

    def __init__(
        self,
        url: str,
        local: Store,
        node: str,
        clustered: bool = False,
        commit_timeout: float = COMMIT_TIMEOUT,
    ) -> None:
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
        self._creating: set[str] = set()
        """Rooms made here whose first commit has not returned yet (epoch 1)."""
        self.commits = Commits(self, url, commit_timeout)
        """The server's turns, committed off the event loop."""
        self.on_created: Callable[[str, int], None] = lambda room, epoch: None
        self.on_dropped: Callable[[str], None] = lambda room: None
        self.on_written: Callable[[set[str]], None] = lambda rooms: None
        """Called after each commit with the rooms whose journal grew."""
        self.on_lost: Callable[[str], None] = lambda room: None
        """Called after a write found the room owned by another node (its effects were
        not written); the server must stop serving the room at once."""

    # -- writes ---------------------------------------------------------------
    def write(self, effects: list[Stored]) -> None:
        """Commit ``effects`` now, blocking (tools and tests; the server hands its turns
        to :attr:`commits` instead). A room whose epoch moved on loses its effects (and
        only its own) and is reported to :attr:`on_lost`; a failed commit lets every
        room in it go and raises."""
        group = self.plan([self.turn(effects, None)])
        if not group.writes:
            self.finish(group, set())
            return
        try:
            owned = run_general_now(self.connected(), group)
        except psycopg.Error as exc:
            with contextlib.suppress(psycopg.Error):
                self.pg.close()
            self.finish(group, exc)
            raise
        self.finish(group, owned)

    def turn(self, effects: list[Stored], then: Callable[[], None] | None) -> Turn:
        """A turn's live effects, each room under the epoch this node owns it under now
        (a room made in it: 1, its first owner); the rest go to the node's SQLite file
        at once (history, whatever PostgreSQL's commit does)."""
        live: list[Stored] = []
        rest: list[Stored] = []
        for e in effects:
            if type(e) is Log or isinstance(e, LIVE_KINDS):
                live.append(e)
                if isinstance(e, ForgetIdentity):  # linked tokens go with the identity
                    rest.append(e)
            else:
                rest.append(e)
        if rest:
            try:
                self.local.write(rest)
            except Exception:  # the game goes on for the players even if the disk does not
                log.exception("could not write %d changes to the node's own file", len(rest))
        new = {e.room for e in live if isinstance(e, SaveRoom) and e.room not in self.epochs}
        self._creating |= new
        epochs: dict[str, int | None] = {}
        for e in live:
            room = room_of(e)
            if room is not None and room not in epochs:
                epochs[room] = self.epochs.get(room, 1 if room in self._creating else None)
        return Turn(live, epochs, then)

    def plan(self, turns: list[Turn]) -> Plan:
        """The group commit of ``turns`` (:mod:`.pg_plan`)."""
        return plan(turns, self.node, self._current)

    def _current(self, room: str, epoch: int) -> bool:
        """Whether this node still owns ``room`` under ``epoch`` (or is making it)."""
        return self.epochs.get(room, 1 if room in self._creating else None) == epoch

    def finish(self, group: Plan, owned: set[str] | Exception) -> None:
        """What a commit's outcome means: the rooms it did not write are another node's
        now (or, the commit failed, every room in it is let go: nothing of it was
        written, so nothing of it may be shown; it is taken over again, from what
        PostgreSQL has, once its lease runs out). Called before the group's frames go."""
        if isinstance(owned, Exception):
            rooms = sorted(r for r, e in group.fence.items() if self._current(r, e))
            log.error("PostgreSQL failed a commit (%s); letting %d rooms go", owned, len(rooms))
            for room in rooms:
                self._forget(room)
            for room in rooms:
                self.on_lost(room)
            return
        lost = sorted(
            {r for r, e in group.fence.items() if r not in owned and self._current(r, e)}
            | group.refused
        )
        for room in lost:
            self._forget(room)
            log.warning(
                "room %s: another node owns it now; this node's write was refused",
                room,
                extra={"room": room},
            )
        for room in lost:
            self.on_lost(room)
        for room in group.created:
            if room in owned and room in self._creating and room not in group.dropped:
                self._creating.discard(room)
                self.epochs[room] = 1
                self.on_created(room, 1)
        for room in group.dropped:
            if room in owned:
                self._forget(room)
                self.on_dropped(room)
        if group.journaled:
            self.on_written(group.journaled & owned)

    def holds(self, room: str) -> bool:
        """This node owns ``room``, or is making it (its first commit, which writes its
        owner row, may be in PostgreSQL before this node hears it returned)."""
        return room in self.epochs or room in self._creating

    def _forget(self, room: str) -> None:
        self.epochs.pop(room, None)
        self._creating.discard(room)

    def connected(self) -> psycopg.Connection[Any]:
        """The connection, made again if PostgreSQL dropped it (a restart, a network
        cut); psycopg's error if it still cannot be reached."""
        if self.pg.closed or self.pg.broken:
            self.pg = psycopg.connect(self.url, autocommit=True)
        return self.pg

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
        self._forget(room)

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
            self.commits.close()
            self.pg.close()
        finally:
            self.local.close()
