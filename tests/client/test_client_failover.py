"""Clients of a cluster: when their node is gone they try the next one named in
``welcome.nodes`` (say ``hello`` there with their token), come back to a restarted
node's room by token, and give up with a clear status after a bounded number of rounds."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.client.failover import MAX_NODES, Route, gave_up_text, node_addresses
from gridhall.client.messages import Connection, Event
from gridhall.client.session import Session
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.client.test_client_session import FAST, gomoku_pair
from tests.conftest import url_of
from tests.waiting import WAIT, until


async def start(db: Path, port: int = 0, peers: tuple[str, ...] = ()) -> GameServer:
    server = GameServer(ServerConfig(host="127.0.0.1", port=port, db=str(db), peers=peers))
    await server.start()
    return server


@pytest.fixture
def dead_address() -> Iterator[str]:
    """A loopback address nobody listens on (the port is held, bound but not listening,
    so connecting is refused at once and nothing else can take it)."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        yield f"ws://127.0.0.1:{held.getsockname()[1]}/"


@asynccontextmanager
async def session(
    url: str,
    name: str,
    rounds: int = 10_000,
    keep_token: Callable[[str], None] | None = None,
) -> AsyncIterator[tuple[Session, list[Event]]]:
    """A connected session (trying a cluster's nodes ``rounds`` rounds) and what it saw."""
    s = Session(url, name, backoff=FAST, rounds=rounds, keep_token=keep_token)
    seen: list[Event] = []
    s.add_listener(seen.append)
    task = asyncio.create_task(s.run())
    try:
        await until(lambda: s.connected)
        yield s, seen
    finally:
        await s.close()
        await asyncio.wait_for(task, WAIT)


def statuses(seen: list[Event], status: str) -> list[Connection]:
    return [m for m in seen if isinstance(m, Connection) and m.status == status]


async def test_a_client_goes_to_the_next_node_when_its_node_is_gone(tmp_path: Path) -> None:
    b = await start(tmp_path / "b.db")
    a = await start(tmp_path / "a.db", peers=(url_of(b),))
    url_a, url_b = url_of(a), url_of(b)
    b.hub.nodes.peers = (url_a,)  # given each other, as --peer would
    kept: list[str] = []
    try:
        async with session(url_a, "ann", keep_token=kept.append) as (ann, seen):
            assert ann.nodes == [url_a, url_b] and "cluster" in ann.features
            ann.submit("create-room", game="gomoku", options={"size": 15})
            await until(lambda: ann.state is not None)
            await a.close()
            await until(lambda: ann.connected and ann.url == url_b)
            tried = [m.address for m in statuses(seen, "connecting")]
            assert tried[-2:] == [url_a, url_b]  # its own node first, then the next
            assert ann.nodes == [url_b, url_a]
            # b never heard of ann's token: a new player there, in its lobby, not in a room
            assert ann.room is None
            held = [i for i in b.hub.identities.by_id.values() if i.connected]
            assert [(i.id, i.name) for i in held] == [(ann.player, "ann")]
            # the token kept on disk for a's address stays a's (b's would not seat us there)
            assert set(kept) == {kept[0]} and ann.token != kept[0]
            ann.submit(p.ListRooms())
            await until(lambda: any(isinstance(m, p.Rooms) for m in seen))
    finally:
        await a.close()
        await b.close()


async def test_a_restarted_node_gives_the_room_back_by_token(
    tmp_path: Path, dead_address: str
) -> None:
    a = await start(tmp_path / "a.db", peers=(dead_address,))
    port = a.port
    try:
        async with session(url_of(a), "ann") as (ann, seen), session(url_of(a), "bob") as (bob, _):
            await gomoku_pair(ann, bob)
            ann.submit(p.Move(move={"x": 7, "y": 7}))
            await until(lambda: bob.state is not None and bob.state.view["moves"] == [[7, 7]])
            code, me = ann.room.room if ann.room else "", ann.player
            await a.close()
            # while it is down the client goes round: its node, then the other (dead) one
            await until(
                lambda: any(m.address == dead_address for m in statuses(seen, "connecting"))
            )
            a = await start(tmp_path / "a.db", port, peers=(dead_address,))
            await until(lambda: ann.connected and bob.connected)
            await until(lambda: bob.state is not None and bob.state.turn == bob.player)
            assert ann.player == me and ann.room is not None and ann.room.room == code
            bob.submit(p.Move(move={"x": 8, "y": 8}))
            await until(
                lambda: ann.state is not None and ann.state.view["moves"] == [[7, 7], [8, 8]]
            )
            assert not statuses(seen, "gave-up")
    finally:
        await a.close()


async def test_no_node_answering_ends_in_gave_up_until_asked_again(
    tmp_path: Path, dead_address: str
) -> None:
    a = await start(tmp_path / "a.db", peers=(dead_address,))
    port, url_a = a.port, url_of(a)
    try:
        async with session(url_a, "ann", rounds=2) as (ann, seen):
            ann.submit("create-room", game="gomoku", options={"size": 15})
            await until(lambda: ann.room is not None)
            me, code = ann.player, ann.room.room if ann.room else ""
            await a.close()
            await until(lambda: statuses(seen, "gave-up"))
            gave_up = statuses(seen, "gave-up")[0]
            assert (gave_up.count, gave_up.attempt) == (2, 2)
            assert "2" in gave_up_text(gave_up.count)
            a = await start(tmp_path / "a.db", port, peers=(dead_address,))
            ann.reconnect_now()
            await until(lambda: ann.connected)
            assert ann.player == me and ann.url == url_a
            await until(lambda: ann.room is not None and ann.room.room == code)
    finally:
        await a.close()


def test_only_well_formed_node_addresses_are_kept() -> None:
    raw = [
        "ws://a:1/",
        "wss://b.example:443/",
        "ws://a:1/",
        "http://c:1/",
        "file:///etc",
        "ws://d/",
        "ws://e:1/?x",
        "ws://u:p@f:1/",
        "ws://g:1/path",
        7,
        None,
        "ws://g:1/\ufffd",
        "ws://" + "h" * 300 + ":1/",
    ]
    assert node_addresses(raw) == ["ws://a:1/", "wss://b.example:443/"]
    assert node_addresses("ws://a:1/") == [] and node_addresses(None) == []
    many = [f"ws://n{i}:1/" for i in range(1000)]
    assert node_addresses(many) == many[:MAX_NODES]


def test_a_route_tries_the_current_node_first_then_the_others_in_order() -> None:
    route = Route.from_("ws://b:1/", ["ws://a:1/", "ws://b:1/", "ws://c:1/"])
    seen = [route.current]
    while not route.failed():
        seen.append(route.current)
    assert seen == ["ws://b:1/", "ws://a:1/", "ws://c:1/"]
    assert (route.rounds, route.current) == (1, "ws://b:1/")
