"""How much history the store keeps: chat lines and finished games, within limits.

Left alone, chat and finished games are kept forever: one chatting connection
adds about 3 MiB of database an hour, one connection resigning against the
computer over 20 MiB. So every row has an end: chat lines past a room's cap
(checked as they are written) or older than ``chat_days`` or beyond ``chat_rows``
in all, finished games older than ``games_days``, beyond ``games_rows`` or beyond
``games_mb`` megabytes of records in all (a long game's record is large).
(Live rooms' journals are bounded by snapshots instead, see ``server/core/hub.py``.)

Pruning never stalls the event loop: a room's chat is trimmed a few lines at a
time inside the commit that adds to it, and :meth:`Pruner.prune` deletes at most
:data:`BATCH` rows per rule per call (the server calls it every few seconds, and
again soon while it has more to do). There is no ``VACUUM`` (it rewrites the whole
file while every room waits): SQLite reuses the pages that deletes free, so the
file stops growing once the limits are reached.
"""

from __future__ import annotations

import sqlite3

from ..core.history_limits import Limits as Limits  # its home is the pure core (config)

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
TRACKED_ROOMS = 4096
"""Rooms whose chat row count is remembered (past it the counts are forgotten and
counted again when needed: memory stays bounded)."""


class Pruner:
    """Keeps a store's history within :class:`Limits`; runs on the store's connection."""

    def __init__(self, db: sqlite3.Connection, limits: Limits) -> None:
        self.db = db
        self.limits = limits
        self.chat_total = self.games_total = self.games_bytes = 0
        self.count()
        self._room_chat: dict[str, int] = {}
        """Chat rows per room, at least (deletes by age or total make it an overestimate)."""

    def count(self) -> None:
        """Count the rows (on open, and should the running counts ever drift)."""
        self.chat_total = int(self.db.execute("SELECT COUNT(*) FROM chat").fetchone()[0])
        self.games_total, self.games_bytes = (
            int(v)
            for v in self.db.execute(
                f"SELECT COUNT(*), COALESCE(SUM({GAME_SIZE}), 0) FROM games"
            ).fetchone()
        )

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

    def game_added(self, size: int) -> None:
        """A finished game of ``size`` bytes was inserted."""
        self.games_total += 1
        self.games_bytes += size

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
                more |= self._drop_games("WHERE ended_at < ?", (now - limits.games_days * DAY,)) > 0
            if limits.games_rows > 0 and self.games_total > limits.games_rows:
                drifted |= not self._drop_games("", (), self.games_total - limits.games_rows)
                more |= self.games_total > limits.games_rows
            cap = limits.games_mb * 2**20
            if cap > 0 and self.games_bytes > cap:
                drifted |= not self._drop_games("", (), until_bytes=cap)
                more |= self.games_bytes > cap
            if drifted:  # over a limit with nothing to delete: count again
                self.count()
                more = False
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return more

    def _drop_games(
        self,
        where: str,
        args: tuple[float, ...],
        count: int = GAME_BATCH,
        until_bytes: float | None = None,
    ) -> int:
        """Delete the oldest finished games matching ``where``: at most ``count`` and
        :data:`GAME_BATCH`, or (``until_bytes``) as many as bring the total under it."""
        oldest = self.db.execute(
            f"SELECT id, {GAME_SIZE} FROM games {where} ORDER BY ended_at, id LIMIT ?",
            (*args, min(count, GAME_BATCH)),
        ).fetchall()
        doomed: list[int] = []
        freed = 0
        for game_id, size in oldest:
            if until_bytes is not None and self.games_bytes - freed <= until_bytes:
                break
            if freed >= GAME_BATCH_BYTES:
                break
            doomed.append(game_id)
            freed += size
        if doomed:
            self.db.execute(
                f"DELETE FROM games WHERE id IN ({','.join('?' * len(doomed))})", doomed
            )
            self.games_total -= len(doomed)
            self.games_bytes -= freed
        return len(doomed)
