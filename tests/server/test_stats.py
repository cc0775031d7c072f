"""The server's running figures (server/core/stats.py): what they count, and that a
stranger cannot grow their label sets."""

from __future__ import annotations

import asyncio
from pathlib import Path

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.scheduler import Owner
from gridhall.server.core.session import Session
from gridhall.server.core.stats import OTHER, Histogram, Stats, error_code, frame_type
from gridhall.server.io.app import GameServer
from gridhall.server.io.work import WorkPool
from tests.server.helpers import T0, FakeLink, FakeServer, connect


def test_unknown_message_types_all_count_as_other() -> None:
    stats = Stats()
    for n in range(500):
        stats.message_in(f"made-up-{n}", T0)
    stats.message_in("move", T0)
    assert stats.messages_in == {OTHER: 500, "move": 1}


def test_a_session_counts_every_frame_by_type_bounded() -> None:
    server = FakeServer(max_bad_messages=100)
    client = connect(server, "Ann")
    client.send("list-rooms")
    client.send("no-such-type-" + "x" * 40)
    client.receive(b"\xc1")
    client.send("move", move={"x": 1})  # not in a room: refused, still a move received
    assert server.stats.messages_in == {"hello": 1, "list-rooms": 1, "move": 1, OTHER: 2}


def test_frame_type_reads_the_type_of_every_server_frame() -> None:
    error = p.encode(p.Error(code="not-your-turn", message="Wait."))
    assert frame_type(error) == "error"
    assert frame_type(p.encode_map({"type": "invented", "x": 1})) == OTHER
    assert frame_type(p.encode_map({"x": 1, "type": "error"})) == OTHER
    assert frame_type(b"") == OTHER and frame_type(b"\xc1") == OTHER
    big = p.encode_map({"type": "state", **{f"k{n}": n for n in range(40)}})
    assert big[0] == 0xDE and frame_type(big) == "state"


def test_an_error_frame_is_a_refusal_counted_by_known_code() -> None:
    stats = Stats()
    stats.frame_out(p.encode(p.Error(code="not-your-turn", message="Wait.")))
    stats.frame_out(p.encode_map({"type": "error", "code": "invented", "message": "?"}))
    stats.frame_out(p.encode_map({"type": "welcome"}))
    assert stats.refusals == {"not-your-turn": 1, OTHER: 1}
    assert stats.frames_out == {"error": 2, "welcome": 1}
    assert error_code(b"\xc1") == OTHER


def test_messages_per_second_is_the_average_over_the_last_ten_seconds() -> None:
    stats = Stats()
    assert stats.messages_per_second(T0) == 0.0
    for second in range(5):
        for _ in range(10):
            stats.message_in("chat", T0 + second + 0.5)
    assert stats.messages_per_second(T0 + 4.9) == 5.0
    assert stats.messages_per_second(T0 + 12.0) == 2.0  # seconds 3 and 4 are still in
    assert stats.messages_per_second(T0 + 30.0) == 0.0


def test_commit_percentiles_look_at_the_latest_thousand() -> None:
    stats = Stats()
    assert stats.commit_percentiles() == (None, None)
    for _ in range(1000):
        stats.commit(9.0)  # old and slow: pushed out
    for n in range(1, 1001):
        stats.commit(n / 1000)
    p50, p99 = stats.commit_percentiles()
    assert p50 is not None and p99 is not None
    assert 0.49 <= p50 <= 0.51 and 0.98 <= p99 <= 1.0
    assert stats.commit_time.count == 2000


def test_histogram_buckets_are_cumulative_and_end_at_inf() -> None:
    hist = Histogram((0.1, 1.0))
    for value in (0.05, 0.1, 0.5, 3.0):
        hist.observe(value)
    assert hist.cumulative() == [("0.1", 2), ("1.0", 3), ("+Inf", 4)]
    assert hist.count == 4 and abs(hist.sum - 3.65) < 1e-9


def test_a_played_move_waits_for_its_moved_to_be_delivered() -> None:
    stats = Stats()
    stats.move_accepted(10.0)
    stats.move_accepted(10.5)
    stats.frame_out(p.encode_map({"type": "chat"}))
    stats.delivered(10.8)  # a move waiting for a job: no moved yet
    assert stats.move_round_trip.count == 0
    stats.frame_out(p.encode_map({"type": "moved"}))
    stats.delivered(11.0)
    stats.frame_out(p.encode_map({"type": "moved"}))
    stats.delivered(12.0)  # nothing pending: nothing observed
    assert stats.move_round_trip.count == 2
    assert abs(stats.move_round_trip.sum - 1.5) < 1e-9


async def test_the_server_counts_commits_and_frames_as_it_delivers(tmp_path: Path) -> None:
    server = GameServer(ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "g.db")))
    link = FakeLink()
    session = Session(server, link, T0)
    for frame in (
        p.encode_map({"type": "hello", "protocol": 1, "name": "Ann", "id": 1}),
        p.encode_map({"type": "create-room", "game": "minesweeper", "id": 2}),
    ):
        server.execute(session.receive(frame, T0), session)
    assert server.stats.frames_out == {}  # nothing is handed out before the turn ends
    server._flush()
    stats = server.stats
    assert stats.messages_in == {"hello": 1, "create-room": 1}
    assert sum(stats.frames_out.values()) == len(link.frames) >= 2
    assert stats.frames_out["welcome"] == 1
    assert stats.commit_time.count == 1 and stats.commit_percentiles()[0] is not None
    server.store.close()


async def test_the_pool_counts_jobs_by_kind_with_their_wait() -> None:
    stats = Stats()
    pool = WorkPool(1, 8, stats=stats)
    stats.pool = pool
    answered = asyncio.Event()
    try:
        pool.submit(
            abs,
            -3,
            owner=Owner("a", "r"),
            kind="hint",
            done=lambda _v: answered.set(),
            failed=lambda _e: answered.set(),
        )
        assert stats.worker_queue() + stats.worker_busy() == 1
        await answered.wait()
    finally:
        pool.close()
    assert stats.jobs == {"hint": 1}
    assert stats.job_wait["hint"].count == 1 and stats.job_run["hint"].count == 1
    assert stats.worker_busy() == 0 and stats.worker_queue() == 0
