"""A room a real server cannot restore, end to end: it is set aside (a start-up line,
the admin page, ``gridhall-server rooms --quarantined``), never tried again at each
start, and its players resume their own identities and are told ``room-lost``; the
operator puts it back or deletes it from the admin page or the command line."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest

from gridhall.server import cli
from gridhall.server.io.net.app import GameServer
from gridhall.server.io.store.store import Store
from tests.e2e.test_admin_e2e import admin, game_url
from tests.wsclient import WsClient


async def a_game(server: GameServer) -> tuple[WsClient, WsClient, str]:
    """Ann and Bob's Gomoku game, one move in; the clients are closed again."""
    async with WsClient.connect(game_url(server), "Ann") as ann:
        async with WsClient.connect(game_url(server), "Bob") as bob:
            await ann.send("create-room", game="gomoku")
            code = (await ann.expect("joined"))["room"]
            await bob.send("join-room", room=code)
            await ann.expect("state", status="playing")
            await ann.send("move", move={"x": 7, "y": 7})
            await bob.expect("moved")
    return ann, bob, code


def unreadable(db: str, code: str) -> None:
    """A journal entry this version cannot read, as a newer version could write."""
    with sqlite3.connect(db) as con:
        n = con.execute("SELECT max(n) FROM journal WHERE room = ?", (code,)).fetchone()[0]
        con.execute(
            "INSERT INTO journal (room, n, entry) VALUES (?, ?, ?)",
            (code, n + 1, msgpack.packb({"k": "teleport", "t": 1.0})),
        )


async def test_a_room_that_cannot_be_restored_is_set_aside_and_its_players_are_told(
    make_server: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = str(tmp_path / "gridhall.db")
    server: GameServer = await make_server(db=db)
    ann, bob, code = await a_game(server)
    await server.close()
    unreadable(db, code)

    with caplog.at_level(logging.INFO, logger="gridhall"):
        server = await make_server(db=db)
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(said) == 1 and f"room {code} could not be restored" in said[0]
    assert "teleport" in said[0] and "rooms --quarantined" in said[0]
    assert code not in server.hub.lobby.rooms
    async with WsClient.connect(game_url(server), "Ann", ann.token) as again:
        assert again.player == ann.player  # her own identity, not a new one
        lost = await again.expect("error")
        assert lost["code"] == "room-lost" and lost["room"] == code and "re" not in lost
        assert "teleport" in lost["reason"] and code in lost["message"]
        await again.send("list-rooms")
        assert (await again.expect("rooms"))["rooms"] == []
    async with admin(server) as page:
        [aside] = (await page.expect("admin-status"))["quarantined"]
        assert aside["room"] == code and aside["game"] == "gomoku"
        assert sorted(m["name"] for m in aside["members"]) == ["Ann", "Bob"]
        refused = await page.act("delete-room", room="NOPE22")
        assert refused["type"] == "error" and refused["code"] == "no-such-room"
    await server.close()

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="gridhall"):
        server = await make_server(db=db)  # not tried again: a warning says it stays aside
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(f"room {code} stays set aside" in r.getMessage() for r in caplog.records)
    async with WsClient.connect(game_url(server), "Bob", bob.token) as again:
        assert again.player == bob.player
        assert (await again.expect("error"))["code"] == "room-lost"
    async with admin(server) as page:
        status = await page.done("delete-room", room=code.lower(), reason="broken")
        assert status["quarantined"] == []
        assert status["audit"][0]["action"] == "delete-room"
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM rooms").fetchone()[0] == 0
        assert (
            con.execute("SELECT COUNT(*) FROM journal WHERE room = ?", (code,)).fetchone()[0] == 0
        )


async def test_a_room_put_back_from_the_admin_page_comes_back_at_the_next_start(
    make_server: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "gridhall.db")
    server: GameServer = await make_server(db=db)
    ann, _bob, code = await a_game(server)
    await server.close()
    unreadable(db, code)
    server = await make_server(db=db)
    with sqlite3.connect(db) as con:  # the operator mends it (an upgrade would)
        con.execute(
            "DELETE FROM journal WHERE room = ? AND n = (SELECT max(n) FROM journal)", (code,)
        )
    async with admin(server) as page:
        status = await page.done("release-room", room=code)
        assert status["quarantined"] == []
    await server.close()
    server = await make_server(db=db)
    assert code in server.hub.lobby.rooms
    async with WsClient.connect(game_url(server), "Ann", ann.token) as again:
        await again.send("sync")
        state = await again.expect("state")
        assert state["room"] == code and state["view"]["moves"] == [[7, 7]]


def test_the_rooms_command_lists_puts_back_and_deletes_rooms_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridhall.server.core.effects import Quarantine, SaveIdentity, SaveRoom

    db = str(tmp_path / "g.db")
    with pytest.raises(SystemExit) as nothing:
        cli.main(["--db", db, "rooms"])
    assert nothing.value.code == 2 and not Path(db).exists()
    store = Store(db)
    row = {"code": "K7MQ2D", "game": "gomoku", "created_at": 1_800_000_000.0}
    store.write(
        [
            SaveIdentity("p1", "h1", "Ann", None, None),
            SaveRoom("K7MQ2D", row),
            SaveRoom("ABCDEF", {**row, "code": "ABCDEF"}),
            Quarantine(
                "ABCDEF",
                {"game": "gomoku", "reason": "its snapshot: boom", "at": 1.8e9, "members": ["p1"]},
            ),
        ]
    )
    store.close()

    def run(*args: str) -> tuple[int, str]:
        with pytest.raises(SystemExit) as done:
            cli.main(["--db", db, "rooms", *args])
        return int(done.value.code or 0), capsys.readouterr().out

    code, out = run()
    assert "K7MQ2D" in out and "ABCDEF" not in out and "1 set aside" in out
    code, out = run("--quarantined")
    assert "ABCDEF" in out and "Ann (p1)" in out and "its snapshot: boom" in out
    assert run("--release", "nope22")[0] == 2
    code, out = run("--release", "abcdef")
    assert code == 0 and "ABCDEF" in out
    assert "ABCDEF" in run()[1]
    Store(db).write([Quarantine("ABCDEF", {"game": "gomoku", "reason": "again", "at": 1.0})])
    code, out = run("--delete", "ABCDEF")
    assert code == 0 and run("--delete", "ABCDEF")[0] == 2
    assert "No room is set aside" in run("--quarantined")[1]
    assert "ABCDEF" not in run()[1]
