"""The restart model (``tests/server/restart_model.py``) on the PostgreSQL store: the
same random conversations, restarted at random points, where a restart is another
cluster node taking every room over from PostgreSQL (the dead node's epoch fenced
out), or one process on PostgreSQL started again. Everything must come back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

psycopg = pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')

from gridhall.server.cluster.cluster_hub import ClusterHub  # noqa: E402
from gridhall.server.cluster.pg_store import PgStore  # noqa: E402
from gridhall.server.core.identity import token_hash  # noqa: E402
from tests.server.helpers import FakeServer  # noqa: E402
from tests.server.restart_model import GAMES, GRACE, WEIGHTED, Backend, close, run  # noqa: E402

step = st.tuples(
    st.integers(0, 3), st.sampled_from(WEIGHTED), st.integers(0, 40), st.integers(0, 40)
)


class Takeover(Backend):
    """Each start is a new cluster node; a restart is it taking every room over."""

    url = ""
    clustered = True
    sweeps = False

    def boot(self, journal_rows: int) -> FakeServer:
        self.starts += 1
        local = self.local()
        store = PgStore(self.url, local, node=f"n{self.starts}", clustered=self.clustered)
        server = FakeServer(
            store=store,  # type: ignore[arg-type]
            hold_work=True,
            grace_seconds=GRACE,
            journal_rows=journal_rows,
            rated_identity_days=1.0,
        )
        if self.clustered:
            server.hub = ClusterHub(
                server.config, server.hub.entropy, fetch_identity=store.identity_by_token
            )
        server.hub.ratings.load(local.ratings.load())
        return server

    def restart(self, old: FakeServer, journal_rows: int, now: float, crash: float) -> FakeServer:
        close(old)  # the old node is dead: its epochs are fenced out by the claims
        server = self.boot(journal_rows)
        store = server.store
        assert isinstance(store, PgStore)
        if not self.clustered:  # one process alone restores every room at start
            server.now = now
            server.restore(now, crash)
            return server
        hub = server.hub
        assert isinstance(hub, ClusterHub)
        for room, node, epoch in store.live_rooms():
            assert store.claim(room, None, (node, epoch)) is not None
            saved = store.load_room(room)
            assert saved is not None
            server.now = now
            server.execute(hub.adopt(saved, store.identities(), now, crash))
        return server

    def resumes(self, server: FakeServer, token: str) -> str | None:
        store = server.store
        assert isinstance(store, PgStore)
        row = store.identity_by_token(token_hash(token))
        return None if row is None else str(row["id"])

    def links(self, server: FakeServer, now: float) -> dict[str, Any]:
        store = server.store  # every node redeems a code from PostgreSQL
        assert isinstance(store, PgStore)
        return {d: (pid, t) for d, pid, t in sorted(store.links.codes(now)) if t > now}


class SingleOnPostgres(Takeover):
    """One process on PostgreSQL (no cluster): a restart restores every room, claimed
    under a new epoch."""

    clustered = False
    sweeps = True


@pytest.fixture
def pg(fresh_db: str) -> Iterator[str]:
    Takeover.url = fresh_db
    yield fresh_db


def empty(url: str) -> None:
    """Every table emptied (each example starts from nothing)."""
    with psycopg.connect(url, autocommit=True) as db:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        ]
        if tables:
            db.execute("TRUNCATE " + ", ".join(tables))


@example(game=0, journal_rows=1000, steps=[(2, "leave", 0, 0), (0, "wait", 2, 0)])
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    game=st.integers(0, len(GAMES) - 1),
    journal_rows=st.sampled_from([1000, 3, 1]),
    steps=st.lists(step, min_size=10, max_size=60),
)
def test_another_node_takes_every_room_over_as_it_was(
    pg: str, game: int, journal_rows: int, steps: list[tuple[int, str, int, int]]
) -> None:
    empty(pg)
    run(steps, journal_rows, game, Takeover)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    game=st.integers(0, len(GAMES) - 1),
    journal_rows=st.sampled_from([1000, 3, 1]),
    steps=st.lists(step, min_size=10, max_size=60),
)
def test_one_process_on_postgres_restores_every_room_as_it_was(
    pg: str, game: int, journal_rows: int, steps: list[tuple[int, str, int, int]]
) -> None:
    empty(pg)
    run(steps, journal_rows, game, SingleOnPostgres)


def test_a_takeover_that_cannot_replay_a_room_sets_it_aside_in_postgres(
    pg: str, tmp_path: Path
) -> None:
    """The node that takes a room over and cannot replay it sets it aside (fenced by
    its epoch): no node tries it again, and its players are told on any node."""
    from gridhall import protocol as p
    from tests.server.helpers import Client, connect

    empty(pg)
    first = Takeover(tmp_path)
    a = first.boot(1000)
    ann, bob = connect(a, "Ann"), connect(a, "Bob")
    ann.send("create-room", game="gomoku")
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    with psycopg.connect(pg, autocommit=True) as db:
        db.execute(
            "UPDATE live_rooms SET row = replace(row, 'gomoku', 'go') WHERE room = %s", [code]
        )
    b = first.restart(a, 1000, a.now + 10, a.now + 5)
    store = b.store
    assert isinstance(store, PgStore)
    assert code not in b.hub.lobby.rooms and store.live_rooms() == []
    [q] = store.quarantined()
    assert q.code == code and "'go'" in q.reason
    c = first.boot(1000)  # a third node: Bob says hello there
    c.hub.fetch_lost = c.store.lost_room  # type: ignore[attr-defined, union-attr]
    again = Client(c, a.now + 20)
    again.hello("Bob", bob.last(p.Welcome).token, a.now + 20)
    assert again.last(p.Welcome).player == bob.last(p.Welcome).player
    assert again.last(p.Error).code == "room-lost"
    assert store.release_quarantined(code) and store.live_rooms() != []
    assert store.delete_quarantined(code) is False  # (released: not set aside any more)
    close(b)
    close(c)
