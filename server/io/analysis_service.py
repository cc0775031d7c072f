"""``analyse`` requests: look a game up off the loop, analyse it in the worker pool once.

Which games are analysed, and how, is each game plug-in's (``GameSpec.analysis``,
``server/games/analysis.py``): its plan makes one job per position and the notes.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.analysis import Analyse, Analysis, AnalysisStatus

from ..core.scheduler import Owner
from ..games import registry
from ..games.analysis import Analyser, AnalysisPlan
from ..games.base import GameSpec
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
    engine: Analyser
    plan: AnalysisPlan
    results: list[Any] = field(default_factory=list)
    """Each position's value, in order."""
    askers: list[weakref.ref[Asker]] = field(default_factory=list)
    started: bool = False

    def progress(self) -> list[int]:
        return [len(self.results), self.plan.total]


class Analyses:
    """The server's analyses: see the module docstring."""

    def __init__(
        self,
        work: WorkPool,
        reader: HistoryService,
        save: Callable[..., None],
        budget: float = 0.5,
        max_analyses: int = 4,
        games: Mapping[str, GameSpec] | None = None,
    ) -> None:
        analysed = {
            name: spec
            for name, spec in (registry() if games is None else games).items()
            if spec.analysis is not None
        }
        self.engines: dict[str, Analyser] = {
            name: spec.analysis for name, spec in analysed.items() if spec.analysis is not None
        }
        """The games analysed, by name: each one's engine."""
        self.analysed = " and ".join(spec.description.title for spec in analysed.values())
        """Their titles, for the refusal of another game."""
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
            names = {game: engine.engine for game, engine in self.engines.items()}
            found = self.reader.read(analysis_store.lookup, msg.game_id, names)
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
        engine = self.engines.get(found.game)
        if engine is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"only {self.analysed} games are analysed")
        if found.analysis is not None:
            return self._answer_msg(
                gid,
                "done",
                engine.engine,
                re=msg.id,
                moves=found.analysis["moves"],
                budget=float(found.analysis["budget"]),
            )
        run = self.running.get(gid)
        if run is None:
            run = self._new(gid, address, engine, found)
            self.running[gid] = run
            self._next(run)
        if not any(ref() is asker for ref in run.askers):
            run.askers.append(weakref.ref(asker))
        return self._answer_msg(
            gid,
            "running" if run.started else "queued",
            engine.engine,
            re=msg.id,
            progress=run.progress(),
        )

    def _new(
        self, gid: int, address: str, engine: Analyser, found: analysis_store.Found
    ) -> Running:
        mine = [r for r in self.running.values() if r.address == address]
        if mine or len(self.running) >= self.max_analyses:
            wait = min(r.plan.total - len(r.results) for r in (mine or self.running.values()))
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                "One analysis per address at a time, and the server runs "
                "a few at once; ask again when yours is done."
                if mine
                else "The server is analysing as many games as it allows; try again later.",
                retry_after=round(max(1.0, wait * self.budget), 1),
            )
        try:
            plan = engine.plan(found.record or {}, found.options or {}, found.result or {})
        except ValueError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(exc)) from None
        return Running(gid, address, engine, plan)

    # -- the job ------------------------------------------------------------------
    def _next(self, run: Running) -> None:
        """Send the next position to the pool (or finish)."""
        if len(run.results) >= run.plan.total:
            self._finish(run)
            return
        job = run.plan.job(run.results, self.budget)
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
        run.started = True
        run.results.append(answer["value"])
        self._next(run)

    def _finish(self, run: Running) -> None:
        del self.running[run.game_id]
        notes = run.plan.notes(run.results)
        try:
            self.save(run.game_id, run.engine.engine, self.budget, notes, time.time())
        except Exception:
            log.exception("could not store the analysis of game %d", run.game_id)
        self._tell(run, self._answer_msg(run.game_id, "done", run.engine.engine, moves=notes))

    def _fail(self, run: Running, why: str) -> None:
        log.error("the analysis of game %d failed: %s", run.game_id, why)
        self.running.pop(run.game_id, None)
        self._tell(
            run,
            self._answer_msg(run.game_id, "failed", run.engine.engine, progress=run.progress()),
        )

    def _tell(self, run: Running, msg: Analysis) -> None:
        for ref in run.askers:
            asker = ref()
            if asker is not None and not getattr(getattr(asker, "link", None), "closed", False):
                asker.send(msg)

    def _answer_msg(
        self,
        gid: int,
        status: AnalysisStatus,
        engine: str,
        re: int | None = None,
        budget: float | None = None,
        **extra: Any,
    ) -> Analysis:
        return Analysis(
            game_id=gid,
            status=status,
            engine=engine,
            budget=self.budget if budget is None else budget,
            re=re,
            **extra,
        )

    def close(self) -> None:
        """The server stops: answers still under way are dropped."""
        self.closed = True
        for task in list(self._tasks):
            task.cancel()
