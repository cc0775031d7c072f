"""Before ``hello``: sockets that never finish the handshake, connections that never
say hello, pages from other sites, and the HTTP methods the game port answers.
A real server on port 0; raw sockets through asyncio streams where the handshake
itself is the attack. Every wait is for an event (the server closing a socket),
bounded only so that a broken server fails instead of hanging."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from gridhall import protocol as p
from gridhall.server.io.net.app import GameServer
from tests.waiting import until
from tests.wsclient import WsClient

DEADLINE = 30.0
"""Far beyond every limit under test: reaching it means the server never acted."""

REQUEST_LINE = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def raw(
    server: GameServer, address: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection to the server from ``address`` (any of 127.0.0.0/8)."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    return await asyncio.open_connection(sock=sock)


async def cut(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the socket (b"" after a reset)."""
    try:
        return await asyncio.wait_for(reader.read(), DEADLINE)
    except ConnectionResetError:
        return b""


@asynccontextmanager
async def ws_from(
    server: GameServer, address: str, **kwargs: Any
) -> AsyncIterator[ClientConnection]:
    """A WebSocket connection from ``address``."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    async with connect(url(server), sock=sock, compression=None, max_size=None, **kwargs) as ws:
        yield ws


async def closed_with(ws: ClientConnection) -> tuple[int, str]:
    """The close code and reason the server ends ``ws`` with."""
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await asyncio.wait_for(ws.recv(), DEADLINE)
    assert info.value.rcvd is not None, "closed without a close frame"
    return info.value.rcvd.code, info.value.rcvd.reason


async def say_hello(ws: ClientConnection, name: str) -> dict[str, Any]:
    await ws.send(p.encode_map({"type": "hello", "protocol": 1, "name": name}))
    while True:
        msg = p.decode_map(await asyncio.wait_for(ws.recv(), DEADLINE), p.MAX_SERVER_FRAME)
        if msg["type"] in ("welcome", "error"):
            return msg


# -- sockets before the handshake ------------------------------------------------------


async def test_a_request_head_past_the_byte_limit_is_cut_before_the_timeout(
    make_server: Any,
) -> None:
    server = await make_server(max_request_head=4096, handshake_timeout=600.0)
    reader, writer = await raw(server)
    try:
        writer.write(REQUEST_LINE)
        for n in range(64):  # 64 KiB of headers, never ending the head
            writer.write(f"X-Pad-{n}: {'a' * 1000}\r\n".encode())
        await writer.drain()
    except ConnectionError:
        pass  # cut while still sending: what the test wants
    assert await cut(reader) == b""
    await until(lambda: len(server.handshakes.gate) == 0, "the socket to leave the gate")
    async with WsClient.connect(url(server), "Ann") as ann:  # the server still serves
        assert ann.player


async def test_slow_sockets_from_one_address_are_capped_and_a_new_player_connects(
    make_server: Any,
) -> None:
    server = await make_server(max_handshakes_per_address=3, handshake_timeout=600.0)
    async with AsyncExitStack() as stack:
        readers = []
        for _ in range(6):
            reader, writer = await raw(server, "127.0.0.2")
            stack.callback(writer.close)
            writer.write(b"GET / HTTP/1.1\r\n")  # and never more
            readers.append(reader)
        reads = [asyncio.create_task(cut(r)) for r in readers]
        done: set[asyncio.Task[bytes]] = set()
        while len(done) < 3:
            finished, _ = await asyncio.wait(set(reads) - done, return_when=asyncio.FIRST_COMPLETED)
            done |= finished
        assert [t.result() for t in done] == [b""] * len(done)
        assert server.handshakes.gate.by_address["127.0.0.2"] == 3
        async with WsClient.connect(url(server), "Ann") as ann:
            assert ann.player
        for task in reads:
            task.cancel()


async def test_past_the_total_the_oldest_pending_socket_makes_room(make_server: Any) -> None:
    server = await make_server(
        max_handshakes=2, max_handshakes_per_address=2, handshake_timeout=600.0, handshake_grace=0.0
    )
    oldest, first_writer = await raw(server, "127.0.0.2")
    first_writer.write(b"GET / HTTP/1.1\r\n")
    await until(lambda: len(server.handshakes.gate) == 1, "the first socket to wait")
    _, second_writer = await raw(server, "127.0.0.3")
    await until(lambda: len(server.handshakes.gate) == 2, "the second socket to wait")
    async with WsClient.connect(url(server), "Ann") as ann:
        assert ann.player
    assert await cut(oldest) == b""
    first_writer.close()
    second_writer.close()


async def test_the_server_raises_its_open_files_limit_and_fits_its_caps_to_it(
    make_server: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gridhall.server.io.runtime import fdlimit

    limits = {"now": (256, 4096)}

    class FakeResource:
        RLIMIT_NOFILE = 7
        RLIM_INFINITY = -1

        @staticmethod
        def getrlimit(which: int) -> tuple[int, int]:
            return limits["now"]

        @staticmethod
        def setrlimit(which: int, value: tuple[int, int]) -> None:
            limits["now"] = value

    monkeypatch.setattr(fdlimit, "resource", FakeResource)
    server = await make_server(max_connections=5000, max_handshakes=5000, fd_reserve=64)
    assert limits["now"] == (4096, 4096)
    total = server.handshakes.gate.total + server.max_connections
    assert total <= 4096 - 64 and server.max_connections >= 500
    async with WsClient.connect(url(server), "Ann") as ann:
        assert ann.player


async def test_a_burst_of_connects_fits_in_the_kernels_queue(make_server: Any) -> None:
    """Connects complete in the kernel's accept queue before the server's loop gets
    to accept them: a burst of 300 (asyncio's own queue is 100) all complete, none
    waits for a dropped SYN to be sent again."""
    server = await make_server(listen_backlog=512)
    burst = []
    try:
        for _ in range(300):  # the loop runs nothing meanwhile: nothing is accepted
            sock = socket.socket()
            burst.append(sock)
            sock.bind(("127.0.0.5", 0))
            sock.settimeout(10.0)  # a dropped SYN is sent again after 1 s, 3 s, ...
            sock.connect(("127.0.0.1", server.port))
    finally:
        for sock in burst:
            sock.close()
    async with WsClient.connect(url(server), "Ann") as ann:
        assert ann.player


# -- connections before hello -------------------------------------------------------------


async def test_a_connection_that_never_says_hello_is_closed_with_a_reason(make_server: Any) -> None:
    server = await make_server(hello_timeout=0.05)
    async with ws_from(server, "127.0.0.2") as idle:
        code, reason = await closed_with(idle)
    assert code == 1008 and "hello" in reason and "valid hello" in reason
    await server.close()
    # Saying hello in time is fine: on a server whose deadline a loaded machine cannot
    # miss (50 ms is shorter than a busy test's connect and hello; issue 40).
    server = await make_server(hello_timeout=600.0)
    async with WsClient.connect(url(server), "Ann") as ann:
        assert len(server.unwelcomed) == 0  # out of the gate before its welcome was sent
        await ann.send("list-rooms", id=1)
        assert (await ann.expect("rooms"))["re"] == 1


async def test_a_refused_hello_does_not_count_as_one(make_server: Any) -> None:
    """A refused hello leaves the connection where it was: among those that have not
    said hello (so its deadline stands, and the next from its address is refused
    while it waits), whatever the clock (a 1 s deadline once came first; issue 40)."""
    server = await make_server(max_unwelcomed_per_address=1, hello_timeout=600.0)
    async with ws_from(server, "127.0.0.2") as ws:
        assert (await say_hello(ws, "Computer (hard)"))["type"] == "error"
        assert len(server.unwelcomed) == 1
        with pytest.raises(InvalidStatus) as info:
            async with ws_from(server, "127.0.0.2"):
                pass
        assert info.value.response.status_code == 429
        assert (await say_hello(ws, "Ann"))["type"] == "welcome"  # a valid one counts
        assert len(server.unwelcomed) == 0


async def test_idle_connections_from_one_address_are_capped_and_others_still_join(
    make_server: Any,
) -> None:
    server = await make_server(max_unwelcomed_per_address=2, hello_timeout=600.0)
    async with ws_from(server, "127.0.0.2"), ws_from(server, "127.0.0.2"):
        await until(lambda: len(server.unwelcomed) == 2, "both idle connections")
        with pytest.raises(InvalidStatus) as info:
            async with ws_from(server, "127.0.0.2"):
                pass
        response = info.value.response
        assert response.status_code == 429 and b"hello" in response.body
        assert int(response.headers["Retry-After"]) >= 1
        async with ws_from(server, "127.0.0.3") as other:
            assert (await say_hello(other, "Ann"))["type"] == "welcome"


@pytest.mark.parametrize(
    "full",
    [
        {"max_unwelcomed": 2, "max_unwelcomed_per_address": 2},  # past the total waiting
        {"max_connections": 2},  # every connection place taken
    ],
)
async def test_the_oldest_idle_connection_makes_room_for_a_newcomer(
    make_server: Any, full: dict[str, int]
) -> None:
    server = await make_server(hello_timeout=600.0, unwelcomed_idle=0.0, **full)
    async with ws_from(server, "127.0.0.2") as oldest, ws_from(server, "127.0.0.3"):
        await until(lambda: len(server.unwelcomed) == 2, "both idle connections")
        async with ws_from(server, "127.0.0.4") as newcomer:
            assert (await say_hello(newcomer, "Ann"))["type"] == "welcome"
        code, reason = await closed_with(oldest)
        assert code == 1008 and "hello" in reason


def masked_frame(payload: bytes) -> bytes:
    """One binary WebSocket frame as a client sends it (masked; payload < 126 bytes)."""
    key = b"\x01\x02\x03\x04"
    body = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
    return bytes([0x82, 0x80 | len(payload)]) + key + body


async def test_a_connection_whose_hello_is_on_its_way_is_never_evicted(
    make_server: Any,
) -> None:
    server = await make_server(max_unwelcomed=1, hello_timeout=600.0, unwelcomed_idle=0.0)
    async with ws_from(server, "127.0.0.2") as slow:
        await until(lambda: len(server.unwelcomed) == 1, "the first connection")
        hello = masked_frame(p.encode_map({"type": "hello", "protocol": 1, "name": "Slow"}))
        slow.transport.write(hello[:3])  # its hello has begun to arrive, not yet whole
        await until(lambda: any(c.ws.heard for c in server.unwelcomed.quiet), "bytes to land")
        async with ws_from(server, "127.0.0.3") as newcomer:  # the gate is full
            assert (await say_hello(newcomer, "Ann"))["type"] == "welcome"
        assert len(server.unwelcomed) == 1, "the connection whose hello was on its way was cut"
        slow.transport.write(hello[3:])
        welcome = p.decode_map(await asyncio.wait_for(slow.recv(), DEADLINE), p.MAX_SERVER_FRAME)
        assert welcome["type"] == "welcome" and welcome["name"] == "Slow"


# -- other origins ----------------------------------------------------------------------------


async def test_a_page_from_another_site_is_refused_with_403(make_server: Any) -> None:
    server = await make_server()
    with pytest.raises(InvalidStatus) as info:
        async with connect(url(server), origin="http://evil.example"):  # type: ignore[arg-type]
            pass
    response = info.value.response
    assert response.status_code == 403 and b"own web page" in response.body
    with pytest.raises(InvalidStatus):  # same host, another port: another site
        async with connect(url(server), origin="http://127.0.0.1:1"):  # type: ignore[arg-type]
            pass


async def test_the_servers_own_page_and_listed_origins_connect(make_server: Any) -> None:
    server = await make_server(allow_origins=("http://games.example:8080",))
    own = f"http://127.0.0.1:{server.port}"
    for page in (own, "http://games.example:8080"):
        async with connect(url(server), origin=page) as ws:  # type: ignore[arg-type]
            assert (await say_hello(ws, "Ann"))["type"] == "welcome"
    with pytest.raises(InvalidStatus):
        async with connect(url(server), origin="http://games.example:8081"):  # type: ignore[arg-type]
            pass


# -- HTTP methods and headers ----------------------------------------------------------------


async def http(
    server: GameServer, method: str, path: str = "/"
) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 request; the server closes the connection after answering."""
    reader, writer = await raw(server)
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    data = await cut(reader)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines)}
    return int(status_line.split()[1]), fields, body


async def test_head_answers_the_headers_of_get_without_a_body(make_server: Any) -> None:
    server = await make_server()
    _, get_headers, page = await http(server, "GET")
    status, headers, body = await http(server, "HEAD")
    assert status == 200 and body == b""
    assert int(headers["content-length"]) == len(page) == int(get_headers["content-length"])
    assert headers["etag"] == get_headers["etag"]
    status, headers, body = await http(server, "HEAD", "/healthz")
    assert status == 200 and body == b"" and headers["content-length"] == "3"


@pytest.mark.parametrize("method", ["DELETE", "TRACE", "OPTIONS", "POST", "PUT", "PATCH"])
async def test_other_methods_get_405_with_allow(make_server: Any, method: str) -> None:
    server = await make_server()
    for path in ("/", "/healthz"):
        status, headers, body = await http(server, method, path)
        assert status == 405 and headers["allow"] == "GET, HEAD"
        assert b"<html" not in body.lower()


async def test_the_server_header_names_no_versions(make_server: Any) -> None:
    server = await make_server()
    for method, path in (("GET", "/"), ("GET", "/healthz"), ("DELETE", "/")):
        _, headers, _ = await http(server, method, path)
        assert headers["server"] == "gridhall"
    async with connect(url(server)) as ws:
        assert ws.response is not None and ws.response.headers["Server"] == "gridhall"
