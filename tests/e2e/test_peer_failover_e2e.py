"""Two real ``gridhall-server`` processes, the first given the second with ``--peer``: a
client in a room on the first reaches the second by itself when the first is killed
(kill -9), says hello there, and is shown that node's lobby (the nodes share nothing,
so the second node cannot know its token or its room)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.client.messages import Connection, Event
from gridhall.client.session import Session
from tests.client.test_client_session import FAST
from tests.waiting import WAIT, until


class Node:
    """``gridhall-server`` as a child process on a free loopback port."""

    def __init__(self, db: Path, *peers: str) -> None:
        self.proc = subprocess.Popen(
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
                "--no-discovery",
                *(arg for peer in peers for arg in ("--peer", peer)),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "... listening on port N"
        self.url = f"ws://127.0.0.1:{int(line.rsplit(' ', 1)[1])}/"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()  # a clean stop (its workers too)
        self.proc.wait(20)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[Node, Node]]:
    b = Node(tmp_path / "b.db")
    try:
        a = Node(tmp_path / "a.db", b.url)
        try:
            yield a, b
        finally:
            a.stop()
    finally:
        b.stop()


async def test_a_client_reaches_the_peer_when_its_node_is_killed(nodes: tuple[Node, Node]) -> None:
    a, b = nodes
    ann = Session(a.url, "ann", backoff=FAST)
    seen: list[Event] = []
    ann.add_listener(seen.append)
    task = asyncio.create_task(ann.run())
    try:
        await until(lambda: ann.connected)
        assert ann.nodes == [a.url, b.url]
        ann.submit("create-room", game="gomoku", options={"size": 15})
        await until(lambda: ann.room is not None)
        first = ann.player
        a.proc.send_signal(signal.SIGKILL)
        await until(lambda: ann.connected and ann.url == b.url)
        welcomes = [m for m in seen if isinstance(m, p.Welcome)]
        assert len(welcomes) == 2 and welcomes[-1].player != first  # a new player on b
        assert ann.room is None and ann.nodes == []  # b's lobby; b lists no other node
        tried = [m.address for m in seen if isinstance(m, Connection) and m.status == "connecting"]
        assert tried[-2:] == [a.url, b.url]
        ann.submit(p.ListRooms())
        await until(lambda: any(isinstance(m, p.Rooms) for m in seen))
        assert [m for m in seen if isinstance(m, p.Rooms)][-1].rooms == []
    finally:
        await ann.close()
        await asyncio.wait_for(task, WAIT)
