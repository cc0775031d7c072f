"""The PostgreSQL store against a real PostgreSQL: epochs fence out a stale owner."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("psycopg", reason='pip install "gridhall[cluster]"')

from gridhall.server.cluster.pg_plan import JOURNAL, pack_entry  # noqa: E402
from gridhall.server.cluster.pg_store import PgStore  # noqa: E402
from gridhall.server.core.effects import Log, SaveIdentity, SaveRoom, SaveSnapshot  # noqa: E402
from gridhall.server.io.store import Store  # noqa: E402


def row(code: str) -> dict[str, object]:
    return {
        "code": code,
        "game": "gomoku",
        "options": {},
        "creator": "p1",
        "private": False,
        "password": None,
        "salt": None,
        "seed": 7,
        "address": "",
        "created_at": 1.0,
    }


def move(room: str, n: int) -> Log:
    return Log(room, n, {"k": "msg", "p": "p1", "m": {"type": "move"}, "t": float(n)})


def journal(store: PgStore, room: str) -> list[int]:
    saved = store.load_room(room)
    assert saved is not None
    return [n for n, _ in saved.entries]


def test_a_new_room_is_owned_by_its_creator_under_epoch_one(
    stores: tuple[PgStore, PgStore],
) -> None:
    a, b = stores
    created: list[tuple[str, int]] = []
    a.on_created = lambda room, epoch: created.append((room, epoch))
    a.write([SaveRoom("R1", row("R1")), move("R1", 1)])
    assert created == [("R1", 1)] and a.epochs == {"R1": 1}
    assert b.owner("R1") == ("a", 1)
    assert journal(b, "R1") == [1]


def test_a_stale_owner_is_refused_and_writes_nothing(stores: tuple[PgStore, PgStore]) -> None:
    a, b = stores
    lost: list[str] = []
    a.on_lost = lost.append
    a.write([SaveRoom("R1", row("R1")), move("R1", 1), SaveRoom("R2", row("R2"))])
    assert b.claim("R1", None, previous=("a", 1)) == 2  # b takes R1 over
    a.write(
        [
            move("R1", 2),
            SaveSnapshot("R1", 2, {"x": 1}),
            move("R2", 1),
            SaveIdentity("p1", "h1", "Ann", None, None),
        ]
    )
    assert lost == ["R1"] and "R1" not in a.epochs
    saved = b.load_room("R1")
    assert saved is not None and saved.snapshot is None and journal(b, "R1") == [1]
    assert journal(b, "R2") == [1]  # the room a still owns was written
    assert b.identity_by_token("h1") is not None
    b.write([move("R1", 2)])  # the new owner writes on from where the journal ends
    assert journal(a, "R1") == [1, 2]


def test_the_fence_is_in_the_journal_statement_itself(stores: tuple[PgStore, PgStore]) -> None:
    """Even without the row lock, a stale epoch's insert writes 0 rows."""
    a, b = stores
    a.write([SaveRoom("R1", row("R1"))])
    assert b.claim("R1", None, previous=("a", 1)) == 2
    cur = a.pg.execute(
        JOURNAL,
        {
            "node": "a",
            "rooms": ["R1"],
            "seqs": [1],
            "epochs": [1],
            "entries": [pack_entry({"k": "tick", "t": 1.0})],
        },
    )
    assert cur.rowcount == 0 and journal(b, "R1") == []


def test_a_takeover_is_a_compare_and_set(stores: tuple[PgStore, PgStore]) -> None:
    a, b = stores
    a.write([SaveRoom("R1", row("R1"))])
    assert b.claim("R1", None, previous=("a", 1)) == 2
    assert a.claim("R1", None, previous=("a", 1)) is None  # saw an old owner: refused
    assert a.claim("R1", 7, previous=("b", 2)) == 7  # at least the epoch Redis gave
    assert b.owner("R1") == ("a", 7)


def test_one_process_alone_restores_every_room_under_a_new_epoch(
    fresh_db: str, tmp_path: Path
) -> None:
    first = PgStore(fresh_db, Store(tmp_path / "a.db"), node="single")
    first.write([SaveRoom("R1", row("R1")), move("R1", 1)])
    first.close()
    second = PgStore(fresh_db, Store(tmp_path / "a.db"), node="single")
    _, rooms = second.load_live()
    assert [r.row["code"] for r in rooms] == ["R1"] and second.epochs == {"R1": 2}
    assert [n for n, _ in rooms[0].entries] == [1]
    second.close()


def test_a_failed_commit_writes_nothing_and_lets_its_rooms_go(
    stores: tuple[PgStore, PgStore],
) -> None:
    """PostgreSQL drops the node's connection mid-game: that turn is not stored, so its
    rooms are let go at once (their players closed before the turn's frames go out);
    the node connects again and can take them back under a new epoch."""
    import psycopg

    a, b = stores
    lost: list[str] = []
    a.on_lost = lost.append
    a.write([SaveRoom("R1", row("R1")), move("R1", 1)])
    b.pg.execute("SELECT pg_terminate_backend(%s)", (a.pg.info.backend_pid,))
    with pytest.raises(psycopg.Error):
        a.write([move("R1", 2), SaveIdentity("p1", "h1", "Ann", None, None)])
    assert lost == ["R1"] and a.epochs == {}
    assert journal(b, "R1") == [1] and b.identity_by_token("h1") is None
    a.connected()
    assert a.claim("R1", None, previous=("a", 1)) == 2
    a.write([move("R1", 2)])
    assert journal(b, "R1") == [1, 2]
