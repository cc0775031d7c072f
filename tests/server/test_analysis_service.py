"""The analysis service's bookkeeping with a stand-in pool: pushes, failures, bounds."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest

from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.analysis import Analyse, Analysis
from gridhall.server.io.services.analysis_service import Analyses
from gridhall.server.io.store.analysis_store import Found

GAME = Found(
    "gomoku",
    {"size": 15, "rule": "freestyle"},
    {"moves": [[7, 7], [8, 8]]},
    {"winner": None, "reason": "agreed-draw"},
)


@dataclass
class Link:
    closed: bool = False


@dataclass
class Asker:
    """A connection: what it was sent."""

    link: Link = field(default_factory=Link)
    got: list[Any] = field(default_factory=list)

    def send(self, msg: Any) -> None:
        self.got.append(msg)


class Reader:
    """The history service's ``read``, answered at once from a table of games."""

    def __init__(self, games: dict[int, Found]) -> None:
        self.games = games

    def read(self, fn: Any, game_id: int, engine: str) -> asyncio.Future[Found]:
        done: asyncio.Future[Found] = asyncio.get_running_loop().create_future()
        done.set_result(self.games.get(game_id, Found()))
        return done


class Pool:
    """The worker pool: keeps each job for the test to answer."""

    def __init__(self) -> None:
        self.jobs: list[dict[str, Any]] = []

    def submit(self, fn: Any, *args: Any, **kw: Any) -> bool:
        self.jobs.append({"args": args, **kw})
        return True


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def service(games: dict[int, Found], **kw: Any) -> tuple[Analyses, Pool, list[Any]]:
    pool, saved = Pool(), []
    analyses = Analyses(
        pool,
        Reader(games),
        lambda *a: saved.append(a),  # type: ignore[arg-type]
        budget=0.05,
        **kw,
    )
    return analyses, pool, saved


async def test_a_failed_job_is_told_to_every_asker_and_the_next_request_starts_again() -> None:
    analyses, pool, saved = service({1: GAME})
    ann, bob, gone = Asker(), Asker(), Asker()
    for asker, rid in ((ann, 1), (bob, 2), (gone, 3)):
        analyses.request(asker, f"10.0.0.{rid}", Analyse(game_id=1, id=rid))
        await settle()
    assert [m.status for m in ann.got + bob.got] == ["queued", "queued"]
    assert len(pool.jobs) == 1  # one analysis for all three
    gone.link.closed = True
    pool.jobs[0]["failed"](RuntimeError("worker died"))
    for asker in (ann, bob):
        assert isinstance(asker.got[-1], Analysis) and asker.got[-1].status == "failed"
        assert asker.got[-1].re is None
    assert len(gone.got) == 1 and not analyses.running and not saved
    analyses.request(ann, "10.0.0.1", Analyse(game_id=1, id=4))
    await settle()
    assert ann.got[-1].status == "queued" and len(pool.jobs) == 2


async def test_a_job_answering_out_of_time_fails_the_analysis() -> None:
    analyses, pool, saved = service({1: GAME})
    ann = Asker()
    analyses.request(ann, "10.0.0.1", Analyse(game_id=1, id=1))
    await settle()
    pool.jobs[0]["done"]({"error": "out-of-time"})
    assert ann.got[-1].status == "failed" and not saved


async def test_done_is_stored_once_and_pushed_with_a_note_per_ply() -> None:
    analyses, pool, saved = service({1: GAME})
    ann = Asker()
    analyses.request(ann, "10.0.0.1", Analyse(game_id=1, id=1))
    await settle()
    answers = [(5, (7, 7), None, None), (-5, (8, 8), None, None), (0, (6, 6), None, None)]
    for k, value in enumerate(answers):
        pool.jobs[k]["done"]({"value": value})
    assert len(pool.jobs) == 3 and len(saved) == 1
    game_id, engine, budget, notes, _made_at = saved[0]
    assert (game_id, engine, budget) == (1, "hard", 0.05)
    assert ann.got[-1].status == "done" and ann.got[-1].moves == notes
    assert [n["best"] for n in notes] == [[7, 7], [8, 8]]


async def test_the_server_runs_at_most_max_analyses_at_once() -> None:
    analyses, _pool, _ = service({n: GAME for n in range(1, 4)}, max_analyses=2)
    askers = [Asker() for _ in range(3)]
    for n, asker in enumerate(askers, 1):
        analyses.request(asker, f"10.0.0.{n}", Analyse(game_id=n, id=n))
        await settle()
    assert [a.got[-1].TYPE for a in askers] == ["analysis", "analysis", "error"]
    assert askers[2].got[-1].code == ErrorCode.SERVER_BUSY.value
    assert askers[2].got[-1].retry_after > 0 and askers[2].got[-1].re == 3


async def test_a_record_without_gomoku_moves_is_bad_message() -> None:
    odd = Found("gomoku", {"size": 15}, {"moves": [[7, 7], [7, 7]]}, {})
    analyses, pool, _ = service({1: odd})
    ann = Asker()
    analyses.request(ann, "10.0.0.1", Analyse(game_id=1, id=1))
    await settle()
    assert ann.got[-1].code == "bad-message" and not pool.jobs


async def test_a_busy_reader_refuses_at_once_with_the_request_id() -> None:
    class Busy(Reader):
        def read(self, fn: Any, game_id: int, engine: str) -> asyncio.Future[Found]:
            raise ProtocolError(ErrorCode.SERVER_BUSY, "busy", retry_after=1.0)

    analyses = Analyses(Pool(), Busy({}), lambda *a: None)  # type: ignore[arg-type]
    with pytest.raises(ProtocolError) as refused:
        analyses.request(Asker(), "10.0.0.1", Analyse(game_id=1, id=9))
    assert refused.value.request_id == 9
