"""The admin page's side of the server, end to end: a real server on port 0, the admin
channel and players over real WebSockets (players from other loopback addresses where
an address matters). Every wait is for an event, bounded only so that a broken server
fails instead of hanging."""

from __future__ import annotations

import asyncio
import logging
import socket
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from gridhall import protocol as p
from gridhall.server import cli
from gridhall.server.core import admin_access
from gridhall.server.io.admin import admin_channel
from gridhall.server.io.net import web
from gridhall.server.io.net.app import GameServer
from tests.e2e.test_handshake_e2e import closed_with
from tests.waiting import until
from tests.wsclient import WsClient

DEADLINE = 30.0
STATUS_KEYS = {
    "players",
    "connections",
    "spectators",
    "rooms",
    "rooms_by_game",
    "messages_per_second",
    "refusals",
    "commit_p50_ms",
    "commit_p99_ms",
    "worker_queue",
    "worker_busy",
    "memory_bytes",
    "database_bytes",
    "uptime_s",
}


def admin_url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/admin"


def game_url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


class Admin:
    """The admin channel as the page speaks it."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = 1

    async def send(self, **fields: Any) -> None:
        await self.ws.send(p.encode_map(fields))

    async def recv(self) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), DEADLINE)
        assert isinstance(frame, bytes)
        return p.decode_map(frame, p.MAX_SERVER_FRAME)

    async def expect(self, type_: str) -> dict[str, Any]:
        while True:
            msg = await self.recv()
            if msg["type"] == type_:
                return msg

    async def hello(self, token: str) -> dict[str, Any]:
        await self.send(type="admin-hello", token=token, id=1)
        return await self.recv()

    async def act(self, action: str, **fields: Any) -> dict[str, Any]:
        """Send one action; its answer (``admin-done`` or ``error``)."""
        self.ids += 1
        await self.send(type="admin", action=action, id=self.ids, **fields)
        while True:
            msg = await self.recv()
            if msg["type"] in ("admin-done", "error") and msg.get("re") == self.ids:
                return msg

    async def done(self, action: str, **fields: Any) -> dict[str, Any]:
        answer = await self.act(action, **fields)
        assert answer["type"] == "admin-done", answer
        assert answer["action"] == action
        return await self.expect("admin-status")  # a fresh one follows every action


@asynccontextmanager
async def admin(server: GameServer, token: str | None = None) -> AsyncIterator[Admin]:
    """A signed-in admin page (``token``: the server's own unless given)."""
    async with connect(admin_url(server), compression=None, max_size=None) as ws:
        page = Admin(ws)
        welcome = await page.hello(token or server.admin.token)
        assert welcome["type"] == "admin-welcome" and welcome["re"] == 1, welcome
        yield page


def bound(address: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    return sock


@asynccontextmanager
async def player_from(
    server: GameServer, address: str, name: str, token: str | None = None
) -> AsyncIterator[WsClient]:
    """A player whose connection comes from ``address`` (any of 127.0.0.0/8)."""
    sock = bound(address)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    async with connect(game_url(server), sock=sock, compression=None, max_size=None) as ws:
        client = WsClient(ws)
        await client.hello(name, token)
        yield client


async def http(server: GameServer, path: str, address: str = "127.0.0.1") -> tuple[int, bytes]:
    """One plain GET; the status and the body."""
    sock = bound(address)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = await asyncio.wait_for(reader.read(), DEADLINE)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def rows(db: str, sql: str, *args: Any) -> int:
    with sqlite3.connect(db) as conn:
        n: int = conn.execute(sql, args).fetchone()[0]
        return n


@pytest.fixture
def admin_page() -> Iterator[bytes]:
    """The packaged site with an admin page in it, whether or not the page is built."""
    assets = web.site().assets
    saved = assets.get("/admin.html")
    body = b"<!doctype html><title>gridhall admin</title>"
    assets["/admin.html"] = web._asset(body, "text/html; charset=utf-8")
    yield body
    if saved is None:
        del assets["/admin.html"]
    else:
        assets["/admin.html"] = saved


# -- getting in -----------------------------------------------------------------------


async def test_the_start_up_output_prints_the_admin_link_with_the_token(
    make_server: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    server: GameServer = await make_server(admin_token="a-fixed-token-for-the-test")
    cli.announce(server)
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "/admin" in ln]
    assert lines == [f"admin: http://127.0.0.1:{server.port}/admin#a-fixed-token-for-the-test"]


async def test_the_page_is_served_to_allowed_peers_and_hidden_from_others(
    make_server: Any, admin_page: bytes
) -> None:
    server: GameServer = await make_server()
    assert await http(server, "/admin") == (200, admin_page)
    server.admin.peer_allowed = lambda address: address == "127.0.0.2"  # type: ignore[method-assign]
    for path in ("/admin", "/admin.html", "/admin?x=1"):
        assert await http(server, path) == (404, b"not found\n")
    assert (await http(server, "/admin", "127.0.0.2"))[0] == 200
    with pytest.raises(InvalidStatus) as info:
        async with connect(admin_url(server)):
            pass
    assert info.value.response.status_code == 403


async def test_admin_from_lets_that_network_in(make_server: Any) -> None:
    settings = cli.settings_file.parse(cli.build_parser(), ["--admin-from", "127.0.0.0/8"])
    assert settings.args.admin_from == ["127.0.0.0/8"]
    server: GameServer = await make_server(admin_from=("192.168.7.0/24",))
    assert server.admin.peer_allowed("192.168.7.9") and not server.admin.peer_allowed("10.0.0.1")


async def test_no_token_or_a_wrong_one_is_refused_and_closed(make_server: Any) -> None:
    server: GameServer = await make_server()
    for hello in ({"type": "admin-hello", "id": 1}, {"type": 1, "token": "x", "id": 1}):
        async with connect(admin_url(server)) as ws:
            await ws.send(p.encode_map(hello))
            error = p.decode_map(await ws.recv())
            assert error["type"] == "error" and error["code"] == "bad-message", hello
            assert error["re"] == 1 and (await closed_with(ws))[0] == 1008
    async with connect(admin_url(server)) as ws:
        page = Admin(ws)
        error = await page.hello("not-the-token")
        assert error["type"] == "error" and error["code"] == "admin-refused"
        assert (await closed_with(ws))[0] == 1008
    async with connect(admin_url(server)) as ws:  # a game message is not a sign-in
        await ws.send(p.encode_map({"type": "hello", "protocol": 1, "name": "Ann"}))
        assert p.decode_map(await ws.recv())["code"] == "bad-message"
        assert (await closed_with(ws))[0] == 1008
    refused = [
        row for row in server.store.admin.recent_audit() if row["action"] == "sign-in-refused"
    ]
    assert len(refused) == 4


async def test_a_page_that_says_nothing_is_closed(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(admin_channel, "HELLO_TIMEOUT", 0.2)
    server: GameServer = await make_server()
    async with connect(admin_url(server)) as ws:
        code, reason = await closed_with(ws)
    assert code == 1008 and "admin-hello" in reason


@asynccontextmanager
async def admin_socket(server: GameServer, address: str = "127.0.0.1") -> AsyncIterator[Admin]:
    """An admin socket from ``address`` that has not signed in (yet)."""
    sock = bound(address)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    async with connect(admin_url(server), sock=sock, compression=None, max_size=None) as ws:
        yield Admin(ws)


async def test_wrong_tokens_never_hold_back_the_right_one(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(admin_access, "FAILURE_WAIT", 600.0)  # held for the whole test
    server: GameServer = await make_server()
    for _ in range(admin_access.FREE_FAILURES):  # the first few are answered at once
        async with admin_socket(server) as guesser:
            assert (await guesser.hello("guess"))["code"] == "admin-refused"
    async with admin_socket(server) as held:
        await held.send(type="admin-hello", token="guess", id=1)
        await until(lambda: len(server.admin_channel.held) == 1, "the wrong token held back")
        async with admin(server) as page:  # the right one, from the same address, at once
            assert (await page.expect("admin-status"))["figures"]
        assert len(server.admin_channel.held) == 1  # the wrong one still waits
    await until(lambda: len(server.admin_channel.held) == 0, "the guesser to be gone")


async def test_sockets_that_never_sign_in_never_lock_the_operator_out(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with AsyncExitStack() as idle:
        for n in range(16):  # eight from the operator's own address, eight from others
            await idle.enter_async_context(admin_socket(server, f"127.0.0.{1 + n % 2 * (n + 1)}"))
        await until(lambda: len(server.admin_channel.waiting) >= 2, "idle admin sockets")
        for _ in range(3):
            async with admin(server) as page:
                assert (await page.expect("admin-status"))["figures"]
        waiting = server.admin_channel.waiting
        assert waiting.by_address["127.0.0.1"] <= admin_channel.WAITING_PER_ADDRESS
        assert len(waiting) <= admin_channel.WAITING_CEILING


async def test_only_signed_in_pages_count_toward_the_pages_open(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with AsyncExitStack() as pages:
        for n in range(admin_channel.MAX_WAITING):  # as many silent sockets as may wait
            await pages.enter_async_context(admin_socket(server, f"127.0.0.{10 + n}"))
        for _ in range(admin_channel.MAX_ADMINS):  # every one of these signs in
            page = await pages.enter_async_context(admin(server))
            assert (await page.expect("admin-status"))["figures"]
        async with admin_socket(server) as one_more:
            await one_more.send(type="admin-hello", token=server.admin.token, id=1)
            code, reason = await closed_with(one_more.ws)
            assert code == 1013 and "too many" in reason
        assert len(server.admin_channel.signed_in) == admin_channel.MAX_ADMINS


async def test_a_signed_in_page_gets_the_status_and_bad_requests_change_nothing(
    make_server: Any,
) -> None:
    server: GameServer = await make_server()
    async with WsClient.connect(game_url(server), "Ann") as ann, admin(server) as page:
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        status = await page.expect("admin-status")
        while not status["rooms"]:  # the page's status may predate the room
            status = await page.expect("admin-status")
        assert set(status["figures"]) == STATUS_KEYS
        assert status["figures"]["rooms"] == 1 and status["figures"]["players"] == 1
        assert status["figures"]["rooms_by_game"] == {"gomoku": 1}
        [line] = status["rooms"]
        assert line["room"] == room and line["game"] == "gomoku" and line["host"] == "Ann"
        assert line["members"] == [
            {
                "player": ann.player,
                "name": "Ann",
                "role": "player",
                "bot": None,
                "connected": True,
                "address": "127.0.0.1",
            }
        ]
        assert status["players"] == [
            {"player": ann.player, "name": "Ann", "address": "127.0.0.1", "room": room}
        ]
        keys = {s["key"] for s in status["settings"]}
        assert {"chat_days", "max_rooms"} <= keys
        assert all(s["value"] != server.admin.token for s in status["settings"])
        assert status["retention"]["chat_days"] == 30.0
        for fields in (
            {"action": "explode"},
            {"action": "close-room"},
            {"action": "close-room", "room": 7},
            {"action": "ban", "address": "127.0.0.9", "player": ann.player, "minutes": 5},
            {"action": "ban", "address": "not an address", "minutes": 5},
            {"action": "ban", "address": "127.0.0.9", "minutes": 0},
            {"action": "announce", "text": ""},
            {"action": "announce", "text": "x" * 501},
            {"action": "announce", "text": "bell\x07"},
            {"action": "retention", "settings": {"max_rooms": 3}},
            {"action": "retention", "settings": {"chat_days": -1}},
            {"action": "retention", "settings": {"chat_rows": 10**19}},
            {"action": "retention", "settings": {"chat_days": True}},
            {"action": "retention", "settings": {"games_mb": "7"}},
            {"action": "retention", "settings": [1]},
            {"action": "ban", "player": ["x"], "minutes": 5},
            {"action": "close-room", "room": room, "reason": {"a": 1}},
            {"action": None},
            {"action": ["close-room"]},
            {"action": "unban", "ban": True},
            {"action": "unban", "ban": 99},
        ):
            answer = await page.act(**fields)
            assert answer["type"] == "error" and answer["code"] == "bad-message", fields
        assert (await page.act("close-room", room="NOROOM"))["code"] == "no-such-room"
        assert (await page.act("remove-player", player="p00000000"))["code"] == "no-such-player"
        await page.ws.send(b"\xc1not msgpack")
        assert (await page.expect("error"))["code"] == "bad-message"
        await page.ws.send(p.encode_map({"type": "hello", "id": 77}))
        assert (await page.expect("error"))["re"] == 77
        for odd in (  # whatever its shape, a request with an id is answered with its re
            {"type": 5, "action": "announce", "text": "x", "id": 78},
            {"type": "admin", "action": "retention", "settings": {1: 2}, "id": 79},
            {"type": "admin", 7: "seven", "action": "announce", "text": "x", "id": 80},
        ):
            await page.ws.send(p.encode_map(odd))
            answer = await page.expect("error")
            assert answer["code"] == "bad-message" and answer["re"] == odd["id"], odd
        status = await page.done("announce", text="still here")  # the socket still works
        assert status["rooms"][0]["room"] == room and status["bans"] == []
        assert server.config.chat_days == 30.0


# -- actions --------------------------------------------------------------------------


async def test_closing_a_room_tells_its_members_why_and_drops_it(make_server: Any) -> None:
    server: GameServer = await make_server()
    url = game_url(server)
    async with (
        WsClient.connect(url, "Ann") as ann,
        WsClient.connect(url, "Bob") as bob,
        admin(server) as page,
    ):
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        await bob.send("join-room", room=room, role="spectator")
        await bob.expect("state")
        status = await page.done("close-room", room=room.lower(), reason="closing time")
        for client in (ann, bob):
            closed = await client.expect("room-closed")
            assert closed == {
                "type": "room-closed",
                "room": room,
                "seq": closed["seq"],
                "reason": "closing time",
            }
            left = await client.recv()
            assert left["type"] == "left" and left["player"] == client.player
            assert left["reason"] == "closed" and left["seq"] == closed["seq"]
        assert status["rooms"] == [] and room not in server.hub.lobby.rooms
        assert rows(server.config.db, "SELECT COUNT(*) FROM rooms WHERE code = ?", room) == 0
        await ann.send("create-room", game="gomoku", id=5)  # back in the lobby
        assert (await ann.expect("joined"))["re"] == 5
    audit = server.store.admin.recent_audit()
    assert audit[0]["action"] == "close-room" and audit[0]["detail"]["room"] == room


async def test_removing_a_player_closes_their_connection_and_they_leave(make_server: Any) -> None:
    server: GameServer = await make_server()
    url = game_url(server)
    async with (
        WsClient.connect(url, "Ann") as ann,
        WsClient.connect(url, "Bob") as bob,
        admin(server) as page,
    ):
        await ann.send("create-room", game="gomoku")
        room = (await ann.expect("joined"))["room"]
        await bob.send("join-room", room=room)
        await bob.expect("state", status="playing")
        await page.done("remove-player", player=bob.player, reason="spam")
        code, reason = await closed_with(bob.ws)
        assert (code, reason) == (1008, "removed by the server's operator: spam")
        assert (await ann.expect("game-over"))["result"]["winner"] == ann.player  # forfeit
        assert (await ann.expect("left"))["player"] == bob.player
    assert server.store.admin.recent_audit()[0]["detail"]["player"] == bob.player


async def test_a_banned_address_is_refused_at_the_handshake_and_on_the_page(
    make_server: Any,
) -> None:
    server: GameServer = await make_server()
    async with (
        player_from(server, "127.0.0.2", "Eve") as eve,
        player_from(server, "127.0.0.3", "Ann") as ann,
        admin(server) as page,
    ):
        status = await page.done("ban", address="127.0.0.2", minutes=60, reason="spam")
        [ban] = status["bans"]
        assert ban["address"] == "127.0.0.2" and ban["reason"] == "spam"
        assert (await closed_with(eve.ws))[0] == 1008  # connected: removed now
        await ann.send("list-rooms", id=3)
        assert (await ann.expect("rooms"))["re"] == 3  # another address is unaffected
    with pytest.raises(InvalidStatus) as info:
        async with player_from(server, "127.0.0.2", "Eve"):
            pass
    response = info.value.response
    assert response.status_code == 403
    assert response.body.startswith(b"banned from this server until ")
    assert response.body.rstrip().endswith(b": spam")
    status_code, body = await http(server, "/", "127.0.0.2")
    assert status_code == 403 and body.startswith(b"banned from this server until ")
    assert (await http(server, "/", "127.0.0.3"))[0] == 200


async def test_a_banned_player_is_refused_at_hello_even_after_a_restart(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with WsClient.connect(game_url(server), "Eve") as eve, admin(server) as page:
        token, player = eve.token, eve.player
        status = await page.done("ban", player=player, minutes=30)
        assert status["bans"][0]["player"] == player and status["bans"][0]["name"] == "Eve"
        assert (await closed_with(eve.ws))[0] == 1008
    await server.close()

    server = await make_server()
    async with connect(game_url(server)) as ws:
        await ws.send(
            p.encode_map({"type": "hello", "protocol": 1, "name": "Eve", "token": token, "id": 4})
        )
        error = p.decode_map(await ws.recv())
        assert error["type"] == "error" and error["code"] == "banned" and error["re"] == 4
        assert "banned from this server until" in error["message"]
        assert 0 < error["retry_after"] <= 30 * 60
        assert (await closed_with(ws))[0] == 1008
    async with WsClient.connect(game_url(server), "Eve"):  # without the token: a stranger
        pass
    async with admin(server) as page:
        [ban] = (await page.expect("admin-status"))["bans"]
        await page.done("unban", ban=ban["ban"])
    async with WsClient.connect(game_url(server), "Eve", token) as again:
        assert again.player == player


async def test_a_server_stopping_closes_an_open_admin_page_too(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with admin(server) as page:
        closing = asyncio.ensure_future(server.close())
        code, reason = await closed_with(page.ws)
        assert code == 1012 and "restarting" in reason
        await asyncio.wait_for(closing, DEADLINE)


async def test_an_announcement_reaches_every_connected_client(
    make_server: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "gridhall.admin")
    server: GameServer = await make_server()
    url = game_url(server)
    async with (
        WsClient.connect(url, "Ann") as ann,
        WsClient.connect(url, "Bob") as bob,
        admin(server) as page,
    ):
        await ann.send("create-room", game="gomoku")
        await ann.expect("state")
        await page.done("announce", text="  Server restarts at noon <b>!</b>  ")
        for client in (ann, bob):
            said = await client.expect("announce")
            assert said["text"] == "Server restarts at noon <b>!</b>" and said["ts"] > 0
    assert server.store.admin.recent_audit()[0]["detail"]["to"] == 2
    said = [r.getMessage() for r in caplog.records if r.name == "gridhall.admin"]
    assert any(line.startswith("admin announce from 127.0.0.1: ") for line in said)


async def test_retention_changes_apply_now_and_survive_a_restart(make_server: Any) -> None:
    server: GameServer = await make_server()
    async with admin(server) as page:
        status = await page.done("retention", settings={"chat_rows_per_room": 7, "games_days": 10})
        assert status["retention"]["chat_rows_per_room"] == 7
        assert {"key": "games_days", "value": 10.0, "source": "admin page"} in status["settings"]
    assert server.store.pruner.limits.chat_rows_per_room == 7
    assert server.store.pruner.limits.games_days == 10.0
    await server.close()

    server = await make_server()
    assert server.config.chat_rows_per_room == 7 and server.config.games_days == 10.0
    assert server.store.pruner.limits.chat_rows_per_room == 7
    audit = server.store.admin.recent_audit()
    assert [row["action"] for row in audit[:2]] == ["retention", "sign-in"]
