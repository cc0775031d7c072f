"""A real server process is killed (kill -9) or stopped (SIGTERM) in the middle of a
game, restarted on the same database, and the players resume by their tokens and
finish the game."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from gridhall.server.games.linkmatch import available_pairs
from tests.wsclient import WsClient

STOPS = ["kill-9", "sigterm"]


class ServerProcess:
    """``gridhall-server`` as a child process on a free port."""

    def __init__(self, db: Path, loop: str = "auto", extra: tuple[str, ...] = ()) -> None:
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
                "--ai-budget",
                "0.2",
                "--no-discovery",
                "--loop",
                loop,
                *extra,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.port = 0
        self.loop = ""
        """The event loop the server says it runs on."""

    async def ready(self) -> str:
        assert self.proc.stdout is not None
        line = await asyncio.to_thread(self.proc.stdout.readline)
        self.port = int(line.rsplit(" ", 1)[1])
        while not self.loop:
            line = await asyncio.to_thread(self.proc.stdout.readline)
            assert line, "the server stopped before saying which event loop it runs"
            if line.startswith("event loop: "):
                self.loop = line.removeprefix("event loop: ").strip()
        return f"ws://127.0.0.1:{self.port}/"

    def children(self) -> set[int]:
        """The server's child processes (its worker pool)."""
        found: set[int] = set()
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            found.update(int(p) for p in (task / "children").read_text().split())
        return found

    async def stop(self, how: str) -> None:
        workers = self.children()
        assert workers, "the server starts its worker pool at launch"
        self.proc.send_signal(signal.SIGKILL if how == "kill-9" else signal.SIGTERM)
        code = await asyncio.to_thread(self.proc.wait, 20)
        assert code == (-signal.SIGKILL if how == "kill-9" else 0)
        for _ in range(600):  # workers end with the server, even after kill -9 (30 s guard)
            if not any(Path(f"/proc/{pid}").exists() for pid in workers):
                break
            await asyncio.sleep(0.05)
        left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
        assert not left, f"worker processes outlived the server: {left}"


@asynccontextmanager
async def server_process(db: Path, loop: str = "auto") -> AsyncIterator[ServerProcess]:
    server = ServerProcess(db, loop)
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait(10)


async def closed_by(client: WsClient) -> Any:
    """Read until the server closes the connection; its close frame."""
    with pytest.raises(ConnectionClosed) as info:
        while True:
            await client.recv(timeout=20)
    return info.value.rcvd


async def stop_and_restart(
    stack: AsyncExitStack,
    first: ServerProcess,
    db: Path,
    how: str,
    clients: list[WsClient],
    loop: str = "auto",
) -> str:
    """Stop ``first`` as ``how`` says while ``clients`` are connected; start a new server
    (on event loop ``loop``)."""
    await first.stop(how)
    for client in clients:
        close = await closed_by(client)
        if how == "sigterm":
            assert close is not None and close.code == 1012 and "restarting" in close.reason
    second = await stack.enter_async_context(server_process(db, loop))
    url = await second.ready()
    assert second.loop == first.loop
    return url


async def rejoin(stack: AsyncExitStack, url: str, old: WsClient, name: str) -> WsClient:
    """A new connection resuming ``old``'s identity: same id, a fresh look at the room."""
    client = await stack.enter_async_context(WsClient.connect(url))
    seen = max((m["seq"] for m in old.received if "seq" in m and "room" in m), default=0)
    await client.send("hello", protocol=1, name=name, token=old.token, since=seen)
    welcome = await client.expect("welcome")
    assert welcome["player"] == old.player
    client.player, client.token = old.player, old.token
    return client


def last_view(client: WsClient) -> dict[str, Any]:
    view: dict[str, Any] = next(
        m["view"] for m in reversed(client.received) if m["type"] in ("state", "moved")
    )
    return view


@pytest.mark.parametrize("loop", ["uvloop", "asyncio"])
@pytest.mark.parametrize("how", STOPS)
async def test_gomoku_survives_a_stop_and_is_finished(tmp_path: Path, how: str, loop: str) -> None:
    """On either event loop (``gridhall[fast]`` brings uvloop; auto picks it)."""
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db, loop))
        url = await first.ready()
        assert first.loop == loop
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        b = await stack.enter_async_context(WsClient.connect(url, "Bob"))
        await a.send("create-room", game="gomoku")
        room = (await a.expect("joined"))["room"]
        await b.send("join-room", room=room)
        await b.expect("state", status="playing")
        for i in range(3):
            await a.send("move", move={"x": i, "y": 0})
            await b.expect("moved", by=a.player)
            await b.send("move", move={"x": i, "y": 1})
            await a.expect("moved", by=b.player)
        seq = a.received[-1]["seq"]
        url = await stop_and_restart(stack, first, db, how, [a, b], loop)
        a2 = await rejoin(stack, url, a, "Ann")
        b2 = await rejoin(stack, url, b, "Bob")
        info = await a2.expect("player-info", player=b.player, connected=True)
        assert info["seq"] > seq  # seq goes on from where it was
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["room"] == room and state["turn"] == a.player
        assert state["view"]["moves"] == [[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [2, 1]]
        for i in (3, 4):
            await a2.send("move", move={"x": i, "y": 0})
            if i == 3:
                await b2.expect("moved", by=a.player)
                await b2.send("move", move={"x": i, "y": 1})
                await a2.expect("moved", by=b.player)
        over = await b2.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "five"


@pytest.mark.parametrize("how", STOPS)
async def test_minesweeper_survives_a_stop_and_is_finished(tmp_path: Path, how: str) -> None:
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db))
        url = await first.ready()
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        await a.send("create-room", game="minesweeper", options={"preset": "beginner"})
        await a.expect("state")
        await a.send("move", move={"action": "reveal", "x": 4, "y": 4})
        rows = (await a.expect("moved"))["view"]["rows"]
        url = await stop_and_restart(stack, first, db, how, [a])
        a2 = await rejoin(stack, url, a, "Ann")
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["view"]["rows"] == rows and state["status"] == "playing"
        for _ in range(81):  # reveal hidden cells until the game ends, won or lost
            view = last_view(a2)
            if any(m["type"] == "game-over" for m in a2.received):
                break
            x, y = next(
                (x, y) for y, row in enumerate(view["rows"]) for x, c in enumerate(row) if c == "#"
            )
            await a2.send("move", move={"action": "reveal", "x": x, "y": y})
            msg = await a2.expect("moved")
            if msg["view"].get("lives_left") == 0 or "#" not in "".join(msg["view"]["rows"]):
                await a2.expect("game-over")
        assert any(m["type"] == "game-over" for m in a2.received)


@pytest.mark.parametrize("how", STOPS)
async def test_linkmatch_survives_a_stop_and_is_finished(tmp_path: Path, how: str) -> None:
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db))
        url = await first.ready()
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        await a.send(
            "create-room",
            game="linkmatch",
            options={"width": 4, "height": 4, "kinds": 2, "countdown": 0},
        )
        await a.expect("state")
        await a.send("start")
        rows = (await a.expect("state", status="playing"))["view"]["rows"]
        (p1, p2) = available_pairs(rows)[0]
        await a.send("move", move={"action": "link", "a": list(p1), "b": list(p2)})
        rows = (await a.expect("moved"))["view"]["rows"]
        url = await stop_and_restart(stack, first, db, how, [a])
        a2 = await rejoin(stack, url, a, "Ann")
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["view"]["rows"] == rows and state["view"]["remaining"] == 14
        while last_view(a2)["remaining"] > 0:
            (p1, p2) = available_pairs(last_view(a2)["rows"])[0]
            await a2.send("move", move={"action": "link", "a": list(p1), "b": list(p2)})
            await a2.expect("moved")
        over = await a2.expect("game-over")
        assert over["result"]["winner"] == a.player and over["result"]["reason"] == "cleared"


@pytest.mark.parametrize("how", STOPS)
async def test_a_computer_room_survives_a_stop_and_is_finished(tmp_path: Path, how: str) -> None:
    db = tmp_path / "g.db"
    async with AsyncExitStack() as stack:
        first = await stack.enter_async_context(server_process(db))
        url = await first.ready()
        a = await stack.enter_async_context(WsClient.connect(url, "Ann"))
        await a.send("create-room", game="gomoku", options={"ai": "easy"})
        await a.expect("state", status="playing")
        await a.send("move", move={"x": 7, "y": 7})
        reply = await a.expect("moved", turn=a.player)
        url = await stop_and_restart(stack, first, db, how, [a])
        a2 = await rejoin(stack, url, a, "Ann")
        await a2.send("sync")
        state = await a2.expect("state")
        assert state["view"]["moves"] == reply["view"]["moves"] and state["turn"] == a.player
        free = next(
            (x, y) for y in range(15) for x in range(15) if [x, y] not in state["view"]["moves"]
        )
        await a2.send("move", move={"x": free[0], "y": free[1]})
        answer = await a2.expect("moved", turn=a.player)  # the computer answered
        assert len(answer["view"]["moves"]) == 4
        await a2.send("resign")
        over = await a2.expect("game-over")
        assert over["result"]["reason"] == "resign" and over["result"]["winner"] != a.player
