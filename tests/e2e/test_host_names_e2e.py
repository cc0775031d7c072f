"""DNS rebinding: the server answers only to the names it is known by. A page of an
attacker's site whose name points at this machine sends its own name as ``Host`` (and
as ``Origin``, so the two agree); from the player's own machine it must reach nothing:
no page, no game socket, no admin socket, no ``/metrics``. A real server on port 0,
raw HTTP and real WebSocket clients from loopback."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from gridhall.server import cli
from gridhall.server.core.origin import KnownHosts, host_name
from gridhall.server.io.lan.discovery import host_label
from gridhall.server.io.net.app import GameServer
from tests.wsclient import TIMEOUT, WsClient

EVIL = "rebind.evil.example"


async def request(server: GameServer, head: str) -> tuple[int, bytes]:
    """One raw HTTP/1.1 request head (without its final blank line); status and body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    writer.write(head.encode() + b"\r\n\r\n")
    data = await asyncio.wait_for(reader.read(), TIMEOUT)
    writer.close()
    status, _, body = data.partition(b"\r\n\r\n")
    return int(status.split()[1]), body


def get(path: str, host: str, *extra: str) -> str:
    return "\r\n".join([f"GET {path} HTTP/1.1", f"Host: {host}", *extra])


def upgrade(path: str, host: str, *extra: str) -> str:
    return get(
        path,
        host,
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        *extra,
    )


async def test_a_rebound_name_reaches_nothing_from_this_machine(make_server: Any) -> None:
    server: GameServer = await make_server(metrics=True, admin_token="t" * 32)
    host = f"{EVIL}:{server.port}"
    origin = f"Origin: http://{host}"
    for head in (
        get("/metrics", host),
        get("/metrics", host, "Authorization: Bearer " + "x" * 32),
        get("/", host, origin),
        get("/admin", host, origin),
        get("/healthz", host),
        get("/games.json", host, origin),
        upgrade("/", host, origin),
        upgrade("/admin", host, origin),
    ):
        status, body = await request(server, head)
        assert status == 421 and b"--server-name" in body, head
        assert b"gridhall_" not in body
    for url in (f"ws://{host}/", f"ws://{host}/admin"):  # a real client, its Host the name
        sock = socket.create_connection(("127.0.0.1", server.port))
        with pytest.raises(InvalidStatus) as info:
            async with connect(url, sock=sock, origin=f"http://{host}"):  # type: ignore[arg-type]
                pass
        assert info.value.response.status_code == 421


async def test_metrics_need_a_known_host_and_refuse_a_wrong_token_from_anywhere(
    make_server: Any,
) -> None:
    server: GameServer = await make_server(metrics=True, admin_token="t" * 32)
    here = f"127.0.0.1:{server.port}"
    assert (await request(server, get("/metrics", here)))[0] == 200
    wrong = "Authorization: Bearer " + "x" * 32
    status, body = await request(server, get("/metrics", here, wrong))
    assert status == 403 and b"gridhall_" not in body
    right = "Authorization: Bearer " + "t" * 32
    assert (await request(server, get("/metrics", here, right)))[0] == 200


async def test_every_spelling_of_a_known_name_is_answered(make_server: Any) -> None:
    server: GameServer = await make_server(server_names=("games.example.org",))
    port = server.port
    for host in (
        f"127.0.0.1:{port}",
        "127.0.0.1",
        f"[::1]:{port}",
        "[::1]",
        f"localhost:{port}",
        "LocalHost.",
        f"Games.Example.ORG.:{port}",
        "games.example.org:443",  # behind a proxy or a published port: any port
        f"{host_label()}.local:{port}",
        f"{socket.gethostname()}:{port}",
        f"10.20.30.40:{port}",  # an address cannot be rebound (NAT, a published port)
    ):
        assert (await request(server, get("/healthz", host)))[0] == 200, host
    for host in ("games.example.org.evil.example", "example.org", f"{EVIL}:{port}"):
        assert (await request(server, get("/healthz", host)))[0] == 421, host
    for head in (
        "GET /healthz HTTP/1.1",  # no Host
        get("/healthz", "127.0.0.1", "Host: 127.0.0.1"),  # two
        get("/healthz", "bad host!"),
        get("/healthz", "::1"),  # IPv6 without brackets
        get("/healthz", f"localhost:{port}0000"),
    ):
        assert (await request(server, head))[0] == 400, head


async def test_the_clients_and_a_named_server_still_connect(make_server: Any) -> None:
    server: GameServer = await make_server(server_names=("games.example.org",))
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        assert ann.player
    async with WsClient.connect(f"ws://localhost:{server.port}/", "Bob") as bob:
        assert bob.player  # the terminal and Tk clients' default host
    named = f"games.example.org:{server.port}"
    sock = socket.create_connection(("127.0.0.1", server.port))
    page = f"http://{named}"
    async with connect(f"ws://{named}/", sock=sock, origin=page) as ws:  # type: ignore[arg-type]
        client = WsClient(ws)
        assert (await client.hello("Cy"))["type"] == "welcome"


def test_host_names_are_read_in_one_spelling() -> None:
    assert host_name("Games.Example.ORG.:8765") == "games.example.org"
    assert host_name("[::1]:8765") == host_name("[0:0::1]") == "::1"
    assert host_name("127.0.0.1:1") == "127.0.0.1"
    for bad in (None, "", "::1", "a b", "x:99999", "x:port", "[nope]", "u@h", "h/x", "-a.b"):
        assert host_name(bad) is None, bad
    known = KnownHosts(["Game.LAN."])
    assert known.known("game.lan:80") and known.known("GAME.LAN") and known.known("localhost")
    assert not known.known("game.lan.evil.example") and not known.known("lan")


def test_server_names_come_from_the_command_line_and_the_settings_file(tmp_path: Any) -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["--server-name", "Games.Example.org.", "--server-name", "b.lan"])
    assert args.server_name == ["games.example.org", "b.lan"]
    for bad in ("games.example.org:8765", "http://games.example.org", "a b", ""):
        with pytest.raises(SystemExit):
            cli.build_parser().parse_args(["--server-name", bad])
    settings = tmp_path / "gridhall.toml"
    settings.write_text('server_name = ["hall.example.net"]\n')
    parsed = cli.settings_file.parse(cli.build_parser(), ["--config", str(settings)])
    assert parsed.args.server_name == ["hall.example.net"]
