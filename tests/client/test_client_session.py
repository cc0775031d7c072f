"""The shared client session against a real server: state, events, seq, reconnect."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from gridhall.client.session import Backoff, Session, run_in_thread

FAST = Backoff(first=0.05, cap=0.2)


async def until(cond: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait until ``cond()`` is truthy (the server answers asynchronously)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not cond():
        if loop.time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)


@asynccontextmanager
async def running(url: str, name: str) -> AsyncIterator[tuple[Session, list[dict[str, Any]]]]:
    """A connected session plus the list of every message its listener saw."""
    session = Session(url, name, backoff=FAST)
    seen: list[dict[str, Any]] = []
    session.add_listener(seen.append)
    task = asyncio.create_task(session.run())
    try:
        await until(lambda: session.connected)
        yield session, seen
    finally:
        await session.close()
        await asyncio.wait_for(task, 5)


async def gomoku_pair(a: Session, b: Session) -> None:
    a.submit("create-room", game="gomoku", options={"size": 15})
    await until(lambda: a.state is not None)
    assert a.room is not None
    b.submit("join-room", room=a.room.room)
    await until(lambda: b.state is not None and b.state.get("status") == "playing")
    await until(lambda: a.state is not None and len(a.state["players"]) == 2)


async def test_room_state_follows_joins_and_moves(server_url: str) -> None:
    async with running(server_url, "ann") as (a, _), running(server_url, "bob") as (b, seen_b):
        await gomoku_pair(a, b)
        assert a.state is not None and b.state is not None
        assert a.state["turn"] == a.player  # seat 0 plays black first
        a.submit("move", move={"x": 7, "y": 7})
        await until(lambda: b.state is not None and b.state["view"]["moves"] == [[7, 7]])
        assert b.state["turn"] == b.player
        assert any(m["type"] == "moved" and m["by"] == a.player for m in seen_b)


async def test_seq_gap_asks_for_a_fresh_state(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen), running(server_url, "bob") as (b, _):
        await gomoku_pair(a, b)
        assert a.room is not None
        states_before = sum(1 for m in seen if m["type"] == "state")
        # Pretend an event was lost: the next one skips a number.
        a._on_message({"type": "chat", "room": a.room.room, "seq": a.room.seq + 2,
                       "from": b.player, "name": "bob", "text": "x", "ts": 0.0})  # fmt: skip
        await until(lambda: sum(1 for m in seen if m["type"] == "state") > states_before)
        assert a.room is not None and not a.room.syncing
        # The snapshot is the server's truth: our invented chat line is not in it.
        assert all(c.get("text") != "x" for c in a.state["chat"])  # type: ignore[index]


async def test_submit_works_from_another_thread(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen):
        thread = threading.Thread(target=lambda: a.submit("list-rooms"))
        thread.start()
        thread.join()
        await until(lambda: any(m["type"] == "rooms" for m in seen))


async def test_bad_intents_are_refused_with_a_sentence(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen):
        a.submit("chat", text="")
        a.submit("join-room", room="NOPE42")
        await until(lambda: len([m for m in seen if m["type"] == "error"]) >= 2)
        errors = [m for m in seen if m["type"] == "error"]
        assert {e["request"] for e in errors} == {"chat", "join-room"}
        assert all(e["message"] for e in errors)


async def test_dropped_connection_resumes_the_same_seat(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen), running(server_url, "bob") as (b, _):
        await gomoku_pair(a, b)
        me, room = a.player, a.room.room if a.room else None
        a.drop_connection()
        await until(lambda: any(m.get("status") == "lost" for m in seen))
        await until(lambda: a.connected and a.room is not None and not a.room.syncing)
        assert a.player == me and a.room is not None and a.room.room == room
        seats = {p["player"]: p for p in a.state["players"]}  # type: ignore[index]
        assert seats[me]["seat"] == 0 and seats[me]["connected"]
        a.submit("move", move={"x": 3, "y": 3})  # still our turn, still our seat
        await until(lambda: b.state is not None and [3, 3] in b.state["view"]["moves"])


async def test_intents_while_offline_are_reported_not_queued(make_server: Any) -> None:
    server = await make_server()
    url = f"ws://127.0.0.1:{server.port}/"
    async with running(url, "ann") as (a, seen):
        await server.close()
        await until(lambda: not a.connected)
        a.submit("list-rooms")
        await until(lambda: any(m.get("code") == "offline" for m in seen))


def test_backoff_doubles_to_the_cap_with_jitter() -> None:
    backoff = Backoff()  # the defaults the real client uses
    for attempt in range(12):
        delay = backoff.delay(attempt)
        ceiling = min(10.0, 0.5 * 2**attempt)
        assert ceiling / 2 <= delay <= ceiling
    assert len({round(backoff.delay(3), 6) for _ in range(20)}) > 1  # jittered


async def test_session_runs_in_a_background_thread_for_tk(server_url: str) -> None:
    session = Session(server_url, "tk", backoff=FAST)
    seen: list[dict[str, Any]] = []
    session.add_listener(seen.append)
    thread = run_in_thread(session)
    try:
        await until(lambda: session.connected)
        session.submit("list-rooms")  # from this (another) thread's loop
        await until(lambda: any(m["type"] == "rooms" for m in seen))
    finally:
        assert session.loop is not None
        # the server shares this loop, so wait without blocking it
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(session.close(), session.loop))
        await asyncio.to_thread(thread.join, 5)
    assert not thread.is_alive()
