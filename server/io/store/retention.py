"""How much history the store keeps: chat lines and finished games, within limits.

Left alone, chat and finished games are kept forever: one chatting connection
adds about 3 MiB of database an hour, one connection resigning against the
computer over 20 MiB. So every row has an end: chat lines past a room's cap
(checked as they are written) or older than ``chat_days`` or beyond ``chat_rows``
in all, finished games older than ``games_days``, beyond ``games_rows`` or beyond
``games_mb`` megabytes of records in all (a long game's record is large).
(Live rooms' journals are bounded by snapshots instead, see ``server/core/hub.py``.)

The caps on finished games are shared fairly: each game belongs to the network
address that created its room (an IPv6 address by its /64, :func:`owner_of`), and
past ``games_rows`` or ``games_mb`` the oldest games of the address holding the MOST
go first. So one client playing the computer as fast as it can pushes out its own
games, never the others' (issue 41: 2,000 games a minute used to empty everyone's
history in five minutes); a server with one household behind one address keeps
every game its caps allow, as before. Deleting a game deletes the rating history
points that name it (a trigger, ``server/io/store/ratings_store.py``): a profile never
links to a game that is gone.

Pruning never stalls the event loop: a room's chat is trimmed a few lines at a
time inside the commit that adds to it, and :meth:`Pruner.prune` deletes at most
:data:`BATCH` rows per rule per call (the server calls it every few seconds, and
again soon while it has more to do). There is no ``VACUUM`` (it rewrites the whole
file while every room waits): SQLite reuses the pages that deletes free, so the
file stops growing once the limits are reached.
"""

from __future__ import annotations

import ipaddress
import sqlite3
from collections import Counter

from ...core.history_limits import Limits as Limits  # its home is the pure core (config)

DAY = 86400.0
BATCH = 200
"""Chat rows deleted per statement."""
GAME_BATCH = 20
GAME_BATCH_BYTES = 2**20
"""Finished games deleted per statement: at most this many, and once this many
bytes are freed, no more (a long game's record is large; SQLite reads each page it
frees)."""
GAME_SIZE = "length(options) + length(players) + length(result) + length(record)"
"""What a finished game weighs (its JSON texts, ASCII: characters are bytes)."""
OWNER_COLUMN = "owner"
"""``games.owner``: whose share a game counts in (:func:`owner_of` its room's address)."""
TRACKED_ROOMS = 4096
"""Rooms whose chat row count is remembered (past it the counts are forgotten and
counted again when needed: memory stays bounded)."""


def owner_of(address: str) -> str:
    """The share a game from ``address`` counts in: an IPv4 address as it is, an IPv6
    address by its /64 (one host's whole network: an attacker gets every address in it),
    anything else ("" for a game from nowhere, an import) as given."""
    try:
        found = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((found, 64), strict=False))
    return str(found)


def migrate(db: sqlite3.Connection) -> None:
    """Give an older database's ``games`` its owner column (older games: owner "")
    and the index the fair pruning reads."""
    have = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if OWNER_COLUMN not in have:
        db.execute("BEGIN")
        try:
            db.execute(f"ALTER TABLE games ADD COLUMN {OWNER_COLUMN} TEXT NOT NULL DEFAULT ''")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
    db.execute("CREATE INDEX IF NOT EXISTS games_owner ON games(owner, ended_at, id)")


class Pruner:
    """Keeps a store's history within :class:`Limits`; runs on the store's connection."""

    def __init__(self, db: sqlite3.Connection, limits: Limits) -> None:
        self.db = db
        self.limits = limits
        self.chat_total = self.games_total = self.games_bytes = 0
        self.owner_rows: Counter[str] = Counter()
        """Finished games per owner (:func:`owner_of`): one entry per address with games."""
        self.owner_bytes: Counter[str] = Counter()
        self.count()
        self._room_chat: dict[str, int] = {}
        """Chat rows per room, at least (deletes by age or total make it an overestimate)."""

    def count(self) -> None:
        """Count the rows (on open, and should the running counts ever drift)."""
        self.chat_total = int(self.db.execute("SELECT COUNT(*) FROM chat").fetchone()[0])
        self.owner_rows.clear()
        self.owner_bytes.clear()
        for owner, rows, size in self.db.execute(
            f"SELECT owner, COUNT(*), COALESCE(SUM({GAME_SIZE}), 0) FROM games GROUP BY owner"
        ):
            self.owner_rows[str(owner)] = int(rows)
            self.owner_bytes[str(owner)] = int(size)
        self.games_total = sum(self.owner_rows.values())
        self.games_bytes = sum(self.owner_bytes.values())

    # -- inside the store's write transaction ----------------------------------
    def chat_added(self, room: str) -> None:
        """A chat line of ``room`` was inserted: past the room's cap by a margin,
        delete its oldest lines down to the cap (a few rows, amortised)."""
        self.chat_total += 1
        cap = self.limits.chat_rows_per_room
        if cap <= 0:
            return
        count = self._room_chat.get(room)
        if count is None:
            if len(self._room_chat) >= TRACKED_ROOMS:
                self._room_chat.clear()
            count = self._count(room)
        else:
            count += 1
        if count > cap + max(1, cap // 8):
            count = self._count(room)
            if count > cap:
                deleted = self.db.execute(
                    "DELETE FROM chat WHERE id IN (SELECT id FROM chat WHERE room = ?"
                    " ORDER BY ts, id LIMIT ?)",
                    (room, count - cap),
                ).rowcount
                self.chat_total -= deleted
                count -= deleted
        self._room_chat[room] = count

    def _count(self, room: str) -> int:
        return int(
            self.db.execute("SELECT COUNT(*) FROM chat WHERE room = ?", (room,)).fetchone()[0]
        )

    def game_added(self, size: int, owner: str = "") -> None:
        """A finished game of ``size`` bytes, in ``owner``'s share, was inserted."""
        self.games_total += 1
        self.games_bytes += size
        self.owner_rows[owner] += 1
        self.owner_bytes[owner] += size

    def room_dropped(self, room: str) -> None:
        """A room closed: no more chat comes for it."""
        self._room_chat.pop(room, None)

    # -- on its own, every few seconds -----------------------------------------
    def prune(self, now: float) -> bool:
        """Delete one small batch per rule, in one transaction; True if more remain."""
        db, limits = self.db, self.limits
        more = drifted = False
        db.execute("BEGIN")
        try:
            if limits.chat_days > 0:
                # Oldest rows first by id (they were inserted in time order): the inner
                # query reads BATCH rows at most, whatever the table's size.
                deleted = db.execute(
                    "DELETE FROM chat WHERE id IN (SELECT id FROM (SELECT id, ts FROM chat"
                    " ORDER BY id LIMIT ?) WHERE ts < ?)",
                    (BATCH, now - limits.chat_days * DAY),
                ).rowcount
                self.chat_total -= deleted
                more |= deleted == BATCH
            if limits.chat_rows > 0 and self.chat_total > limits.chat_rows:
                deleted = db.execute(
                    "DELETE FROM chat WHERE id IN (SELECT id FROM chat ORDER BY id LIMIT ?)",
                    (min(BATCH, self.chat_total - limits.chat_rows),),
                ).rowcount
                self.chat_total -= deleted
                more |= deleted > 0 and self.chat_total > limits.chat_rows
                drifted = deleted == 0
            if limits.games_days > 0:
                more |= self._drop_older(now - limits.games_days * DAY) > 0
            if limits.games_rows > 0 and self.games_total > limits.games_rows:
                rows = self.games_total - limits.games_rows
                drifted |= not self._drop_largest(self.owner_rows, rows, by_bytes=False)
                more |= self.games_total > limits.games_rows
            cap = limits.games_mb * 2**20
            if cap > 0 and self.games_bytes > cap:
                drifted |= not self._drop_largest(
                    self.owner_bytes, self.games_bytes - cap, by_bytes=True
                )
                more |= self.games_bytes > cap
            if drifted:  # over a limit with nothing to delete: count again
                self.count()
                more = False
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return more

    def _drop_older(self, before: float) -> int:
        """Delete a batch of the finished games that ended before ``before``, oldest first."""
        return self._delete(
            self.db.execute(
                f"SELECT id, {GAME_SIZE}, owner FROM games WHERE ended_at < ?"
                " ORDER BY ended_at, id LIMIT ?",
                (before, GAME_BATCH),
            ).fetchall()
        )

    def _drop_largest(self, held: Counter[str], excess: float, by_bytes: bool) -> int:
        """Delete the oldest games of the owner holding the most (games, or bytes with
        ``by_bytes``; ``held``) until ``excess`` is freed or it holds no more than the
        next largest: at least one game, at most a batch. Done again and again, every
        owner is cut down to the same level, the largest first (max-min fairness)."""
        owner, most, second = _top_two(held)
        oldest = self.db.execute(
            f"SELECT id, {GAME_SIZE}, owner FROM games WHERE owner = ?"
            " ORDER BY ended_at, id LIMIT ?",
            (owner, GAME_BATCH),
        ).fetchall()
        taken: list[tuple[int, int, str]] = []
        freed = 0
        for row in oldest:
            if taken and (freed >= excess or most - freed <= second):
                break
            taken.append(row)
            freed += row[1] if by_bytes else 1
        return self._delete(taken)

    def _delete(self, rows: list[tuple[int, int, str]]) -> int:
        """Delete these games (id, size, owner), stopping once :data:`GAME_BATCH_BYTES`
        are freed; the running counts follow."""
        doomed: list[int] = []
        freed = 0
        for game_id, size, owner in rows:
            if freed >= GAME_BATCH_BYTES:
                break
            doomed.append(game_id)
            freed += size
            _less(self.owner_rows, owner, 1)
            _less(self.owner_bytes, owner, size)
        if doomed:
            self.db.execute(
                f"DELETE FROM games WHERE id IN ({','.join('?' * len(doomed))})", doomed
            )
            self.games_total -= len(doomed)
            self.games_bytes -= freed
        return len(doomed)


def _top_two(held: Counter[str]) -> tuple[str, int, int]:
    """The owner holding the most (games or bytes), what it holds, and what the next
    largest holds (0 for none)."""
    owner, most, second = "", 0, 0
    for key, amount in held.items():
        if amount > most:
            owner, most, second = key, amount, most
        elif amount > second:
            second = amount
    return owner, most, second


def _less(held: Counter[str], owner: str, amount: int) -> None:
    left = held[owner] - amount
    if left > 0:
        held[owner] = left
    else:
        del held[owner]
