"""Cluster nodes as real ``gridhall-server`` processes on loopback, for the e2e tests."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from tests.wsclient import WsClient

LEASE_MS = 4000
"""Short, so a takeover comes soon; long enough that a busy 2-core machine's scheduling
never costs a live node its leases (they are renewed every third of it)."""
SECRET = "tests-cluster-secret-0123456789"
"""The cluster secret every test node is started with."""


class Node:
    """One node: its own SQLite file for history, the shared Redis and PostgreSQL."""

    def __init__(
        self,
        tmp: Path,
        name: str,
        redis_url: str,
        postgres_url: str,
        *extra: str,
        host: str = "127.0.0.1",
        run: Sequence[str] = (),
    ) -> None:
        """``run`` prefixes the command (e.g. ``ip netns exec NS``: on another host)."""
        self.name = name
        self.host = host
        self.proc = subprocess.Popen(
            [
                *run,
                sys.executable,
                "-m",
                "gridhall.server",
                "--host",
                host,
                "--port",
                "0",
                "--db",
                str(tmp / f"{name}.db"),
                "--log-level",
                "WARNING",
                "--ai-budget",
                "0.2",
                "--no-discovery",
                "--cluster",
                redis_url,
                "--store",
                postgres_url,
                "--lease-ms",
                str(LEASE_MS),
                "--node-id",
                name,
                "--cluster-secret",
                SECRET,
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.port = 0
        self.log: list[str] = []
        self.ended = False

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}/"

    async def ready(self) -> str:
        assert self.proc.stdout is not None
        line = await asyncio.to_thread(self.proc.stdout.readline)
        assert line, f"node {self.name} did not start: {self.proc.stderr.read()}"  # type: ignore[union-attr]
        self.port = int(line.rsplit(" ", 1)[1])
        self._grew = asyncio.Event()
        threading.Thread(
            target=self._read_log, args=(asyncio.get_running_loop(),), daemon=True
        ).start()
        return self.url

    def _read_log(self, loop: asyncio.AbstractEventLoop) -> None:
        """(A thread) every line the node logs, kept, and the waiters told."""
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)
            with contextlib.suppress(RuntimeError):  # the test (and its loop) ended
                loop.call_soon_threadsafe(self._grew.set)
        self.ended = True
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._grew.set)

    async def logged(self, text: str) -> str:
        """Wait for a line of this node's log that contains ``text`` (the event a test
        waits on, e.g. a takeover); the guard is the test's timeout."""
        seen = 0
        while True:
            for line in self.log[seen:]:
                if text in line:
                    return line
            seen = len(self.log)
            assert not self.ended, f"node {self.name} ended before logging {text!r}"
            self._grew.clear()
            if len(self.log) == seen:
                await self._grew.wait()

    async def kill(self) -> None:
        """``kill -9``: no goodbye, no lease released."""
        self.proc.send_signal(signal.SIGKILL)
        await asyncio.to_thread(self.proc.wait, 20)

    def pause(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(10)


@asynccontextmanager
async def cluster(
    tmp: Path,
    redis_url: str,
    postgres_url: str,
    count: int = 3,
    extra: tuple[str, ...] = (),
    each: Mapping[int, tuple[str, ...]] | None = None,
) -> AsyncIterator[list[Node]]:
    """``count`` nodes (with the options ``extra``, and node i with ``each[i]`` after
    them), ready; all stopped at the end."""
    own = each or {}
    nodes = [
        Node(tmp, f"node{i}", redis_url, postgres_url, *extra, *own.get(i, ()))
        for i in range(count)
    ]
    try:
        for node in nodes:
            await node.ready()
        yield nodes
    finally:
        for node in nodes:
            node.stop()
            print(f"--- {node.name} logged:", "".join(node.log[-40:]))  # shown on failure


def refused_start(
    *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``gridhall-server`` with ``args``, expected to stop at once (a setting refused,
    Redis or PostgreSQL unreachable): how it ended."""
    return subprocess.run(
        [sys.executable, "-m", "gridhall.server", "--port", "0", "--no-discovery", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@asynccontextmanager
async def client_from(url: str, address: str, name: str | None = None) -> AsyncIterator[WsClient]:
    """A client of the node at ``url`` whose connection comes from ``address`` (any of
    127.0.0.0/8); welcomed if ``name`` is given."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.setblocking(False)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    async with connect(url, sock=sock, compression=None, max_size=None) as ws:
        client = WsClient(ws)
        if name is not None:
            await client.hello(name)
        yield client


async def rejoin(stack: AsyncExitStack, url: str, old: WsClient, name: str) -> WsClient:
    """A new connection (to another node) resuming ``old``'s identity by its token."""
    client = await stack.enter_async_context(WsClient.connect(url))
    seen = max((m["seq"] for m in old.received if "seq" in m and "room" in m), default=0)
    await client.send("hello", protocol=1, name=name, token=old.token, since=seen)
    welcome = await client.expect("welcome")
    assert welcome["player"] == old.player
    client.player, client.token = old.player, old.token
    return client


async def next_owner(candidates: list[Node], room: str) -> Node:
    """Wait until one of ``candidates`` logs that it took ``room`` over; that node."""
    tasks = {
        asyncio.ensure_future(node.logged(f"room {room} taken over")): node for node in candidates
    }
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return tasks[done.pop()]


def last_view(client: WsClient) -> dict[str, Any]:
    view: dict[str, Any] = next(
        m["view"] for m in reversed(client.received) if m["type"] in ("state", "moved")
    )
    return view


SIX_MOVES = [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]
"""The moves the cluster's Gomoku tests play before the room's owner is lost."""


async def sees_move(client: WsClient, by: str, move: list[int]) -> None:
    """Wait until ``client`` has ``move``: its ``moved``, or a ``state`` that holds it
    (a relayed client whose node saw the owner's lease lapse on a busy machine follows
    the room again, and resyncs with a ``state``)."""
    while True:
        msg = await client.recv()
        if msg["type"] == "moved" and msg.get("by") == by:
            return
        if msg["type"] == "state" and move in (msg.get("view") or {}).get("moves", []):
            return


async def sees_end(client: WsClient) -> dict[str, Any]:
    """The game's result as ``client`` hears it: ``game-over``, or a resync ``state``
    of the finished game (see :func:`sees_move`)."""
    while True:
        msg = await client.recv()
        if msg["type"] == "game-over":
            return dict(msg["result"])
        if msg["type"] == "state" and msg.get("status") == "over":
            return dict(msg["result"])


async def finish_resumed_gomoku(a2: WsClient, b2: WsClient, room: str) -> None:
    """Ann (black, to move) and Bob, back after their room moved node: the room kept all
    six moves, and the game goes on to Ann's five."""
    await a2.send("sync")
    state = await a2.expect("state")
    assert state["room"] == room and state["turn"] == a2.player
    assert state["view"]["moves"] == SIX_MOVES
    await a2.send("move", move={"x": 3, "y": 0})
    await sees_move(b2, a2.player, [3, 0])
    await b2.send("move", move={"x": 3, "y": 1})
    await sees_move(a2, b2.player, [3, 1])
    await a2.send("move", move={"x": 4, "y": 0})
    for client in (b2, a2):
        over = await sees_end(client)
        assert over["winner"] == a2.player and over["reason"] == "five"
