"""The server's commits to PostgreSQL off the event loop (``server/cluster/pg_commits.py``),
against a real PostgreSQL: each turn's ``then`` (its frames) runs only once its writes
are committed, in the order the turns were made; a room another node took over is
refused by the fence and let go before the turn's frames go; a failed commit stores
nothing and lets its rooms go before anything of it is sent."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

psycopg = pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')

from gridhall.server.cluster.pg_commits import APPLICATION  # noqa: E402
from gridhall.server.cluster.pg_store import PgStore  # noqa: E402
from gridhall.server.core.effects import SaveIdentity, SaveRoom  # noqa: E402
from gridhall.server.io.store.store import Store  # noqa: E402
from tests.cluster.test_pg_store import journal, move, row  # noqa: E402


async def test_each_turn_is_sent_after_its_commit_and_in_order(
    stores: tuple[PgStore, PgStore],
) -> None:
    """Turns made while a commit is in flight go together in the next one; each turn's
    frames go once its own entries are in PostgreSQL (another connection sees them),
    in the order the turns were made, a turn that stored nothing included."""
    a, b = stores
    a.write([SaveRoom("R1", row("R1")), SaveRoom("R2", row("R2"))])
    seen: list[tuple[str, list[int], list[int]]] = []

    def sent(name: str) -> None:
        seen.append((name, journal(b, "R1"), journal(b, "R2")))

    a.commits.submit([move("R1", 1)], lambda: sent("t1"))
    a.commits.submit([move("R2", 1), move("R1", 2)], lambda: sent("t2"))
    a.commits.submit([], lambda: sent("t3"))  # nothing stored: still after t2
    a.commits.submit([move("R2", 2)], lambda: sent("t4"))
    assert seen == []  # nothing is sent before a commit
    await a.commits.settled()
    assert [name for name, _, _ in seen] == ["t1", "t2", "t3", "t4"]
    assert 1 in seen[0][1]  # each turn's own entries are in PostgreSQL by then
    assert {1, 2} <= set(seen[1][1]) and 1 in seen[1][2]
    assert seen[3][2] == [1, 2]
    assert a.commits.commits == 1  # one group commit carried the four turns
    a.commits.submit([], lambda: sent("t5"))  # nothing waits: at once
    assert seen[-1][0] == "t5"


async def test_a_room_made_in_a_turn_is_owned_once_that_turn_is_committed(
    stores: tuple[PgStore, PgStore],
) -> None:
    a, b = stores
    created: list[tuple[str, int]] = []
    a.on_created = lambda room, epoch: created.append((room, epoch))
    a.commits.submit([SaveRoom("R1", row("R1")), move("R1", 1)], lambda: None)
    a.commits.submit([move("R1", 2)], lambda: None)  # made before the room is committed
    assert a.holds("R1") and a.epochs == {}  # being made here: no node may take it over
    await a.commits.settled()
    assert a.holds("R1")
    assert created == [("R1", 1)] and a.epochs == {"R1": 1}
    assert b.owner("R1") == ("a", 1) and journal(b, "R1") == [1, 2]


async def test_the_fence_refuses_a_room_another_node_took_and_nothing_of_it_is_sent(
    stores: tuple[PgStore, PgStore],
) -> None:
    """b took R1 over while a did not notice: a's next turn writes nothing for R1 (its
    other room is written), and R1 is let go before that turn's frames go."""
    a, b = stores
    a.write([SaveRoom("R1", row("R1")), move("R1", 1), SaveRoom("R2", row("R2"))])
    assert b.claim("R1", None, previous=("a", 1)) == 2
    events: list[str] = []
    a.on_lost = lambda room: events.append(f"lost {room}")
    a.commits.submit([move("R1", 2), move("R2", 1)], lambda: events.append("sent"))
    await a.commits.settled()
    assert events == ["lost R1", "sent"]
    assert journal(b, "R1") == [1] and journal(b, "R2") == [1]
    assert a.epochs == {"R2": 1}


async def test_a_room_let_go_while_its_turn_waited_is_not_written(
    stores: tuple[PgStore, PgStore],
) -> None:
    a, b = stores
    a.write([SaveRoom("R1", row("R1"))])
    a.commits.submit([move("R1", 1)], lambda: None)
    a.disown("R1")  # its lease ran out before the commit went
    await a.commits.settled()
    assert journal(b, "R1") == []


async def test_a_failed_commit_stores_nothing_and_lets_its_rooms_go_before_sending(
    stores: tuple[PgStore, PgStore],
) -> None:
    """PostgreSQL drops the commits' connection: that group is not stored, its rooms
    are let go before its frames go (their players are closed by then, so nothing of
    it reaches them); the next commit connects again."""
    a, b = stores
    a.write([SaveRoom("R1", row("R1")), SaveRoom("R2", row("R2"))])
    a.commits.submit([move("R1", 1)], lambda: None)
    await a.commits.settled()
    b.pg.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
        (APPLICATION,),
    )
    events: list[str] = []
    a.on_lost = lambda room: events.append(f"lost {room}")
    a.commits.submit(
        [move("R1", 2), move("R2", 1), SaveIdentity("p1", "h1", "Ann", None, None)],
        lambda: events.append("sent"),
    )
    await a.commits.settled()
    assert events == ["lost R1", "lost R2", "sent"]
    assert journal(b, "R1") == [1] and journal(b, "R2") == []
    assert b.identity_by_token("h1") is None and a.epochs == {}
    assert a.claim("R1", None, previous=("a", 1)) == 2  # taken back under a new epoch
    a.commits.submit([move("R1", 2)], lambda: events.append("sent again"))
    await a.commits.settled()
    assert events[-1] == "sent again" and journal(b, "R1") == [1, 2]


async def test_a_commit_that_hangs_counts_as_failed(
    fresh_db: str, tmp_path: Path, stores: tuple[PgStore, PgStore]
) -> None:
    """A commit stuck behind a lock past the timeout is given up: its rooms go before
    its frames do, and the turns after it are not held up for ever. (Whether the
    stuck statement lands once the lock is free is PostgreSQL's to say, as for a
    COMMIT whose answer was lost; the fence in it still holds.)"""
    _, b = stores
    a = PgStore(fresh_db, Store(tmp_path / "c.db"), node="a", clustered=True, commit_timeout=0.5)
    try:
        a.write([SaveRoom("R1", row("R1"))])
        events: list[str] = []
        a.on_lost = lambda room: events.append(f"lost {room}")
        with b.pg.transaction():  # another session holds R1's owner row
            b.pg.execute("SELECT * FROM room_owner WHERE room = 'R1' FOR UPDATE")
            done = asyncio.Event()
            a.commits.submit([move("R1", 1)], lambda: events.append("sent"))
            a.commits.submit([], done.set)
            await asyncio.wait_for(done.wait(), 30)
            assert events == ["lost R1", "sent"] and a.epochs == {}
    finally:
        a.close()


async def test_a_wait_for_the_commits_ends_once_they_are_closed(
    fresh_db: str, tmp_path: Path, stores: tuple[PgStore, PgStore]
) -> None:
    """A server that stops while a commit hangs: the turns still queued are given up
    with the store, and a wait for them (``settled``, a stop's last flush) returns at
    once instead of waiting for a writer that will never run again."""
    _, b = stores
    a = PgStore(fresh_db, Store(tmp_path / "c.db"), node="a", clustered=True, commit_timeout=30)
    try:
        a.write([SaveRoom("R1", row("R1"))])
        sent: list[str] = []
        with b.pg.transaction():  # the commit hangs behind this lock
            b.pg.execute("SELECT * FROM room_owner WHERE room = 'R1' FOR UPDATE")
            a.commits.submit([move("R1", 1)], lambda: sent.append("t1"))
            waiting = asyncio.ensure_future(a.commits.settled())
            await asyncio.sleep(0)
            assert not waiting.done() and a.commits.busy
            a.commits.close()
            await asyncio.wait_for(waiting, 30)  # (a wait already under way ends too)
            await asyncio.wait_for(a.commits.settled(), 30)
            a.commits.submit([move("R1", 2)], lambda: sent.append("t2"))
            await asyncio.wait_for(a.commits.settled(), 30)
        assert sent == [] and a.commits.busy
    finally:
        a.close()
