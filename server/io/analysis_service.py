"""``analyse`` requests: look a game up off the loop, analyse it in the worker pool once.

A request is answered at once (with ``re``): ``done`` with the notes when the game
was analysed before, else ``queued``/``running`` with the progress; when the job
ends every connection that asked and is still open gets one more ``analysis``
(``done`` or ``failed``, no ``re``). The job is one position per worker job, in the
pool's ``background`` class (``server/core/scheduler.py``): quick jobs that a person waits
for and computer moves go first, and one computer slot is always left to computers,
so a move waits behind at most the positions already being thought about.
The game and a stored analysis are read on a history thread's read-only connection
(``server/io/history_service.py``). Bounds: one analysis per address at a time and
``max_analyses`` in all (past them: ``server-busy`` with ``retry_after``); a
connection's requests share the history queries' rate (``Session.queries``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.analysis import Analyse, Analysis, AnalysisStatus

from ..core.scheduler import Owner
from ..games.gomoku import analysis
from ..games.gomoku.ai import RULES
from ..games.jobs import Job
from . import analysis_store
from .history_service import HistoryService
from .job_runner import run_job
from .work import WorkPool

log = logging.getLogger("gridhall.analysis")


class Asker(Protocol):
    """A connection that asked (a ``Session``): where answers go."""

    def send(self, msg: Any) -> None: ...


@dataclass
class Running:
    """One game's analysis under way."""

    game_id: int
    address: str
    moves: list[tuple[int, int]]
    size: int
    rule: str
    total: int
    results: list[analysis.PlyResult] = field(default_factory=list)
    askers: list[weakref.ref[Asker]] = field(default_factory=list)
    started: bool = False

    def progress(self) -> list[int]:
        return [len(self.results), self.total]


class Analyses:
    """The server's analyses: see the module docstring."""

    def __init__(
        self,
        work: WorkPool,
        reader: HistoryService,
        save: Callable[..., None],
        budget: float = 0.5,
        max_analyses: int = 4,
    ) -> None:
        self.work = work
        self.reader = reader
        """Where the game is read, off the loop."""
        self.save = save
        """``Store.save_analysis``: called on the loop when a job is done."""
        self.budget = budget
        self.max_analyses = max(1, max_analyses)
        self.running: dict[int, Running] = {}
        self.jobs = 0
        """Positions sent to the pool so far (tests read it)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    # -- requests -----------------------------------------------------------------
    def request(self, asker: Asker, address: str, msg: Analyse) -> None:
        """Handle one ``analyse`` (within the connection's rate: the caller checked);
        ProtocolError for a refusal at once."""
        try:
            found = self.reader.read(analysis_store.lookup, msg.game_id, analysis.ENGINE)
        except ProtocolError as exc:
            exc.request_id = msg.id
            raise
        task = asyncio.get_running_loop().create_task(self._answer(asker, address, msg, found))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(
        self,
        asker: Asker,
        address: str,
        msg: Analyse,
        reading: asyncio.Future[analysis_store.Found],
    ) -> None:
        try:
            found = await reading
        except Exception:
            log.exception("could not read game %d for an analysis", msg.game_id)
            asker.send(
                p.Error(
                    code=ErrorCode.INTERNAL_ERROR.value,
                    message="The server could not read that game.",
                    re=msg.id,
                )
            )
            return
        if self.closed:
            return
        try:
            asker.send(self._start(asker, address, msg, found))
        except ProtocolError as exc:
            asker.send(
                p.Error(
                    code=exc.code.value, message=exc.message, re=msg.id, retry_after=exc.retry_after
                )
            )

    def _start(
        self, asker: Asker, address: str, msg: Analyse, found: analysis_store.Found
    ) -> Analysis:
        """The first answer; starts the job when the game needs one."""
        gid = msg.game_id
        if found.game is None:
            raise ProtocolError(ErrorCode.NO_SUCH_GAME, f"There is no finished game {gid}.")
        if found.game != "gomoku":
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "only Gomoku games are analysed")
        if found.analysis is not None:
            return self._answer_msg(
                gid,
                "done",
                re=msg.id,
                moves=found.analysis["moves"],
                budget=float(found.analysis["budget"]),
            )
        run = self.running.get(gid)
        if run is None:
            run = self._new(gid, address, found)
            self.running[gid] = run
            self._next(run)
        if not any(ref() is asker for ref in run.askers):
            run.askers.append(weakref.ref(asker))
        return self._answer_msg(
            gid, "running" if run.started else "queued", re=msg.id, progress=run.progress()
        )

    def _new(self, gid: int, address: str, found: analysis_store.Found) -> Running:
        mine = [r for r in self.running.values() if r.address == address]
        if mine or len(self.running) >= self.max_analyses:
            wait = min(r.total - len(r.results) for r in (mine or self.running.values()))
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                "One analysis per address at a time, and the server runs "
                "a few at once; ask again when yours is done."
                if mine
                else "The server is analysing as many games as it allows; try again later.",
                retry_after=round(max(1.0, wait * self.budget), 1),
            )
        moves, size, rule, five = _game(found)
        return Running(gid, address, moves, size, rule, analysis.positions(moves, five))

    # -- the job ------------------------------------------------------------------
    def _next(self, run: Running) -> None:
        """Send the next position to the pool (or finish)."""
        k = len(run.results)
        if k >= run.total:
            self._finish(run)
            return
        before = run.results[k - 1][1] if k else None  # tried first for a defence
        job = Job(
            analysis.analyse_ply,
            (run.moves[:k], run.size, run.rule, self.budget, before),
            kind="analysis",
            budget=self.budget * 4 + 2,
            clock="cpu",  # as the engine's own deadlines (``analysis.analyse_ply``)
        )
        self.jobs += 1
        accepted = self.work.submit(
            run_job,
            job,
            owner=Owner(run.address, f"analysis:{run.game_id}"),
            cls="background",
            key=("analysis", run.game_id),
            kind="analysis",
            done=lambda answer: self._ply_done(run, answer),
            failed=lambda exc: self._fail(run, repr(exc)),
        )
        if not accepted:
            self._fail(run, "the worker pool is closed")

    def _ply_done(self, run: Running, answer: dict[str, Any]) -> None:
        if self.closed or self.running.get(run.game_id) is not run:
            return
        if "value" not in answer:
            self._fail(run, str(answer))
            return
        value, best, line, defence = answer["value"]
        run.started = True
        run.results.append((value, best, line, defence))
        self._next(run)

    def _finish(self, run: Running) -> None:
        del self.running[run.game_id]
        notes = analysis.notes(run.moves, run.results)
        try:
            self.save(run.game_id, analysis.ENGINE, self.budget, notes, time.time())
        except Exception:
            log.exception("could not store the analysis of game %d", run.game_id)
        self._tell(run, self._answer_msg(run.game_id, "done", moves=notes))

    def _fail(self, run: Running, why: str) -> None:
        log.error("the analysis of game %d failed: %s", run.game_id, why)
        self.running.pop(run.game_id, None)
        self._tell(run, self._answer_msg(run.game_id, "failed", progress=run.progress()))

    def _tell(self, run: Running, msg: Analysis) -> None:
        for ref in run.askers:
            asker = ref()
            if asker is not None and not getattr(getattr(asker, "link", None), "closed", False):
                asker.send(msg)

    def _answer_msg(
        self,
        gid: int,
        status: AnalysisStatus,
        re: int | None = None,
        budget: float | None = None,
        **extra: Any,
    ) -> Analysis:
        return Analysis(
            game_id=gid,
            status=status,
            engine=analysis.ENGINE,
            budget=self.budget if budget is None else budget,
            re=re,
            **extra,
        )

    def close(self) -> None:
        """The server stops: answers still under way are dropped."""
        self.closed = True
        for task in list(self._tasks):
            task.cancel()


def _game(found: analysis_store.Found) -> tuple[list[tuple[int, int]], int, str, bool]:
    """The stones, board size, rule and whether a five ended it, from a stored Gomoku
    game; ``bad-message`` for a record that holds no Gomoku game (an old or odd row)."""
    record = found.record or {}
    options = {**(record.get("options") or {}), **(found.options or {})}
    size, rule, raw = options.get("size", 15), options.get("rule", "freestyle"), record.get("moves")
    if not (
        isinstance(size, int)
        and 5 <= size <= 30
        and rule in RULES
        and isinstance(raw, list)
        and len(raw) <= size * size
    ):
        raise ProtocolError(ErrorCode.BAD_MESSAGE, "That game's record holds no Gomoku moves.")
    moves: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for m in raw:
        if (
            not (
                isinstance(m, list)
                and len(m) == 2
                and all(isinstance(v, int) and 0 <= v < size for v in m)
            )
            or tuple(m) in seen
        ):
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "That game's record holds no Gomoku moves.")
        moves.append((m[0], m[1]))
        seen.add(moves[-1])
    five = (found.result or {}).get("reason") == "five"
    return moves, size, str(rule), five
