"""Stopping ``gridhall-server`` as an operator does (issue 40): Ctrl-C, which a terminal
sends to its whole foreground process group (the server, its worker processes and
multiprocessing's resource tracker), and ``kill -9`` of the server alone. Neither may
look like a crash: no traceback, no "leaked semaphore" warning, nothing left behind."""

from __future__ import annotations

import asyncio
import os
import shlex
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from tests.wsclient import WsClient

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux signals and /proc")

SERVER = (sys.executable, "-m", "gridhall.server", "--host", "127.0.0.1", "--port", "0")
"""``gridhall-server`` on a free port of 127.0.0.1."""

GUARD = 60.0
"""Seconds before a wait for the processes to end gives up: a failure guard."""


class Hosted:
    """``gridhall-server`` in a session of its own, as a terminal's foreground job."""

    def __init__(self, db: Path, *flags: str) -> None:
        self.proc = subprocess.Popen(
            [*SERVER, "--db", str(db), "--no-discovery", "--log-level", "WARNING", *flags],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        assert "listening on port" in first, first
        self.url = f"ws://127.0.0.1:{int(first.rsplit(' ', 1)[1])}/"

    def ended(self) -> tuple[str, int]:
        """Everything it and its children wrote to stderr, once the last of them ended
        (each holds the pipe until it exits), and the server's exit status."""
        _, err = self.proc.communicate(timeout=GUARD)
        return err, self.proc.returncode

    def semaphores(self) -> list[Path]:
        """The named semaphores the server has open (its worker pool's queues)."""
        maps = Path(f"/proc/{self.proc.pid}/maps").read_text()
        return sorted({Path(line.split()[-1]) for line in maps.splitlines() if "/sem." in line})


@asynccontextmanager
async def hosted(tmp_path: Path, *flags: str) -> AsyncIterator[Hosted]:
    server = Hosted(tmp_path / "g.db", *flags)
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            os.killpg(server.proc.pid, signal.SIGKILL)
            server.proc.communicate(timeout=GUARD)


async def computer_moved(url: str, level: str = "easy") -> None:
    """A move against the computer and its answer: the worker processes are running."""
    async with WsClient.connect(url, "Ann") as ann:
        await ann.send("create-room", game="gomoku", options={"ai": level})
        bot = (await ann.expect("state", status="playing"))["players"][1]["player"]
        await ann.send("move", move={"x": 7, "y": 7})
        await ann.expect("moved", by=bot)


async def test_ctrl_c_stops_the_server_and_its_workers_without_a_traceback(
    tmp_path: Path,
) -> None:
    async with hosted(tmp_path) as server:
        await computer_moved(server.url)
        os.killpg(server.proc.pid, signal.SIGINT)  # what Ctrl-C in its terminal does
        err, status = server.ended()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "leaked" not in err and status == 0, err


async def test_ctrl_c_while_the_computer_thinks_and_while_it_starts_is_quiet(
    tmp_path: Path,
) -> None:
    async with hosted(tmp_path, "--ai-budget", "1") as server:
        await computer_moved(server.url, "hard")
        async with WsClient.connect(server.url, "Bob") as bob:
            await bob.send("create-room", game="gomoku", options={"ai": "hard"})
            await bob.expect("state", status="playing")
            await bob.send("move", move={"x": 7, "y": 7})
            await bob.expect("moved", by=bob.player)  # the computer is asked to think
            os.killpg(server.proc.pid, signal.SIGINT)
            err, status = server.ended()
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert status == 0, err


async def test_ctrl_c_while_the_server_starts_ends_the_start_quietly(tmp_path: Path) -> None:
    """The server starts by asking its engines who they are (up to 10 s each): a Ctrl-C
    then used to end it with a KeyboardInterrupt traceback."""
    started = tmp_path / "engine-started"
    os.mkfifo(started)
    engine = f"import time; open({str(started)!r}, 'w').write('x'); time.sleep({GUARD})"
    slow = f"slow={shlex.join([sys.executable, '-c', engine])}"
    proc = subprocess.Popen(
        [*SERVER, "--db", str(tmp_path / "g.db"), "--no-discovery", "--engine", slow],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        assert await asyncio.to_thread(started.read_text) == "x"  # the start is under way
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=GUARD)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=GUARD)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "listening on port" not in out and proc.returncode == 0, (out, err)
    assert "server stopped" in err


async def test_kill_9_leaves_no_warning_and_no_semaphore_behind(tmp_path: Path) -> None:
    async with hosted(tmp_path) as server:
        await computer_moved(server.url)
        named = server.semaphores()
        assert named, "the pool's queues hold named semaphores"
        server.proc.kill()  # kill -9 of the server only: its workers and tracker see it go
        err, status = server.ended()
    assert status == -signal.SIGKILL
    assert "leaked" not in err and "Traceback" not in err, err
    assert not [path for path in named if path.exists()]  # unlinked all the same
