"""``stop_task`` (``server/io/runtime/tasks.py``): a task that loses a cancel still stops.
A cluster node's stop hung under load because its beat and its relay writer each lost
the one cancel they were sent, and the stop awaited them for ever."""

from __future__ import annotations

import asyncio

from gridhall.server.io.runtime.tasks import stop_task


async def test_a_task_that_loses_its_first_cancel_is_stopped_all_the_same() -> None:
    """The task swallows the first cancel (as a cancel arriving as a call finishes is
    lost) and waits again: a second cancel ends it, and the stop says it ended."""
    swallowed: list[int] = []
    forever = asyncio.Event()

    async def loses_one() -> None:
        while True:
            try:
                await forever.wait()
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed.append(1)

    task = asyncio.ensure_future(loses_one())
    await asyncio.sleep(0)
    assert await asyncio.wait_for(stop_task(task), 30)
    assert task.cancelled() and swallowed == [1]


async def test_a_task_that_ignores_every_cancel_is_left_and_said() -> None:
    """A task that ignores every cancel (a bug) does not hold the stop for ever: after
    its tries the stop goes on and says it did not end."""
    forever = asyncio.Event()
    ignored: list[int] = []

    async def ignores_all() -> None:
        while not forever.is_set():
            try:
                await forever.wait()
            except asyncio.CancelledError:
                ignored.append(1)

    task = asyncio.ensure_future(ignores_all())
    await asyncio.sleep(0)
    assert not await asyncio.wait_for(stop_task(task), 30)
    assert len(ignored) > 1 and not task.done()
    forever.set()
    await task


async def test_a_task_already_done_or_failing_as_it_stops_is_fine() -> None:
    async def fails_on_cancel() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            raise RuntimeError("tidying up failed")

    task = asyncio.ensure_future(fails_on_cancel())
    await asyncio.sleep(0)
    assert await stop_task(task)
    assert await stop_task(task)  # (done already: nothing to do)
