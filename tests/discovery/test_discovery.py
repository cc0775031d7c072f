"""LAN discovery end to end on 127.0.0.1: a server advertises ``_gridhall._tcp``, a
browser finds it with its name, protocol version and room count, sees the count
change and sees it go; the server's CLI flags and ``gridhall --find``."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import pytest

from gridhall.client.discovery import Browser, FoundServer, find
from gridhall.protocol import PROTOCOL_VERSION
from gridhall.server import cli as server_cli
from gridhall.server.io.discovery import Advertiser
from tests.wsclient import WsClient

pytestmark = pytest.mark.usefixtures("loopback_multicast")

WAIT = 30.0
"""Seconds before a wait gives up: a failure guard, never a timing check."""
LOOPBACK = ["127.0.0.1"]


def unique_name() -> str:
    """A server name no other test (or other test run on this machine) uses."""
    return f"hall-{uuid.uuid4().hex[:8]}"


async def until(cond: Callable[[], object], what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not cond():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"timed out waiting for: {what}")
        await asyncio.sleep(0.05)


@contextmanager
def browsing() -> Iterator[Browser]:
    browser = Browser(interfaces=LOOPBACK).start()
    try:
        yield browser
    finally:
        browser.stop()


def named(browser: Browser, name: str) -> FoundServer | None:
    return next((s for s in browser.servers() if s.name == name), None)


@asynccontextmanager
async def advertised(name: str, port: int) -> AsyncIterator[Advertiser]:
    advertiser = Advertiser(name, port, LOOPBACK)
    advertiser.start()
    try:
        yield advertiser
    finally:
        await advertiser.close()


async def test_an_advertised_server_is_found_with_name_version_and_rooms() -> None:
    name = unique_name()
    with browsing() as browser:
        async with advertised(name, 4321) as advertiser:
            advertiser.set_rooms(2)
            await until(lambda: named(browser, name), "the server in the browser's list")
            found = named(browser, name)
            assert found is not None
            assert (found.host, found.port, found.address) == ("127.0.0.1", 4321, "127.0.0.1:4321")
            assert found.protocol == PROTOCOL_VERSION and found.compatible
            await until(
                lambda: getattr(named(browser, name), "rooms", None) == 2,
                "the room count set before the announcement",
            )
            assert "2 rooms open" in named(browser, name).describe()  # type: ignore[union-attr]


async def test_the_room_count_follows_the_servers_public_rooms(
    make_server: Callable[..., Any],
) -> None:
    server = await make_server()
    name = unique_name()
    with browsing() as browser:
        async with advertised(name, server.port) as advertiser:
            advertiser.watch(lambda: server_cli.public_rooms(server), every=0.1)
            await until(
                lambda: getattr(named(browser, name), "rooms", None) == 0,
                "the server with no rooms",
            )
            url = f"ws://127.0.0.1:{server.port}/"
            async with WsClient.connect(url, "Ann") as ann, WsClient.connect(url, "Bob") as bob:
                await ann.send("create-room", game="gomoku", options={})
                await ann.expect("state")
                await until(
                    lambda: getattr(named(browser, name), "rooms", None) == 1, "one room counted"
                )
                await bob.send("create-room", game="gomoku", options={}, private=True)
                await bob.expect("state")
                await ann.send("leave-room")
                await until(
                    lambda: getattr(named(browser, name), "rooms", None) == 0,
                    "a private room is not counted, a room left empty is gone",
                )


async def test_a_server_that_stops_leaves_the_list() -> None:
    name = unique_name()
    changes: list[list[FoundServer]] = []
    browser = Browser(changes.append, interfaces=LOOPBACK).start()
    try:
        async with advertised(name, 4322):
            await until(lambda: named(browser, name), "the server in the list")
        await until(lambda: named(browser, name) is None, "the server gone after its goodbye")
        assert any(s.name == name for seen in changes for s in seen)
    finally:
        browser.stop()


async def test_advertising_that_fails_is_a_warning_and_the_server_goes_on(
    make_server: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    import zeroconf.asyncio

    def no_network(*args: Any, **kwargs: Any) -> Any:
        raise OSError(101, "Network is unreachable")

    monkeypatch.setattr(zeroconf.asyncio, "AsyncZeroconf", no_network)
    server = await make_server()
    advertiser = Advertiser("hall", server.port, LOOPBACK)
    with caplog.at_level(logging.WARNING, logger="gridhall.discovery"):
        advertiser.start()
        await until(
            lambda: advertiser._task is not None and advertiser._task.done(),
            "the failed registration",
        )
        advertiser.set_rooms(3)  # nothing to update, nothing raised
        await advertiser.close()
    assert "LAN discovery is off" in caplog.text and "Network is unreachable" in caplog.text
    assert not advertiser.running
    async with WsClient.connect(f"ws://127.0.0.1:{server.port}/", "Ann") as ann:
        await ann.send("list-rooms")
        assert (await ann.expect("rooms"))["rooms"] == []


def test_without_an_address_to_advertise_on_discovery_is_off_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="gridhall.discovery"):
        Advertiser("hall", 8765, []).start()  # returns before touching the event loop
    assert "no network address to advertise on" in caplog.text


# ---- the command lines ------------------------------------------------------------------


class ServerProcess:
    """``gridhall-server`` in a child process on a free port."""

    def __init__(self, db: Path, name: str, *flags: str) -> None:
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
                "--name",
                name,
                "--log-level",
                "WARNING",
                *flags,
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []

    async def read_announcement(self) -> list[str]:
        """The lines it prints at start, up to the browser link (and any after)."""
        assert self.proc.stdout is not None
        while not any(line.startswith("Or in a browser") for line in self.lines):
            line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), WAIT)
            assert line, f"the server exited early: {self.lines}"
            self.lines.append(line.rstrip("\n"))
        return self.lines

    @property
    def port(self) -> int:
        return int(self.lines[0].rsplit(" ", 1)[1])

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


@asynccontextmanager
async def server_process(db: Path, name: str, *flags: str) -> AsyncIterator[ServerProcess]:
    server = ServerProcess(db, name, *flags)
    try:
        await server.read_announcement()
        yield server
    finally:
        server.stop()


def run_find() -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GRIDHALL_DISCOVERY_INTERFACES": "127.0.0.1"}
    return subprocess.run(
        [sys.executable, "-m", "gridhall.client.cli", "--find"],
        env=env,
        capture_output=True,
        text=True,
        timeout=WAIT,
    )


async def test_server_advertise_flag_and_gridhall_find_print_the_server(tmp_path: Path) -> None:
    name = unique_name()
    async with server_process(tmp_path / "g.db", name, "--advertise", "127.0.0.1") as server:
        assert any("Advertised on the network (127.0.0.1)" in line for line in server.lines)
        with browsing() as browser:
            await until(lambda: named(browser, name), "the server process's announcement")
        found = await asyncio.to_thread(run_find)
    assert found.returncode == 0, found.stderr
    assert f"{name}  127.0.0.1:{server.port}" in found.stdout
    assert "Join with:  gridhall --server " in found.stdout


async def test_no_discovery_flag_keeps_the_server_off_the_list(tmp_path: Path) -> None:
    hidden, shown = unique_name(), unique_name()
    async with (
        server_process(tmp_path / "a.db", hidden, "--no-discovery") as quiet,
        server_process(tmp_path / "b.db", shown, "--advertise", "127.0.0.1"),
    ):
        assert not any("Advertised" in line for line in quiet.lines)
        with browsing() as browser:
            # The advertised one shows up, so the browser works; the other never does.
            await until(lambda: named(browser, shown), "the advertised server")
            servers, error = await asyncio.to_thread(find, 2.0, LOOPBACK)
    assert error is None
    assert shown in {s.name for s in servers} and hidden not in {s.name for s in servers}


def test_advertise_takes_ipv4_addresses_only(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        server_cli.build_parser().parse_args(["--advertise", "kitchen"])
    assert "'kitchen' is not an IPv4 address" in capsys.readouterr().err
    args = server_cli.build_parser().parse_args(
        ["--advertise", "127.0.0.1", "--advertise", "10.0.0.2"]
    )
    assert args.advertise == ["127.0.0.1", "10.0.0.2"]
