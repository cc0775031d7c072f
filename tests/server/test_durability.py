"""Rooms survive a restart: journal + snapshot in SQLite, replayed into a new hub."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

from gridhall import protocol as p
from gridhall.server.core.effects import Think
from gridhall.server.io.store import journal_table
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect


def restart(old: FakeServer, path: Path, now: float, down_since: float) -> FakeServer:
    """A new server process on the same database (the old one just vanished)."""
    server = FakeServer(store=Store(path), grace_seconds=old.config.grace_seconds)
    server.restore(now, down_since)
    return server


def resume(server: FakeServer, client: Client, now: float, since: int | None = None) -> Client:
    welcome = client.last(p.Welcome)
    again = Client(server, now)
    fields: dict[str, Any] = {"protocol": 1, "name": "x", "token": welcome.token}
    if since is not None:
        fields["since"] = since
    again.send("hello", now, **fields)
    assert again.last(p.Welcome).player == welcome.player
    return again


def store(tmp_path: Path) -> tuple[Store, Path]:
    path = tmp_path / "g.db"
    return Store(path), path


def gomoku(server: FakeServer, **options: Any) -> tuple[Client, Client, str]:
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", options=options)
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    return ann, bob, code


def test_a_gomoku_game_comes_back_with_board_seats_and_seq(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann, bob, code = gomoku(server)
    for n, who in enumerate((ann, bob, ann, bob)):
        who.send("move", T0 + n, move={"x": n, "y": n})
    ann.send("chat", T0 + 5, text="still there?")
    before = ann.last(p.ChatEvent)

    server2 = restart(server, path, T0 + 100, T0 + 10)
    ann2, bob2 = resume(server2, ann, T0 + 101), resume(server2, bob, T0 + 102)
    state = bob2.last(p.State)
    assert state.room == code and state.view["moves"] == [[0, 0], [1, 1], [2, 2], [3, 3]]
    assert state.seq > before.seq and state.chat[-1]["text"] == "still there?"
    assert [pl["seat"] for pl in state.players] == [0, 1] and state.turn == me(ann)
    ann2.send("move", T0 + 103, move={"x": 4, "y": 4})
    moved = bob2.last(p.Moved)
    assert moved.view["moves"][-1] == [4, 4] and moved.seq == bob2.last(p.PlayerInfoEvent).seq + 1


def me(client: Client) -> str:
    player: str = client.last(p.Welcome).player
    return player


def test_players_get_the_grace_period_from_the_restart(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db, grace_seconds=60)
    ann, bob, code = gomoku(server)
    bob.drop(T0 + 1)  # bob's grace would end at T0 + 61
    server2 = restart(server, path, T0 + 500, T0 + 2)
    assert server2.wakes[code] == T0 + 560
    server2.advance(T0 + 559)
    ann2 = resume(server2, ann, T0 + 559)
    assert ann2.last(p.State).status == "playing"
    server2.advance(T0 + 560)
    assert ann2.last(p.GameOver).result["reason"] == "disconnect"


def test_clocks_stand_still_while_the_server_is_down(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann, bob, code = gomoku(server, clock="1+0")
    ann.send("move", T0 + 10, move={"x": 7, "y": 7})  # bob's clock runs from T0 + 10
    server2 = restart(server, path, T0 + 1000, T0 + 20)  # down from T0+20 to T0+1000
    bob2 = resume(server2, bob, T0 + 1000)
    clock = bob2.last(p.State).view["clock"]
    assert clock["running"] == me(bob) and clock["since"] == T0 + 10 + 980
    assert server2.wakes[code] == T0 + 1050  # 60 s from the (shifted) turn start
    resume(server2, ann, T0 + 1001)
    server2.advance(T0 + 1050)
    assert bob2.last(p.GameOver).result["reason"] == "timeout"


def test_a_minesweeper_board_comes_back_without_revealing_mines(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann = connect(server, "Ann")
    ann.send("create-room", game="minesweeper", options={"preset": "expert"})
    ann.send("move", T0 + 1, move={"action": "reveal", "x": 15, "y": 8})
    ann.send("move", T0 + 2, move={"action": "mark", "x": 0, "y": 0, "mark": "flag"})
    rows = ann.last(p.Moved).view["rows"]
    layout = {tuple(c) for c in server.hub.lobby.rooms[ann.last(p.Joined).room].game.board.layout()}
    server2 = restart(server, path, T0 + 50, T0 + 3)
    ann2 = resume(server2, ann, T0 + 50)
    state = ann2.last(p.State)
    assert state.view["rows"] == rows and "*" not in "".join(rows)
    assert {tuple(c) for c in server2.hub.lobby.rooms[state.room].game.board.layout()} == layout


def test_a_linkmatch_race_comes_back_with_each_racers_board(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send(
        "create-room",
        game="linkmatch",
        options={"width": 6, "height": 4, "kinds": 3, "countdown": 0},
    )
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("start", T0 + 1)
    view = ann.last(p.State).view
    from gridhall.server.games.linkmatch import available_pairs

    a, b = available_pairs(view["rows"])[0]
    ann.send("move", T0 + 2, move={"action": "link", "a": list(a), "b": list(b)})
    ann.send("move", T0 + 3, move={"action": "link", "a": [0, 0], "b": [0, 0]})  # wrong
    rows = ann.last(p.Moved).view["rows"]
    server2 = restart(server, path, T0 + 30, T0 + 4)
    ann2 = resume(server2, ann, T0 + 30)
    restored = ann2.last(p.State).view
    assert restored["rows"] == rows and restored["wrong"] == 1 and restored["remaining"] == 22
    assert abs(restored["elapsed"] - 3.0) < 0.01  # alive until T0+4, then the clock stood still


def test_a_computer_room_comes_back_and_the_computer_thinks_again(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    job = server.thinks()[-1]
    server2 = restart(server, path, T0 + 60, T0 + 2)  # it crashed while the computer thought
    [again] = [t for t in server2.thinks() if isinstance(t, Think)]
    assert again.bot == job.bot and again.request == job.request
    ann2 = resume(server2, ann, T0 + 61)
    server2.execute(server2.hub.computer_move(again, {"x": 8, "y": 8}, T0 + 62))
    assert ann2.last(p.Moved).view["moves"] == [[7, 7], [8, 8]]


def test_a_restored_computer_room_still_counts_against_its_creators_address(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann = connect(server, "Ann", peer="10.0.0.7")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    server2 = restart(server, path, T0 + 60, T0 + 2)
    [again] = server2.thinks()
    assert again.address == "10.0.0.7"  # its computer shares that address's workers
    assert server2.hub.lobby.held_by("10.0.0.7") == 1


def test_a_new_game_snapshots_the_room_and_drops_older_journal_entries(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann, bob, code = gomoku(server)
    for i in range(5):
        ann.send("move", move={"x": i, "y": 0})
        if i < 4:
            bob.send("move", move={"x": i, "y": 1})
    bob.send("play-again")
    ann.send("agree-again")
    ann_state = ann.last(p.State)
    assert ann_state.round == 1
    assert journal_table.room_entries(sqlite3.connect(path), code) == 0
    server2 = restart(server, path, T0 + 10, T0 + 1)
    state = resume(server2, bob, T0 + 10).last(p.State)
    assert state.round == 1 and state.view["moves"] == [] and state.turn == me(bob)


def test_sync_since_replays_missed_events_or_falls_back_to_a_state() -> None:
    server = FakeServer()
    ann, bob, _ = gomoku(server)
    seen = bob.last(p.State).seq
    bob.drop(T0 + 1)
    ann.send("move", T0 + 2, move={"x": 7, "y": 7})
    ann.send("chat", T0 + 3, text="your move")
    bob2 = resume(server, bob, T0 + 4, since=seen)
    kinds = [type(m).__name__ for m in bob2.received()]
    assert kinds == ["Welcome", "PlayerInfoEvent", "Moved", "ChatEvent", "PlayerInfoEvent"]
    seqs = [m.seq for m in bob2.received()[1:]]
    assert seqs == list(range(seen + 1, seen + 5))
    bob2.clear()
    bob2.send("sync", T0 + 5, since=seen + 2)
    assert [type(m).__name__ for m in bob2.received()] == ["ChatEvent", "PlayerInfoEvent"]
    bob2.clear()
    bob2.send("sync", T0 + 5, since=0)  # the room still keeps every event here
    first = bob2.received()[0]  # bob missed no event of his own before the game began
    assert isinstance(first, p.State) and first.seq == 3 and first.re is None
    server.hub.lobby.rooms[bob2.last(p.PlayerInfoEvent).room].recent.popleft()
    bob2.clear()
    bob2.send("sync", T0 + 5, since=0)
    assert [type(m).__name__ for m in bob2.received()] == ["State"]


def test_a_torn_last_write_leaves_a_store_that_opens(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann, bob, code = gomoku(server)
    ann.send("move", move={"x": 7, "y": 7})
    crash = tmp_path / "crash"
    crash.mkdir()
    for suffix in ("", "-wal", "-shm"):  # the files as a crash left them, no checkpoint
        if Path(str(path) + suffix).exists():
            shutil.copy(str(path) + suffix, crash / ("g.db" + suffix))
    bob.send("move", move={"x": 8, "y": 8})
    wal = Path(str(path) + "-wal").read_bytes()
    torn = crash / "g.db-wal"
    good = torn.stat().st_size
    torn.write_bytes(wal[:good] + wal[good : good + 3000])  # half a frame of the next commit
    reopened = Store(crash / "g.db")
    assert reopened.db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    identities, rooms = reopened.load_live()
    assert [r.row["code"] for r in rooms] == [code] and len(identities) == 2
    server2 = FakeServer(store=reopened)
    server2.restore(T0 + 5, T0 + 1)
    state = resume(server2, ann, T0 + 5).last(p.State)
    assert state.view["moves"] == [[7, 7]]  # the last intact commit


def test_a_closed_room_leaves_nothing_live_behind(tmp_path: Path) -> None:
    db, path = store(tmp_path)
    server = FakeServer(store=db)
    ann = connect(server, "Ann")
    ann.send("create-room", game="minesweeper")
    ann.send("leave-room")
    identities, rooms = db.load_live()
    assert rooms == [] and [i["id"] for i in identities] == [me(ann)]
    con = sqlite3.connect(path)
    assert con.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
    db.prune(T0)  # the sweep, which a running server's upkeep calls, deletes its entries
    assert con.execute("SELECT COUNT(*) FROM journal").fetchone()[0] <= 1  # the last is kept
    assert (
        con.execute(
            "SELECT COUNT(*) FROM identities WHERE token_hash = ?", (ann.last(p.Welcome).token,)
        ).fetchone()[0]
        == 0
    )  # hashed, never kept


def test_a_room_whose_player_was_forgotten_after_the_snapshot_still_comes_back(
    tmp_path: Path,
) -> None:
    """Bob's grace ends mid-game: he leaves and his identity is deleted, but the
    game-start snapshot still seats him. The restore must replay past that."""
    db, path = store(tmp_path)
    server = FakeServer(store=db, grace_seconds=60)
    ann, bob, code = gomoku(server)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    bob.drop(T0 + 2)
    server.advance(T0 + 62)
    assert ann.last(p.GameOver).result["reason"] == "disconnect"
    server2 = restart(server, path, T0 + 100, T0 + 70)
    assert code in server2.hub.lobby.rooms
    state = resume(server2, ann, T0 + 101).last(p.State)
    assert state.room == code and [pl["player"] for pl in state.players] == [me(ann)]
    assert state.result is not None and state.result["reason"] == "disconnect"
    assert me(bob) not in server2.hub.identities.by_id  # the stand-in is swept again
