"""Commits to PostgreSQL off the event loop, in order, many turns at once.

SQLite commits in microseconds on the event loop; a PostgreSQL commit is a round trip
(to another process, or machine) that the loop must not wait for. So a node hands each
turn's store effects here with what to do once they are stored (send that turn's
frames) and goes on: :meth:`Commits.submit`. One commit is in flight at a time; the
turns made meanwhile wait and go together in the next one (a group commit: under load,
one transaction carries many turns' moves). Each turn's ``then`` runs only after its
commit returned, and in the order the turns were made (a turn that stored nothing
waits for the turns before it too), so no client hears of a move before it is stored,
and every client hears things in order.

A group of journal entries only (moves) is one prepared statement sent on libpq's
own interface (``psycopg.pq``), with its arrays in PostgreSQL's binary form
(:data:`~.pg_plan.TURN`): one round trip, and a few tens of microseconds of this
process's time however many moves it carries. Anything else goes through psycopg's
pipeline as one transaction (:func:`run_general`).

A commit that fails, or takes longer than :attr:`Commits.timeout` (PostgreSQL cut
off), is handled as the store always handled a failed commit: nothing of it is shown,
its rooms are let go at once (:meth:`PgStore.finish`), and the next commit connects
again.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import struct
import time
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import pq

from .pg_plan import CREATE_OWNERS, LOCK, TURN, TURN_PARAMS, TURN_TYPES, Plan, Turn, numbered

if TYPE_CHECKING:
    from ..core.effects import Stored
    from .pg_store import PgStore

log = logging.getLogger("gridhall.cluster.store")

COMMIT_TIMEOUT = 10.0
"""Seconds a commit may take before it counts as failed (PostgreSQL unreachable)."""
MAX_GROUP = 2000
"""Turns one commit carries at most (the rest go in the next)."""
PREPARED = b"gridhall_turn"
"""The name :data:`~.pg_plan.TURN` is prepared under on the commits' connection."""
APPLICATION = "gridhall commits"
"""The commits' connection's ``application_name`` (``pg_stat_activity`` shows it)."""
TEXT_OID, INT8_OID, BYTEA_OID = 25, 20, 17

_HEAD = struct.Struct("!iiiii")
_LEN = struct.Struct("!i")
_INT8 = struct.Struct("!iq")


def binary_array(oid: int, items: list[bytes]) -> bytes:
    """A one-dimensional array in PostgreSQL's binary form (``array_recv``)."""
    if not items:
        return struct.pack("!iii", 0, 0, oid)
    parts = [_HEAD.pack(1, 0, oid, len(items), 1)]
    for item in items:
        parts.append(_LEN.pack(len(item)))
        parts.append(item)
    return b"".join(parts)


def int8_array(values: list[int]) -> bytes:
    if not values:
        return binary_array(INT8_OID, [])
    return _HEAD.pack(1, 0, INT8_OID, len(values), 1) + b"".join(
        map(_INT8.pack, [8] * len(values), values)
    )


def text_array(values: list[str]) -> bytes:
    return binary_array(TEXT_OID, [v.encode() for v in values])


class Commits:
    """See the module docstring. Runs on the event loop; its own connection."""

    def __init__(self, store: PgStore, url: str, timeout: float = COMMIT_TIMEOUT) -> None:
        self.store = store
        self.url = url
        self.timeout = timeout
        self.queue: deque[Turn] = deque()
        """Turns submitted and not yet done (the group in flight first)."""
        self.conn: psycopg.AsyncConnection[Any] | None = None
        self.timed: Callable[[float], None] = lambda seconds: None
        """Told how long each commit took (the server's statistics)."""
        self.commits = 0
        """Commits made (tests and the bench read it)."""
        self._task: asyncio.Task[None] | None = None
        self.closed = False
        self._waits: set[asyncio.Future[None]] = set()
        """:meth:`settled`'s waits not yet over (a close ends them)."""

    def submit(self, effects: list[Stored], then: Callable[[], None] | None) -> None:
        """Store ``effects``, then call ``then`` (after every earlier turn's): at once if
        there is nothing to commit and nothing waits, else from the event loop later."""
        turn = self.store.turn(effects, then)
        if not self.queue and not turn.effects:
            if then is not None:
                then()
            return
        self._enqueue(turn)

    async def settled(self) -> None:
        """Wait until every turn submitted so far is committed and done, or until
        :meth:`close` (nothing more is committed then)."""
        if not self.queue or self.closed:
            return
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waits.add(done)

        def settle() -> None:
            self._waits.discard(done)
            if not done.done():
                done.set_result(None)

        self._enqueue(Turn([], {}, settle))
        await done

    def _enqueue(self, turn: Turn) -> None:
        """Queue ``turn`` and make sure the writer runs (a wait queued with no writer
        would never end)."""
        self.queue.append(turn)
        if self._task is None and not self.closed:
            self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    async def _run(self) -> None:
        try:
            while self.queue:
                turns = list(itertools.islice(self.queue, MAX_GROUP))
                owned: set[str] | Exception = set()
                try:
                    plan = self.store.plan(turns)
                except Exception as exc:  # (a bug): as a failed commit, never a stall
                    log.exception("could not plan a commit")
                    plan, owned = self._unplanned(turns), exc
                if plan.writes and not isinstance(owned, Exception):
                    began = time.perf_counter()
                    owned = await self._commit(plan)
                    self.commits += 1
                    self.timed(time.perf_counter() - began)
                for _ in turns:
                    self.queue.popleft()
                self._finish(plan, owned, turns)
        finally:
            self._task = None

    def _unplanned(self, turns: list[Turn]) -> Plan:
        """What a group that could not be planned touched: its rooms are let go."""
        fence = {r: e for t in turns for r, e in t.epochs.items() if e is not None}
        return Plan(self.store.node, fence=fence)

    def _finish(self, plan: Plan, owned: set[str] | Exception, turns: list[Turn]) -> None:
        """The group's outcome to the store (rooms lost, made, dropped), then each
        turn's frames; nothing here may stop the turns after it."""
        try:
            self.store.finish(plan, owned)
        except Exception:
            log.exception("could not act on a commit's outcome")
        for turn in turns:
            if turn.then is not None:
                try:
                    turn.then()
                except Exception:
                    log.exception("could not deliver a committed turn")

    async def _commit(self, plan: Plan) -> set[str] | Exception:
        """The rooms the group wrote (this node still owns them), or why it failed."""
        try:
            async with asyncio.timeout(self.timeout):  # (no task of its own, as wait_for makes)
                return await self._send(plan)
        except (psycopg.Error, OSError, TimeoutError) as exc:
            self._drop()
            return exc
        except Exception as exc:  # (a bug): as a failed commit, never a stall
            log.exception("could not commit")
            self._drop()
            return exc

    async def _send(self, plan: Plan) -> set[str]:
        conn = await self._connected()
        if plan.simple:
            params = {**plan.lock_params(), **plan.journal_params()}
            values = [
                text_array(params["fence_rooms"]),
                int8_array(params["fence_epochs"]),
                plan.node.encode(),
                text_array(params["rooms"]),
                int8_array(params["seqs"]),
                int8_array(params["epochs"]),
                binary_array(BYTEA_OID, params["entries"]),
            ]
            rows = await run_prepared(conn.pgconn, PREPARED, values, (1, 1, 0, 1, 1, 1, 1))
            return {row.decode() for row in rows}
        return await run_general(conn, plan)

    async def _connected(self) -> psycopg.AsyncConnection[Any]:
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            conn = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, application_name=APPLICATION
            )
            try:
                await conn.execute(
                    f"PREPARE {PREPARED.decode()} ({', '.join(TURN_TYPES)}) AS "
                    + numbered(TURN, TURN_PARAMS)
                )
            except BaseException:
                await conn.close()
                raise
            self.conn = conn
        return conn

    def _drop(self) -> None:
        """The connection's state is unknown after a failure: made again next time."""
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.pgconn.finish()

    def close(self) -> None:
        """Stop (what is still queued is not committed: :meth:`settled` first)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
        for done in self._waits:
            if not done.done():
                done.set_result(None)
        self._waits.clear()
        self._drop()


async def run_prepared(
    pgconn: pq.abc.PGconn, name: bytes, values: list[bytes], formats: tuple[int, ...]
) -> list[bytes]:
    """Execute a prepared statement on a nonblocking libpq connection without blocking
    the event loop: the first column of every row it returns (as text)."""
    loop = asyncio.get_running_loop()
    pgconn.send_query_prepared(name, list(values), param_formats=list(formats))
    while pgconn.flush():
        await _ready(loop, pgconn.socket, write=True)
    result: pq.abc.PGresult | None = None
    while True:
        pgconn.consume_input()
        while not pgconn.is_busy():
            res = pgconn.get_result()
            if res is None:
                if result is None:
                    raise psycopg.OperationalError("PostgreSQL sent no result")
                if result.status != pq.ExecStatus.TUPLES_OK:
                    raise psycopg.errors.error_from_result(result)
                return [result.get_value(i, 0) or b"" for i in range(result.ntuples)]
            if result is None or res.status == pq.ExecStatus.FATAL_ERROR:
                result = res
        await _ready(loop, pgconn.socket)


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, write: bool = False) -> None:
    """Wait until ``fd`` can be read (or written)."""
    ready = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    if write:
        loop.add_writer(fd, wake)
    else:
        loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        if write:
            loop.remove_writer(fd)
        else:
            loop.remove_reader(fd)


async def run_general(conn: psycopg.AsyncConnection[Any], plan: Plan) -> set[str]:
    """Any group, as one transaction in psycopg's pipeline (see :mod:`.pg_plan`)."""
    plan.flush_journal()
    async with conn.pipeline(), conn.transaction():
        if plan.created:
            await conn.execute(CREATE_OWNERS, {"node": plan.node, "rooms": plan.created})
        locked = await conn.execute(LOCK, plan.lock_params())
        for sql, params in plan.statements:
            await conn.execute(sql, params)
    return {str(row[0]) for row in await locked.fetchall()}


def run_general_now(conn: psycopg.Connection[Any], plan: Plan) -> set[str]:
    """:func:`run_general` on a blocking connection (:meth:`PgStore.write`)."""
    plan.flush_journal()
    with conn.pipeline(), conn.transaction():
        if plan.created:
            conn.execute(CREATE_OWNERS, {"node": plan.node, "rooms": plan.created})
        locked = conn.execute(LOCK, plan.lock_params())
        for sql, params in plan.statements:
            conn.execute(sql, params)
    return {str(row[0]) for row in locked.fetchall()}
