"""Sessions, lobby and abuse: bad frames, limits, passwords, reconnects, shutdown."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient, gomoku_pair


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def test_welcome_gives_an_id_a_secret_token_and_the_server_name(make_server: Any) -> None:
    server = await make_server(name="Den")
    async with WsClient.connect(url(server)) as c:
        await c.send("hello", protocol=1, name="Ann", id=1)
        welcome = await c.expect("welcome")
        assert welcome["server"] == "Den" and welcome["re"] == 1 and welcome["protocol"] == 1
        assert len(welcome["token"]) >= 22 and welcome["player"] != welcome["token"]


async def test_messages_before_hello_are_not_welcomed(server_url: str) -> None:
    async with WsClient.connect(server_url) as c:
        await c.send("list-rooms", id=4)
        err = await c.expect("error")
        assert err["code"] == "not-welcomed" and err["re"] == 4


async def test_a_different_protocol_version_is_refused_and_closed(server_url: str) -> None:
    async with WsClient.connect(server_url) as c:
        await c.send("hello", protocol=2, name="Ann")
        assert (await c.expect("error"))["code"] == "version-mismatch"
        with pytest.raises(ConnectionClosed):
            await c.recv()


async def test_bad_frames_get_bad_message_and_the_connection_keeps_working(server_url: str) -> None:
    async with WsClient.connect(server_url, "Ann") as c:
        for frame in [
            "a text frame",
            b"\xc1\xc1 garbage",
            msgpack.packb([1, 2, 3]),
            msgpack.packb({"type": "chat", "text": 42}),
            msgpack.packb({"type": "hello", "protocol": 1, "name": "x" * 33}),
        ]:
            await c.send_raw(frame)
            assert (await c.expect("error"))["code"] == "bad-message"
        await c.send("teleport", id=3)
        err = await c.expect("error")
        assert err["code"] == "unknown-type" and err["re"] == 3
        await c.send("list-rooms", id=7)
        assert (await c.expect("rooms"))["re"] == 7


async def test_a_frame_over_64_kib_closes_with_1009(server_url: str) -> None:
    async with WsClient.connect(server_url, "Ann") as c:
        await c.send("chat", text="x" * 70_000)
        with pytest.raises(ConnectionClosed) as info:
            await c.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009


async def test_many_bad_frames_close_with_1008(make_server: Any) -> None:
    server = await make_server(max_bad_messages=5)
    async with WsClient.connect(url(server), "Ann") as c:
        for _ in range(6):
            await c.send_raw(b"\xc1")
        with pytest.raises(ConnectionClosed) as info:
            while True:
                await c.recv()
        assert info.value.rcvd is not None and info.value.rcvd.code == 1008


async def test_lobby_lists_public_rooms_only_and_codes_are_readable(server_url: str) -> None:
    async with (
        WsClient.connect(server_url, "Ann") as a,
        WsClient.connect(server_url, "Bob") as b,
        WsClient.connect(server_url, "Cy") as c,
    ):
        await a.send("create-room", game="gomoku", options={"size": 19})
        public = (await a.expect("joined"))["room"]
        await b.send("create-room", game="gomoku", private=True, password="sesame")
        await b.expect("joined")
        await c.send("list-rooms")
        rooms = (await c.expect("rooms"))["rooms"]
        assert [r["room"] for r in rooms] == [public]
        assert rooms[0]["players"] == ["Ann"] and rooms[0]["options"]["size"] == 19
        assert rooms[0]["status"] == "waiting" and rooms[0]["private"] is False
        assert len(public) == 6 and public.isalnum() and public.isupper()


async def test_private_room_needs_the_right_password(server_url: str) -> None:
    async with WsClient.connect(server_url, "Ann") as a, WsClient.connect(server_url, "Bob") as b:
        await a.send("create-room", game="gomoku", private=True, password="sesame")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room, password="open up", id=11)
        err = await b.expect("error")
        assert err["code"] == "wrong-password" and err["re"] == 11
        await b.send("join-room", room=room)
        assert (await b.expect("error"))["code"] == "wrong-password"
        await b.send("join-room", room=room.lower(), password="sesame")
        assert (await b.expect("joined"))["seat"] == 1


async def test_lobby_errors(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, _b, room), WsClient.connect(server_url, "Cy") as c:
        await c.send("join-room", room="NOPE99")
        assert (await c.expect("error"))["code"] == "no-such-room"
        await c.send("join-room", room=room)
        assert (await c.expect("error"))["code"] == "room-full"
        await c.send("chat", text="hi")
        assert (await c.expect("error"))["code"] == "not-in-room"
        await c.send("create-room", game="gomoku", options={"size": 17})
        assert (await c.expect("error"))["code"] == "bad-message"
        await a.send("create-room", game="gomoku")
        assert (await a.expect("error"))["code"] == "already-in-room"
        await c.send("join-room", room=room, role="spectator")
        joined = await c.expect("joined")
        assert joined["role"] == "spectator" and "seat" not in joined
        assert (await c.expect("state"))["spectators"] == ["Cy"]


async def test_leaving_mid_game_forfeits_and_tells_the_room(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await b.send("leave-room", id=2)
        assert (await b.expect("left"))["re"] == 2
        over = await a.expect("game-over")
        assert over["result"]["winner"] == a.player
        assert (await a.expect("left"))["player"] == b.player
        await b.send("sync")
        assert (await b.expect("error"))["code"] == "not-in-room"


async def test_player_info_is_broadcast(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room):
        await a.send("player-info", name="Annie", color="teal")
        info = await b.expect("player-info")
        assert (info["player"], info["name"], info["color"]) == (a.player, "Annie", "teal")
        await b.send("sync")
        players = (await b.expect("state"))["players"]
        assert players[0]["name"] == "Annie" and players[0]["color"] == "teal"


async def test_chat_flood_is_rate_limited_but_normal_chat_is_not(make_server: Any) -> None:
    server = await make_server()
    async with gomoku_pair(url(server)) as (a, b, _room):
        for n in range(server.config.chat_lines):
            await a.send("chat", text=f"line {n}")
            await b.expect("chat", text=f"line {n}")
        await a.send("chat", text="one too many")
        err = await a.expect("error")
        assert err["code"] == "rate-limited" and "chat" in err["message"]
        await b.send("sync")  # anything the room sent b before comes first
        await b.expect("state")
        assert not [m for m in b.received if m.get("text") == "one too many"]


async def test_message_flood_is_rate_limited_and_normal_play_is_not(make_server: Any) -> None:
    server = await make_server(rate_per_second=5, rate_burst=10)
    async with gomoku_pair(url(server)) as (a, b, _room):
        for i in range(3):  # normal play: a few moves
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved")
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved")
        for n in range(30):  # (not sync: a sync past a limit waits, never refused)
            await a.send("list-rooms", id=n + 1)
        answers: dict[int, dict[str, Any]] = {}
        while len(answers) < 30:  # every request is answered: rooms, or why not
            msg = await a.recv()
            if msg["type"] in ("rooms", "error") and msg.get("re") in range(1, 31):
                answers[msg["re"]] = msg
        assert "rate-limited" in [m.get("code") for m in answers.values()]


async def test_caps_on_rooms_and_connections_answer_server_busy(make_server: Any) -> None:
    server = await make_server(max_rooms=1, max_connections=2)
    async with WsClient.connect(url(server), "Ann") as a, WsClient.connect(url(server), "Bob") as b:
        await a.send("create-room", game="gomoku")
        await a.expect("joined")
        await b.send("create-room", game="gomoku")
        assert (await b.expect("error"))["code"] == "server-busy"
        async with WsClient.connect(url(server)) as c:
            err = await c.recv()
            assert err["type"] == "error" and err["code"] == "server-busy"
            with pytest.raises(ConnectionClosed):
                await c.recv()


async def test_garbage_in_one_room_does_not_stall_another(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room), WsClient.connect(server_url, "Mal") as mal:
        await mal.send("create-room", game="gomoku")
        await mal.expect("joined")

        async def flood() -> None:
            for n in range(300):
                await mal.send_raw(os.urandom(n % 50 + 1))

        flooding = asyncio.create_task(flood())
        for i in range(4):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved")
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved")
        await a.send("move", move={"x": 4, "y": 0})
        assert (await b.expect("game-over"))["result"]["winner"] == a.player
        await flooding


async def test_reconnect_within_grace_takes_the_seat_back(make_server: Any) -> None:
    server = await make_server(grace_seconds=5)
    async with gomoku_pair(url(server)) as (a, b, room):
        await a.send("move", move={"x": 7, "y": 7})
        await b.expect("moved")
        await b.ws.close()
        info = await a.expect("player-info")
        assert info["player"] == b.player and info["connected"] is False
        async with WsClient.connect(url(server)) as b2:
            await b2.send("hello", protocol=1, name="Bob", token=b.token)
            welcome = await b2.expect("welcome")
            assert welcome["player"] == b.player
            state = await b2.expect("state")
            assert state["room"] == room and state["turn"] == b.player
            assert state["view"]["moves"] == [[7, 7]]
            back = await a.expect("player-info")
            assert back["connected"] is True
            await b2.send("move", move={"x": 8, "y": 8})
            assert (await a.expect("moved"))["by"] == b.player


async def test_a_player_who_does_not_return_loses_by_disconnect(make_server: Any) -> None:
    server = await make_server(grace_seconds=0.3)
    async with gomoku_pair(url(server)) as (a, b, _room):
        await b.ws.close()
        assert (await a.expect("player-info"))["connected"] is False
        over = await a.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "disconnect"
        left = await a.expect("left")
        assert left["player"] == b.player
    async with WsClient.connect(url(server)) as late:  # the token no longer takes a seat
        await late.send("hello", protocol=1, name="Bob", token=b.token)
        await late.expect("welcome")
        await late.send("sync")
        assert (await late.expect("error"))["code"] == "not-in-room"


async def test_a_second_connection_with_the_token_replaces_the_first(server_url: str) -> None:
    async with gomoku_pair(server_url) as (a, b, _room), WsClient.connect(server_url) as b2:
        await b2.send("hello", protocol=1, name="Bob", token=b.token)
        assert (await b2.expect("welcome"))["player"] == b.player
        await b2.expect("state")
        with pytest.raises(ConnectionClosed):
            while True:
                await b.recv()
        await a.send("move", move={"x": 1, "y": 1})
        assert (await b2.expect("moved"))["by"] == a.player


async def test_healthz_answers_for_container_health_checks(server: GameServer) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    status = await asyncio.wait_for(reader.readline(), 5)
    writer.close()
    assert status.startswith(b"HTTP/1.1 200")


async def test_sigterm_closes_clients_with_1012_and_leaves_a_consistent_database(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gridhall.server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(db),
            "--log-level",
            "WARNING",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = await asyncio.to_thread(proc.stdout.readline)
        port = int(line.rsplit(" ", 1)[1])
        async with gomoku_pair(f"ws://127.0.0.1:{port}/") as (a, b, room):
            await b.send("resign")
            await a.expect("game-over")
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as info:
                while True:
                    await a.recv()
            assert info.value.rcvd is not None and info.value.rcvd.code == 1012
            assert "restarting" in info.value.rcvd.reason
        assert await asyncio.to_thread(proc.wait, 10) == 0
    finally:
        proc.kill()
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert conn.execute("SELECT room FROM games").fetchall() == [(room,)]
    history = subprocess.run(
        [sys.executable, "-m", "gridhall.server", "history", "--db", str(db)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert room in history.stdout and "resign" in history.stdout


async def test_a_state_larger_than_64_kib_reaches_the_client(make_server: Any) -> None:
    server = await make_server(chat_lines=100)
    async with WsClient.connect(url(server), "Ann") as a:
        await a.send(
            "create-room", game="minesweeper", options={"width": 200, "height": 200, "mines": 10}
        )
        await a.expect("state")
        for n in range(50):
            await a.send("chat", text=f"{n:03d}" + "x" * 497)
            await a.expect("chat")
        await a.send("sync")
        state = await a.expect("state")
        assert len(a.frames[-1]) > 64 * 1024
        assert len(state["view"]["rows"]) == 200 and len(state["chat"]) == 50
