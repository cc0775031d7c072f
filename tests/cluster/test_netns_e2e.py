"""The cluster on separate hosts: Linux network namespaces joined by veth cables to a
bridge, as machines on a LAN switch. One host ("db") runs Redis and PostgreSQL, three
("node0".."node2") run a ``gridhall-server`` node each (``ip netns exec``), and one
("players") holds the test's websocket connections. Players on two hosts play one
Gomoku room; the host that owns it is lost, either killed (``kill -9``) or cut off with
its cable pulled (``ip link set ... down`` on the switch: it keeps running, unreachable,
the partition case), and the game finishes on another host with every move kept.

Network: the hosts' addresses (``10.26.0.0/24``) exist only inside this run's
namespaces, and the switch is a namespace too; nothing is added to the machine's own
network, so no packet leaves the machine. The rule "no network beyond loopback" is
about real networks; these are this test's own hosts, made and deleted by it.

Needs root and ``ip netns``: skipped with the reason otherwise (in CI too, whose
sandbox may forbid namespaces: the reason is then also printed as a warning; a missing
``ip`` there fails, as ``.ci/run`` installs iproute2)."""

from __future__ import annotations

import asyncio
import os
import shutil
import warnings
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.cluster.conftest import PostgresServer, RedisServer, _pg_bin, missing
from tests.cluster.netns import SUBNET, Host, Lan, lan, unavailable
from tests.cluster.nodes import Node, finish_resumed_gomoku, next_owner
from tests.wsclient import WsClient

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')
pytestmark = pytest.mark.timeout(120)


@dataclass
class Site:
    """This test's LAN: the switch, the players' host, the nodes (on their hosts)."""

    net: Lan
    db: Host
    players: Host
    hosts: list[Host]
    nodes: list[Node]


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    why = unavailable()
    if why is not None:
        if os.environ.get("CI") and shutil.which("ip") is None:
            pytest.fail(f"CI must install iproute2 (.ci/run): {why}")
        if os.environ.get("CI"):  # its sandbox may forbid namespaces: say so, loudly
            warnings.warn(f"multi-host cluster test skipped: {why}", stacklevel=1)
        pytest.skip(why)
    redis_bin, pg_bin = shutil.which("redis-server"), _pg_bin()
    if redis_bin is None or pg_bin is None:
        missing("redis-server" if redis_bin is None else "PostgreSQL (initdb, pg_ctl)")
    assert redis_bin is not None and pg_bin is not None
    with lan() as net:
        db = net.host("db")
        hosts = [net.host(f"node{i}") for i in range(3)]
        players = net.host("players")
        redis = RedisServer(redis_bin, tmp_path, host=db.address, run=db.run())
        pg = PostgresServer(pg_bin, host=db.address, run=db.run(), clients=f"{SUBNET}.0/24")
        nodes: list[Node] = []
        try:
            redis.start()
            pg.start()
            nodes = [
                Node(tmp_path, f"node{i}", redis.url, pg.url(), host=h.address, run=h.run())
                for i, h in enumerate(hosts)
            ]
            yield Site(net, db, players, hosts, nodes)
        finally:
            for node in nodes:
                node.stop()
                print(f"--- {node.name} logged:", "".join(node.log[-40:]))
            redis.stop()
            pg.stop()


@asynccontextmanager
async def player(
    host: Host, node: Node, name: str, old: WsClient | None = None
) -> AsyncIterator[WsClient]:
    """A websocket client on ``host`` connected to ``node``; with ``old``, it resumes
    ``old``'s identity by its token."""
    sock = host.socket_to(node.host, node.port)
    async with connect(node.url, sock=sock, compression=None, max_size=None) as ws:
        client = WsClient(ws)
        if old is None:
            await client.hello(name)
        else:
            seen = max((m["seq"] for m in old.received if "seq" in m and "room" in m), default=0)
            await client.send("hello", protocol=1, name=name, token=old.token, since=seen)
            assert (await client.expect("welcome"))["player"] == old.player
            client.player, client.token = old.player, old.token
        yield client


async def logged_any(node: Node, *texts: str) -> str:
    """Wait for the first line ``node`` logs that contains one of ``texts``."""
    waits = [asyncio.ensure_future(node.logged(text)) for text in texts]
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return done.pop().result()


async def started(stack: AsyncExitStack, site: Site) -> tuple[WsClient, WsClient, str]:
    """Nodes up; Ann on node0's host and Bob on node1's in one Gomoku room (owned by
    node0), three moves each played."""
    for node in site.nodes:
        await node.ready()
        assert node.host.startswith(SUBNET)
    a = await stack.enter_async_context(player(site.players, site.nodes[0], "Ann"))
    b = await stack.enter_async_context(player(site.players, site.nodes[1], "Bob"))
    await a.send("create-room", game="gomoku")
    room = (await a.expect("joined"))["room"]
    await b.send("join-room", room=room)  # relayed by node1 to node0, across the LAN
    await b.expect("state", status="playing")
    for i in range(3):
        await a.send("move", move={"x": i, "y": 0})
        await b.expect("moved", by=a.player)
        await b.send("move", move={"x": i, "y": 1})
        await a.expect("moved", by=b.player)
    return a, b, room


async def finish(
    stack: AsyncExitStack, site: Site, heir: Node, a: WsClient, b: WsClient, room: str
) -> None:
    """Bob's node follows the room to its new owner for him (he gets its state without
    reconnecting); Ann resumes by token on a host that is still there; they finish the
    game, every move kept."""
    await b.expect("state", room=room, timeout=90)  # (a takeover: leases run out first)
    other = site.nodes[2] if heir is site.nodes[1] else site.nodes[1]
    a2 = await stack.enter_async_context(player(site.players, other, "Ann", a))
    await finish_resumed_gomoku(a2, b, room)


async def test_a_killed_host_s_game_is_finished_on_another_host(site: Site) -> None:
    async with AsyncExitStack() as stack:
        a, b, room = await started(stack, site)
        await site.nodes[0].kill()
        heir = await next_owner(site.nodes[1:], room)
        await finish(stack, site, heir, a, b, room)


async def test_a_host_cut_off_the_lan_loses_its_room_to_another_host(site: Site) -> None:
    async with AsyncExitStack() as stack:
        a, b, room = await started(stack, site)
        site.net.unplug(site.hosts[0])  # node0 runs on, cut off from everyone
        heir = await next_owner(site.nodes[1:], room)
        # Ann's client would notice by its keepalive pings; this one stops waiting.
        a.ws.transport.abort()
        await finish(stack, site, heir, a, b, room)
        assert site.nodes[0].proc.poll() is None  # it was not killed: it was lost
        site.net.plug(site.hosts[0])  # back on the LAN: it finds its lease gone
        await logged_any(
            site.nodes[0],
            f"room {room}: another node owns it now",
            f"room {room}: its lease is held by another node",
        )


async def test_an_owner_cut_off_from_the_db_host_shows_no_move_it_cannot_store(site: Site) -> None:
    """The partition case: node0 still reaches its players, but not Redis and
    PostgreSQL. The move Ann sends it then is never acknowledged; another host takes
    the room over, and when node0 is reached again its write is refused."""
    async with AsyncExitStack() as stack:
        a, b, room = await started(stack, site)
        site.net.cut(site.hosts[0], site.db)
        before = len(a.received)
        await a.send("move", move={"x": 3, "y": 0})  # to node0, which cannot store it
        heir = await next_owner(site.nodes[1:], room)
        site.net.heal(site.hosts[0], site.db)
        # its commit, held while cut off, now reaches PostgreSQL and is refused (or,
        # were the link to fail it outright, fails): either way it lets the room go
        await logged_any(
            site.nodes[0], f"room {room}: another node owns it now", "PostgreSQL failed a commit"
        )
        with pytest.raises(ConnectionClosed):  # node0 lets Ann go, to resume elsewhere
            while True:
                await a.recv()
        assert "moved" not in [m["type"] for m in a.received[before:]]
        await finish(stack, site, heir, a, b, room)
