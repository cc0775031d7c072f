"""The game socket's own frame paths: frames handed to the session straight from the
socket's reads (``GuardedConnection.on_frame``) and frames written without websockets'
``send_binary`` (``connection.binary_frame``) keep the protocol's order and bytes."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.frames import Frame, Opcode

from gridhall import protocol as p
from gridhall.server.io.net import web
from gridhall.server.io.net.connection import binary_frame
from tests.waiting import until
from tests.wsclient import WsClient


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_frame_written_by_hand_is_the_frame_websockets_would_write(size: int) -> None:
    payload = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
    assert binary_frame(payload) == Frame(Opcode.BINARY, payload).serialize(
        mask=False, extensions=[]
    )


def masked(*frames: Frame) -> bytes:
    """Client frames (masked), back to back, to be written in one go."""
    return b"".join(f.serialize(mask=True, extensions=[]) for f in frames)


def listing(n: int) -> Frame:
    return Frame(Opcode.BINARY, p.encode_map({"type": "list-rooms", "id": n}))


async def test_frames_arriving_in_one_read_are_answered_in_order(server_url: str) -> None:
    """Many frames in one TCP write: the first is handed over from the read itself, the
    rest wait for the handler task; a text frame and a ping in between take websockets'
    own path. Every request is answered, in the order sent."""
    async with WsClient.connect(server_url, "Ann") as ann:
        assert ann.ws.transport is not None
        text = Frame(Opcode.TEXT, b"not msgpack")
        burst = [listing(1), listing(2), text, Frame(Opcode.PING, b"hi"), listing(3)]
        burst += [listing(n) for n in range(4, 40)]
        ann.ws.transport.write(masked(*burst))
        answers: list[Any] = []
        while len(answers) < 40:
            msg = await ann.recv()
            if msg["type"] == "rooms":
                answers.append(msg["re"])
            elif msg["type"] == "error":
                answers.append("error")
        assert answers == [1, 2, "error", *range(3, 40)]
        # the next single frames take the direct path again
        for n in (100, 101):
            await ann.send("list-rooms", id=n)
            assert (await ann.expect("rooms"))["re"] == n


async def test_a_connection_closed_by_a_frame_reads_no_more(make_server: Any) -> None:
    """A frame that gets its connection closed (past the bad-frame limit) is the last
    one the session handles, however many came in the same read; the server then
    forgets the connection at once, as it did when its handler task read every frame."""
    server = await make_server(max_bad_messages=1)
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        assert ann.ws.transport is not None
        bad = Frame(Opcode.BINARY, b"\xc1")  # never valid MessagePack
        ann.ws.transport.write(masked(bad))  # the first is refused, the second closes
        await ann.expect("error", code="bad-message")
        ann.ws.transport.write(masked(bad, listing(7)))
        await ann.ws.wait_closed()
        assert ann.ws.close_code == 1008
        assert not any(m.get("re") == 7 for m in ann.received)
        await until(lambda: not server.connections, "the server forgot the connection")


async def test_a_game_connection_never_reads_the_browser_site(server_url: str) -> None:
    """The browser client's files and catalogs are read at the first page asked for,
    not at the first game connection: a server only game clients reach never spends
    the event loop's time and the memory on them."""
    before = web.site.cache_info()
    async with WsClient.connect(server_url, "Ann") as ann:
        await ann.send("list-rooms", id=1)
        await ann.expect("rooms")
    after = web.site.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses)


async def test_a_frame_larger_than_one_read_is_answered(server_url: str) -> None:
    """A frame near the 64 KiB limit takes more than one of the transport's reads (they
    are 64 KiB, ``handshake.READ_SIZE``): it is put together and answered, not cut."""
    async with WsClient.connect(server_url, "Ann") as ann:
        frame = p.encode_map({"type": "list-rooms", "id": 5, "pad": "x" * (p.MAX_FRAME - 64)})
        assert p.MAX_FRAME - 64 < len(frame) <= p.MAX_FRAME
        await ann.send_raw(frame)
        answer = await ann.recv()
        assert answer.get("re") == 5 and answer["type"] in ("rooms", "error")
        await ann.send("list-rooms", id=6)
        assert (await ann.expect("rooms"))["re"] == 6


def server_side(server: Any) -> Any:
    """The server's websockets connection of its one game connection."""
    (conn,) = server.connections
    return conn.ws


async def test_a_read_of_one_whole_frame_skips_websockets_parser(make_server: Any) -> None:
    """A move arrives alone in its read: its payload goes to the session without
    websockets' parser (``GuardedConnection._whole_frame``); reads that are not one
    whole binary frame (two frames, a frame in two reads, a short header) still take
    the parser, and every request is answered in order."""
    server = await make_server()
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        assert ann.ws.transport is not None
        protocol = server_side(server).protocol
        parsed: list[int] = []
        receive = protocol.receive_data
        protocol.receive_data = lambda data: (parsed.append(len(data)), receive(data))[1]
        for n in (1, 2):
            await ann.send("list-rooms", id=n)
            assert (await ann.expect("rooms"))["re"] == n
        big = p.encode_map({"type": "list-rooms", "id": 3, "pad": "x" * 300})  # 126-form
        await ann.send_raw(big)
        assert (await ann.expect("rooms"))["re"] == 3
        assert parsed == []
        ann.ws.transport.write(masked(listing(4), listing(5)))
        for n in (4, 5):
            assert (await ann.expect("rooms"))["re"] == n
        whole = masked(listing(6))
        ann.ws.transport.write(whole[:3])
        await until(lambda: len(parsed) >= 2, "the first part of a frame was read")
        ann.ws.transport.write(whole[3:])
        assert (await ann.expect("rooms"))["re"] == 6
        assert len(parsed) == 3


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        # a client's frame must be masked: the same bytes, unmasked
        ([Frame(Opcode.BINARY, b"\x81\xa4type\xaalist-rooms")], 1002),
        # a whole binary frame while a fragmented message is under way
        ([Frame(Opcode.BINARY, b"\x81", fin=False), listing(1)], 1002),
    ],
    ids=["unmasked", "inside-a-fragmented-message"],
)
async def test_a_lone_frame_the_protocol_forbids_closes_the_connection(
    make_server: Any, frames: list[Frame], code: int
) -> None:
    """Frames that look like a move but break the WebSocket protocol are not handed to
    the session by the shortcut: websockets refuses them as it always did."""
    server = await make_server()
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        assert ann.ws.transport is not None
        for n, frame in enumerate(frames):
            if n:
                await until(
                    lambda: server_side(server).protocol.current_size is not None, "a fragment"
                )
            mask = not (len(frames) == 1)
            ann.ws.transport.write(frame.serialize(mask=mask, extensions=[]))
        await ann.ws.wait_closed()
        assert ann.ws.close_code == code
        assert not any(m.get("type") == "rooms" for m in ann.received)
