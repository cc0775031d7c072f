"""The worker pool carries out its scheduler's calls: it starts what may start,
answers a refused or pushed-out job ``busy``, and frees a slot when a job ends
(run on threads here, held by events, so nothing depends on the clock)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from gridhall.server.core.scheduler import Owner
from gridhall.server.io.workers.work import WorkPool


class Answers:
    """What each job answered, and an event per job to wait on."""

    def __init__(self) -> None:
        self.got: list[tuple[str, Any]] = []
        self._events: dict[str, asyncio.Event] = {}

    def event(self, name: str) -> asyncio.Event:
        return self._events.setdefault(name, asyncio.Event())

    def submit(
        self,
        pool: WorkPool,
        name: str,
        address: str,
        cls: Any = "quick",
        gate: threading.Event | None = None,
    ) -> bool:
        def answer(kind: str) -> Any:
            def record(value: Any = None) -> None:
                self.got.append((name, kind))
                self.event(name).set()

            return record

        return pool.submit(
            _wait_for if gate else _echo,
            gate or name,
            owner=Owner(address, "room-" + name),
            cls=cls,
            done=answer("done"),
            failed=answer("failed"),
            busy=answer("busy"),
        )

    async def wait(self, *names: str) -> None:
        await asyncio.wait_for(asyncio.gather(*(self.event(n).wait() for n in names)), 10)


def _echo(value: Any) -> Any:
    return value


def _wait_for(gate: threading.Event) -> bool:
    return gate.wait(10)


async def test_the_pool_answers_pushed_out_jobs_busy_and_starts_the_next_when_one_ends() -> None:
    pool = WorkPool(workers=1, max_jobs=2, reserve=0, per_address=2)
    pool._pool = ThreadPoolExecutor(max_workers=1)
    answers = Answers()
    gate = threading.Event()
    try:
        assert answers.submit(pool, "think", "A", cls="computer", gate=gate)
        assert pool.running == 1
        assert answers.submit(pool, "a1", "A") and answers.submit(pool, "a2", "A")
        assert answers.submit(pool, "b1", "B")  # the queue is full: A's newest makes room
        await answers.wait("a2")
        assert answers.got == [("a2", "busy")]
        assert not answers.submit(pool, "c1", "C")  # nobody holds more than C would
        gate.set()
        await answers.wait("think", "a1", "b1")
        assert answers.got[1:] == [("think", "done"), ("a1", "done"), ("b1", "done")]
        assert pool.running == 0 and pool.scheduler.quick_held() == 0
    finally:
        gate.set()
        pool.close()
