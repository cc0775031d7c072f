"""History queries (``list-games``, ``get-replay``) answered off the event loop.

A query reads the database in a small thread pool of its own, each thread with its
own READ-ONLY SQLite connection (WAL lets it read while the server writes; SQLite
lets go of Python's lock while it works). What costs CPU, re-running a whole game
for a replay, is handed on to the server's worker processes (``server/io/workers/work.py``, a
quick job charged to the asking address), so it competes with no room for Python's
lock: a big query never stalls a room. The answer frame comes back to the loop,
which sends it to the asking connection if it is still open.

Bounds: each connection may ask :attr:`ServerConfig.history_per_second` queries a
second, bursts of :attr:`ServerConfig.history_burst` (``Session.queries``, shared
by every query type registered here); at most :attr:`ServerConfig.history_waiting`
queries wait or run at once over the whole server (past it ``server-busy``).

Other query types (leaderboards, profiles) register a handler with :func:`query`:
``handler(db, msg)`` returns the answer message, or a :class:`Deferred` (heavy work
for a worker process, which returns the answer frame), or raises ProtocolError.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ...core.scheduler import Owner
from ...games import registry
from ..store.history import list_games, load_stored
from ..workers.work import WorkPool
from .replays import ReplayError, page

log = logging.getLogger("gridhall.history")

Handler = Callable[[sqlite3.Connection, Any], Any]
HANDLERS: dict[type, Handler] = {}
"""The query handler for each message type the service answers."""

M = TypeVar("M")
T = TypeVar("T")


def query(
    cls: type[M],
) -> Callable[[Callable[[sqlite3.Connection, M], Any]], Callable[[sqlite3.Connection, M], Any]]:
    """Register ``handler(db, msg)`` as the answer to message type ``cls``."""

    def wrap(
        handler: Callable[[sqlite3.Connection, M], Any],
    ) -> Callable[[sqlite3.Connection, M], Any]:
        HANDLERS[cls] = handler
        return handler

    return wrap


@dataclass(frozen=True)
class Deferred:
    """Work a query's answer still needs, for a worker process: ``fn(*args)`` (module
    level, picklable) returns the answer frame."""

    fn: Callable[..., bytes]
    args: tuple[Any, ...]
    kind: str


class Asker(Protocol):
    """The connection a query came from (a :class:`~.session.Session`)."""

    def send_frame(self, frame: bytes) -> None:
        """Send an answer frame, unless the connection is gone."""


def error_frame(exc: ProtocolError, rid: int | None) -> bytes:
    return p.encode(
        p.Error(code=exc.code.value, message=exc.message, re=rid, retry_after=exc.retry_after)
    )


class HistoryService:
    """See the module docstring. ``db`` is the store's path; ``':memory:'`` (tests)
    answers inline on the store's own connection ``fallback``."""

    def __init__(
        self,
        db: str,
        threads: int = 2,
        waiting: int = 32,
        fallback: sqlite3.Connection | None = None,
        work: WorkPool | None = None,
    ) -> None:
        self.path = db
        self.work = work
        """Where deferred work runs (None: in the query's thread)."""
        self.waiting = waiting
        self.busy = 0
        """Queries waiting or running now."""
        self.fallback = fallback if db == ":memory:" else None
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="history")
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    @staticmethod
    def handles(msg: Any) -> bool:
        return type(msg) in HANDLERS

    def ask(self, asker: Asker, msg: Any, address: str = "") -> None:
        """Answer ``msg`` to ``asker`` (from ``address``) later, on the loop;
        ProtocolError(server-busy) at once when too many queries are in hand."""
        rid = getattr(msg, "id", None)
        if self.busy >= self.waiting:
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                "The server is answering many history questions; ask again in a moment.",
                rid,
                retry_after=1.0,
            )
        if self.fallback is not None:
            frame = self.answer(msg, self.fallback)
            assert isinstance(frame, bytes)  # nothing is deferred without defer=True
            asker.send_frame(frame)
            return
        self.busy += 1
        future = asyncio.get_running_loop().run_in_executor(self._pool, self._answer, msg)

        def done(fut: asyncio.Future[bytes | Deferred]) -> None:
            if fut.cancelled():
                self.busy -= 1
                return
            exc = fut.exception()
            answer = fut.result() if exc is None else error_frame(_internal(), rid)
            if isinstance(answer, Deferred):
                self._defer(asker, answer, rid, address)
                return
            self.busy -= 1
            asker.send_frame(answer)

        future.add_done_callback(done)

    def read(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run ``fn(db, *args)`` on a pool thread's read-only connection (inline on the
        fallback connection in tests), for a service that answers on the loop itself
        (``server/io/services/analysis_service.py``); ProtocolError(server-busy) as for queries."""
        if self.busy >= self.waiting:
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                "The server is answering many history questions; ask again in a moment.",
                retry_after=1.0,
            )
        loop = asyncio.get_running_loop()
        if self.fallback is not None:
            done: asyncio.Future[T] = loop.create_future()
            try:
                done.set_result(fn(self.fallback, *args))
            except Exception as exc:
                done.set_exception(exc)
            return done
        self.busy += 1

        def run() -> T:
            db: sqlite3.Connection | None = getattr(self._local, "db", None)
            if db is None:
                db = self._local.db = self.connect()
            return fn(db, *args)

        future = loop.run_in_executor(self._pool, run)

        def finished(_: asyncio.Future[T]) -> None:
            self.busy -= 1

        future.add_done_callback(finished)
        return future

    def _defer(self, asker: Asker, job: Deferred, rid: int | None, address: str) -> None:
        """Run ``job`` in the worker pool, then send its frame."""

        def finish(frame: bytes) -> None:
            self.busy -= 1
            asker.send_frame(frame)

        def failed(exc: BaseException) -> None:
            log.error("a %s job failed: %r", job.kind, exc)
            finish(error_frame(_internal(), rid))

        def busy() -> None:
            finish(
                error_frame(
                    ProtocolError(
                        ErrorCode.SERVER_BUSY,
                        "Every worker is busy; ask again in a moment.",
                        retry_after=1.0,
                    ),
                    rid,
                )
            )

        work = self.work
        if work is None:  # pragma: no cover - answer() ran it in the thread already
            finish(job.fn(*job.args))
            return
        if not work.submit(
            job.fn,
            *job.args,
            owner=Owner(address, "history"),
            done=finish,
            failed=failed,
            busy=busy,
            kind=job.kind,
        ):
            asyncio.get_running_loop().call_soon(busy)

    def _answer(self, msg: Any) -> bytes | Deferred:
        """In a pool thread: the answer frame (or the work it still needs), from this
        thread's connection."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self.connect()
        return self.answer(msg, db, defer=self.work is not None)

    def connect(self) -> sqlite3.Connection:
        """A read-only connection to the store (one per thread)."""
        uri = Path(self.path).resolve().as_uri() + "?mode=ro"
        db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=5000")
        db.execute("PRAGMA query_only=1")
        with self._lock:
            self._connections.append(db)
        return db

    @staticmethod
    def answer(msg: Any, db: sqlite3.Connection, defer: bool = False) -> bytes | Deferred:
        """``msg``'s answer frame (an ``error`` for a refused query), never raises;
        with ``defer``, the :class:`Deferred` work a frame still needs, if any."""
        rid = getattr(msg, "id", None)
        try:
            answer = HANDLERS[type(msg)](db, msg)
            if isinstance(answer, Deferred):
                return answer if defer else bytes(answer.fn(*answer.args))
            return p.encode(answer)
        except ProtocolError as exc:
            return error_frame(exc, rid)
        except Exception:  # a server bug must not lose the answer
            log.exception("history query %r failed", msg)
            return error_frame(_internal(), rid)

    def close(self) -> None:
        """Stop the threads (queries in hand finish) and close their connections."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()


def _internal() -> ProtocolError:
    return ProtocolError(
        ErrorCode.INTERNAL_ERROR,
        "The server failed on that request; this is its own fault and has been logged.",
    )


@query(p.ListGames)
def _list_games(db: sqlite3.Connection, msg: p.ListGames) -> p.Games:
    known = registry()
    if msg.game is not None and msg.game not in known:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            f"Field 'game' must be one of {', '.join(sorted(known))}.",
            msg.id,
        )
    games, more = list_games(
        db, game=msg.game, player=msg.player, name=msg.name, before=msg.before, limit=msg.limit
    )
    return p.Games(games=games, next=more, re=msg.id)


@query(p.GetReplay)
def _get_replay(db: sqlite3.Connection, msg: p.GetReplay) -> Deferred:
    found = load_stored(db, msg.game_id)
    if found is None:
        raise ProtocolError(
            ErrorCode.NO_SUCH_GAME, f"No finished game {msg.game_id} is kept here.", msg.id
        )
    summary, record = found
    return Deferred(replay_frame, (summary, record, msg.start_step, msg.id), "replay")


def replay_frame(summary: dict[str, Any], record: str, first: int, rid: int | None) -> bytes:
    """The ``replay`` answer frame for a stored game, its record as stored (JSON
    text: parsed here, in a worker process, not on the way there)."""
    try:
        return p.encode(_replay(summary, json.loads(record), first, rid))
    except ProtocolError as exc:
        return error_frame(exc, rid)


def _replay(
    summary: dict[str, Any], record: dict[str, Any], first: int, rid: int | None
) -> p.Replay:
    try:
        steps = page(
            summary["game"], record, first, duration=summary["ended_at"] - summary["started_at"]
        )
    except IndexError as exc:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, f"Field 'from' is past the last step: {exc}.", rid
        ) from None
    except ReplayError as exc:
        log.warning("game %d: %s", summary["game_id"], exc)
        raise ProtocolError(
            ErrorCode.NO_SUCH_GAME, f"Game {summary['game_id']} cannot be replayed.", rid
        ) from None
    return p.Replay(
        game_id=summary["game_id"],
        game=summary["game"],
        options=summary["options"],
        players=summary["players"],
        result=summary["result"],
        started_at=summary["started_at"],
        ended_at=summary["ended_at"],
        rated=summary["rated"],
        start=steps.start,
        steps=steps.steps,
        total=steps.total,
        first=first,
        next=steps.next,
        source=summary.get("source"),
        re=rid,
    )
