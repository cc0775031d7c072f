"""Shared fixtures: a real gridhall server on 127.0.0.1, port 0, fresh database."""

from __future__ import annotations

import asyncio
import os
import select
import socket
import struct
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from gridhall.protocol import lan
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import STOP_CUT_SHORT, GameServer, task_chain

settings.register_profile("gridhall", deadline=None)
settings.load_profile("gridhall")
"""Property tests check behaviour, not speed: Hypothesis's per-example deadline (200 ms)
fails an example that a loaded 2-core machine merely paused (a timing assertion)."""

os.environ[lan.INTERFACES_ENV] = "127.0.0.1"
"""LAN discovery in every test (servers started as child processes too) announces and
browses on the loopback interface only: no test sends a packet to another network."""
os.environ[lan.TAG_ENV] = lan.new_tag()
"""...and in a hall of its own (each run, each xdist worker): a real server on this
machine, or another run's test servers, are never heard, and a player's client never
lists the tests' servers (protocol/lan.py)."""


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Factory: ``server = await make_server(grace_seconds=1)``; all closed at the end."""
    servers: list[GameServer] = []

    async def make(**overrides: Any) -> GameServer:
        overrides.setdefault("db", str(tmp_path / "gridhall.db"))
        config = ServerConfig(host="127.0.0.1", port=0, **overrides)
        server = GameServer(config)
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        await close_or_name_stuck(server)


def url_of(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


@pytest.fixture
async def server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server()


@pytest.fixture
async def server_url(server: GameServer) -> str:
    return url_of(server)


# ---- LAN discovery: multicast on the loopback interface ------------------------------

GROUP = "224.0.0.251"
LOOPBACK = "127.0.0.1"


def loopback_multicast_problem() -> str | None:
    """None if a multicast datagram sent on 127.0.0.1 comes back to a member on
    127.0.0.1 (what mDNS on loopback needs); else what went wrong. The datagram
    leaves from 127.0.0.1 through the loopback interface, so it cannot leave the
    machine."""
    recv = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    send = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        recv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        recv.bind(("", 0))
        port = recv.getsockname()[1]
        recv.setsockopt(
            socket.IPPROTO_IP,
            socket.IP_ADD_MEMBERSHIP,
            struct.pack("4s4s", socket.inet_aton(GROUP), socket.inet_aton(LOOPBACK)),
        )
        send.bind((LOOPBACK, 0))
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, socket.inet_aton(LOOPBACK))
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
        send.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL, 1)
        send.sendto(b"gridhall-probe", (GROUP, port))
        ready, _, _ = select.select([recv], [], [], 5.0)
        if not ready:
            return "a multicast datagram sent on 127.0.0.1 never arrived"
        return None if recv.recv(64) == b"gridhall-probe" else "a stranger's datagram arrived"
    except OSError as exc:
        return f"multicast on 127.0.0.1 failed: {exc}"
    finally:
        recv.close()
        send.close()


@pytest.fixture(scope="session")
def loopback_multicast() -> None:
    """Skip (with the reason) where the host cannot deliver multicast on loopback;
    a Linux host can (as root, ``ip link set lo multicast on`` helps one that cannot)."""
    problem = loopback_multicast_problem()
    if problem is not None:
        pytest.skip(f"LAN discovery needs multicast on the loopback interface here: {problem}")


@pytest.fixture(autouse=True)
def stops_end_cleanly(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    """A server a test stops must stop whole: one whose stop gave up waiting for a
    connection's handler (``GameServer.close`` logs it and goes on, so a stop never
    hangs) fails the test with the log's list of what was still running, instead of
    passing quietly. A test that makes that happen on purpose is marked ``stuck_stop``."""
    yield
    if request.node.get_closest_marker("stuck_stop") is not None:
        return
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    cut = [r.getMessage() for r in records if STOP_CUT_SHORT in r.getMessage()]
    assert not cut, cut


STOP_GUARD = 60.0
"""Seconds a test's server may take to stop before the test fails naming what waits."""


async def close_or_name_stuck(server: GameServer) -> None:
    """``server.close()``; if it has not ended within :data:`STOP_GUARD`, fail with every
    task's chain of awaits, the stop's own first (a hang then says where it is)."""
    closing = asyncio.ensure_future(server.close())
    try:
        await asyncio.wait_for(asyncio.shield(closing), STOP_GUARD)
    except TimeoutError:
        others = [t for t in asyncio.all_tasks() if t not in (closing, asyncio.current_task())]
        chains = [task_chain(closing), *(task_chain(t) for t in others)]
        pytest.fail(f"the server's stop did not end in {STOP_GUARD:g} s: " + " | ".join(chains))
