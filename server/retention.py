"""How much history the store keeps: chat lines and finished games, within limits.

Left alone, chat and finished games are kept forever: one chatting connection
adds about 3 MiB of database an hour, one connection resigning against the
computer over 20 MiB. So every row has an end: chat lines past a room's cap
(checked as they are written) or older than ``chat_days`` or beyond ``chat_rows``
in all, finished games older than ``games_days`` or beyond ``games_rows``.
(Live rooms' journals are bounded by snapshots instead, see ``server/hub.py``.)

Pruning never stalls the event loop: a room's chat is trimmed a few lines at a
time inside the commit that adds to it, and :meth:`Pruner.prune` deletes at most
:data:`BATCH` rows per rule per call (the server calls it every few seconds, and
again soon while it has more to do). There is no ``VACUUM`` (it rewrites the whole
file while every room waits): SQLite reuses the pages that deletes free, so the
file stops growing once the limits are reached.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

DAY = 86400.0
BATCH = 200
"""Chat rows deleted per statement."""
GAME_BATCH = 20
"""Finished games deleted per statement (a long game's record is large)."""
TRACKED_ROOMS = 4096
"""Rooms whose chat row count is remembered (past it the counts are forgotten and
counted again when needed: memory stays bounded)."""


@dataclass(frozen=True)
class Limits:
    """What the store keeps; 0 for any of them means no limit of that kind."""

    chat_days: float = 30.0
    chat_rows_per_room: int = 500
    chat_rows: int = 200_000
    games_days: float = 365.0
    games_rows: int = 10_000


class Pruner:
    """Keeps a store's history within :class:`Limits`; runs on the store's connection."""

    def __init__(self, db: sqlite3.Connection, limits: Limits) -> None:
        self.db = db
        self.limits = limits
        self.chat_total = int(db.execute("SELECT COUNT(*) FROM chat").fetchone()[0])
        self.games_total = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        self._room_chat: dict[str, int] = {}
        """Chat rows per room, at least (deletes by age or total make it an overestimate)."""

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
                    " ORDER BY ts, id LIMIT ?)", (room, count - cap)).rowcount
                self.chat_total -= deleted
                count -= deleted
        self._room_chat[room] = count

    def _count(self, room: str) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM chat WHERE room = ?",
                                   (room,)).fetchone()[0])

    def game_added(self) -> None:
        self.games_total += 1

    def room_dropped(self, room: str) -> None:
        """A room closed: no more chat comes for it."""
        self._room_chat.pop(room, None)

    # -- on its own, every few seconds -----------------------------------------
    def prune(self, now: float) -> bool:
        """Delete one small batch per rule, in one transaction; True if more remain."""
        db, limits = self.db, self.limits
        more = False
        db.execute("BEGIN")
        try:
            if limits.chat_days > 0:
                # Oldest rows first by id (they were inserted in time order): the inner
                # query reads BATCH rows at most, whatever the table's size.
                deleted = db.execute(
                    "DELETE FROM chat WHERE id IN (SELECT id FROM (SELECT id, ts FROM chat"
                    " ORDER BY id LIMIT ?) WHERE ts < ?)",
                    (BATCH, now - limits.chat_days * DAY)).rowcount
                self.chat_total -= deleted
                more |= deleted == BATCH
            if limits.chat_rows > 0 and self.chat_total > limits.chat_rows:
                deleted = db.execute(
                    "DELETE FROM chat WHERE id IN (SELECT id FROM chat ORDER BY id LIMIT ?)",
                    (min(BATCH, self.chat_total - limits.chat_rows),)).rowcount
                self.chat_total -= deleted
                more |= deleted > 0 and self.chat_total > limits.chat_rows
            if limits.games_days > 0:
                deleted = db.execute(
                    "DELETE FROM games WHERE id IN (SELECT id FROM games WHERE ended_at < ?"
                    " ORDER BY ended_at LIMIT ?)",
                    (now - limits.games_days * DAY, GAME_BATCH)).rowcount
                self.games_total -= deleted
                more |= deleted == GAME_BATCH
            if limits.games_rows > 0 and self.games_total > limits.games_rows:
                deleted = db.execute(
                    "DELETE FROM games WHERE id IN (SELECT id FROM games"
                    " ORDER BY ended_at, id LIMIT ?)",
                    (min(GAME_BATCH, self.games_total - limits.games_rows),)).rowcount
                self.games_total -= deleted
                more |= deleted > 0 and self.games_total > limits.games_rows
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return more
