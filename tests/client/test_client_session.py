"""The shared client session against a real server: state, events, seq, reconnect."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from gridhall import protocol as p
from gridhall.client.messages import Connection, Event, Refused
from gridhall.client.session import Backoff, Session, run_in_thread
from tests.waiting import WAIT, until

FAST = Backoff(first=0.05, cap=0.2)
"""A failure guard for conditions the server brings about; never a timing check."""


S = TypeVar("S", bound=Session)


@asynccontextmanager
async def running_as(kind: type[S], url: str, name: str) -> AsyncIterator[tuple[S, list[Event]]]:
    """A connected session of class ``kind`` plus the list of every message its
    listener saw."""
    session = kind(url, name, backoff=FAST)
    seen: list[Event] = []
    session.add_listener(seen.append)
    task = asyncio.create_task(session.run())
    try:
        await until(lambda: session.connected)
        yield session, seen
    finally:
        await session.close()
        await asyncio.wait_for(task, WAIT)


def running(
    url: str, name: str
) -> contextlib.AbstractAsyncContextManager[tuple[Session, list[Event]]]:
    """A connected plain session plus every message its listener saw."""
    return running_as(Session, url, name)


async def gomoku_pair(a: Session, b: Session) -> None:
    a.submit("create-room", game="gomoku", options={"size": 15})
    await until(lambda: a.state is not None)
    assert a.room is not None
    b.submit("join-room", room=a.room.room)
    await until(lambda: b.state is not None and b.state.status == "playing")
    await until(lambda: a.state is not None and len(a.state.players) == 2)


async def test_room_state_follows_joins_and_moves(server_url: str) -> None:
    async with running(server_url, "ann") as (a, _), running(server_url, "bob") as (b, seen_b):
        await gomoku_pair(a, b)
        assert a.state is not None and b.state is not None
        assert a.state.turn == a.player  # seat 0 plays black first
        a.submit(p.Move(move={"x": 7, "y": 7}))
        await until(lambda: b.state is not None and b.state.view["moves"] == [[7, 7]])
        assert b.state.turn == b.player  # the server's moved.turn, not worked out here
        assert any(
            isinstance(m, p.Moved) and m.by == a.player and m.turn == b.player for m in seen_b
        )


async def test_seq_gap_asks_for_a_fresh_state(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen), running(server_url, "bob") as (b, _):
        await gomoku_pair(a, b)
        assert a.room is not None
        states_before = sum(1 for m in seen if isinstance(m, p.State))
        # Pretend an event was lost: the next one skips a number.
        assert b.player is not None
        a._on_message(
            p.ChatEvent(
                room=a.room.room, seq=a.room.seq + 2, sender=b.player, name="bob", text="x", ts=0.0
            )
        )
        await until(lambda: sum(1 for m in seen if isinstance(m, p.State)) > states_before)
        assert a.room is not None and not a.room.syncing and a.state is not None
        # The snapshot is the server's truth: our invented chat line is not in it.
        assert all(c.get("text") != "x" for c in a.state.chat)


async def test_submit_works_from_another_thread(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen):
        thread = threading.Thread(target=lambda: a.submit(p.ListRooms()))
        thread.start()
        thread.join()
        await until(lambda: any(isinstance(m, p.Rooms) for m in seen))


async def test_bad_intents_are_refused_with_a_sentence(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen):
        a.submit("chat", text="")
        a.submit("join-room", room="NOPE42")
        await until(lambda: len([m for m in seen if isinstance(m, Refused)]) >= 2)
        errors = [m for m in seen if isinstance(m, Refused)]
        assert {e.request for e in errors} == {"chat", "join-room"}
        assert {e.code for e in errors} == {"bad-message", "no-such-room"}
        assert all(e.message for e in errors)


async def test_dropped_connection_resumes_the_same_seat(server_url: str) -> None:
    async with running(server_url, "ann") as (a, seen), running(server_url, "bob") as (b, _):
        await gomoku_pair(a, b)
        me, room = a.player, a.room.room if a.room else None
        a.drop_connection()
        await until(lambda: any(isinstance(m, Connection) and m.status == "lost" for m in seen))
        await until(lambda: a.connected and a.room is not None and not a.room.syncing)
        assert a.player == me and a.room is not None and a.room.room == room
        assert a.state is not None
        seats = {pl["player"]: pl for pl in a.state.players}
        assert seats[me]["seat"] == 0 and seats[me]["connected"]
        a.submit("move", move={"x": 3, "y": 3})  # still our turn, still our seat
        await until(lambda: b.state is not None and [3, 3] in b.state.view["moves"])


async def test_intents_while_offline_are_reported_not_queued(make_server: Any) -> None:
    server = await make_server()
    url = f"ws://127.0.0.1:{server.port}/"
    async with running(url, "ann") as (a, seen):
        await server.close()
        await until(lambda: not a.connected)
        a.submit("list-rooms")
        await until(lambda: any(isinstance(m, Refused) and m.code == "offline" for m in seen))
        refused = next(m for m in seen if isinstance(m, Refused))
        assert refused.request == "list-rooms" and "reconnecting" in refused.message


def test_backoff_doubles_to_the_cap_with_jitter() -> None:
    backoff = Backoff()  # the defaults the real client uses
    for attempt in range(12):
        delay = backoff.delay(attempt)
        ceiling = min(10.0, 0.5 * 2**attempt)
        assert ceiling / 2 <= delay <= ceiling
    assert len({round(backoff.delay(3), 6) for _ in range(20)}) > 1  # jittered


async def test_session_runs_in_a_background_thread_for_tk(server_url: str) -> None:
    session = Session(server_url, "tk", backoff=FAST)
    seen: list[Event] = []
    session.add_listener(seen.append)
    thread = run_in_thread(session)
    try:
        await until(lambda: session.connected)
        session.submit("list-rooms")  # from this (another) thread's loop
        await until(lambda: any(isinstance(m, p.Rooms) for m in seen))
    finally:
        assert session.loop is not None
        # the server shares this loop, so wait without blocking it
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(session.close(), session.loop))
        await asyncio.to_thread(thread.join, WAIT)
    assert not thread.is_alive()


def test_unknown_message_types_from_a_newer_server_are_skipped() -> None:
    session = Session("ws://127.0.0.1:1/", "ann")
    seen: list[Event] = []
    session.add_listener(seen.append)
    future = p.encode_map({"type": "weather-report", "room": "AB12CD", "seq": 1, "sunny": True})
    assert session._on_frame(future) is None
    assert session._on_frame(b"\xc1 not msgpack") is None
    assert session._on_frame("a text frame") is None
    assert seen == [] and session.room is None
    # A known type with an extra field a newer server added still arrives, typed.
    rooms = p.encode_map({"type": "rooms", "rooms": [], "weather": "sunny"})
    assert session._on_frame(rooms) is None
    assert seen == [p.Rooms(rooms=[])]


def test_server_errors_reach_listeners_as_refusals_naming_the_request() -> None:
    session = Session("ws://127.0.0.1:1/", "ann")
    seen: list[Event] = []
    session.add_listener(seen.append)
    session._requests[7] = "move"
    frame = p.encode(p.Error(code="internal-error", message="boom", re=7))
    assert session._on_frame(frame) is None
    assert seen == [Refused("internal-error", "boom", "move")]
    fatal = p.encode(p.Error(code="version-mismatch", message="Speak protocol 2."))
    assert session._on_frame(fatal) == "fatal"


async def test_clocks_stand_still_from_the_moment_the_server_went_down(
    make_server: Callable[..., Any],
) -> None:
    from gridhall.client.views.gomoku import GomokuView
    from tests.conftest import url_of

    server = await make_server()
    url = url_of(server)
    now = [time.time()]
    async with running(url, "ann") as (a, _), running(url, "bob") as (b, _):
        a.clock = lambda: now[0]
        a.submit("create-room", game="gomoku", options={"clock": "10+5"})
        await until(lambda: a.room is not None and a.state is not None)
        b.submit("join-room", room=a.room.room)  # type: ignore[union-attr]
        await until(lambda: a.state is not None and a.state.status == "playing")
        assert a.offline_since is None and a.clock_time() == now[0]
        await server.close()
        await until(lambda: not a.connected)
        assert a.offline_since == now[0]  # the moment the connection dropped
        room = a.room
        assert room is not None
        shown = GomokuView().status(room, a.player, a.clock_time())
        dropped = now[0]
        now[0] += 300  # five minutes later, still offline
        assert a.clock_time() == dropped and "ann 10:00" in shown
        assert GomokuView().status(room, a.player, a.clock_time()) == shown


async def test_the_minesweeper_timer_stands_still_while_offline(
    make_server: Callable[..., Any],
) -> None:
    from gridhall.client.views.minesweeper import MinesweeperView
    from tests.conftest import url_of

    server = await make_server()
    now = [time.time()]
    async with running(url_of(server), "ann") as (a, _):
        a.clock = lambda: now[0]
        a.submit("create-room", game="minesweeper", options={"preset": "beginner"})
        await until(lambda: a.state is not None and a.state.status == "playing")
        a.submit("move", move={"action": "reveal", "x": 4, "y": 4})
        await until(lambda: a.state is not None and a.state.view.get("revealed"))
        view = MinesweeperView()

        def elapsed() -> float:
            assert a.room is not None
            return float(view.live_view(a.room, a.player, a.clock_time())["elapsed"])

        now[0] += 10  # connected: the timer runs
        running_at = elapsed()
        assert running_at >= 10
        await server.close()
        await until(lambda: not a.connected)
        now[0] += 300  # offline: it stands where it was when the connection dropped
        assert elapsed() == running_at
