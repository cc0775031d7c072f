"""A stop always ends (``GameServer.close``): it lets no connection in once it has
begun (one let in while it told the others to close would never be told itself, and the
stop would wait on it for as long as its client stayed), and a connection's handler
that never returns holds it up for ``SHUTDOWN_WAIT`` at most, named in the log."""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net import app
from gridhall.server.io.net.app import GameServer
from tests.e2e.test_handshake_e2e import closed_with
from tests.wsclient import WsClient

DEADLINE = 30.0
"""Seconds a wait may take before the test fails (a hang, never a measure)."""


async def mute_admin_page(
    server: GameServer,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """An admin socket whose page has stopped answering: it completes the upgrade,
    then never replies to anything, a close included (the stop waits up to its close
    timeout for it). The writer is kept by the caller: dropped, it closes the socket."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            "GET /admin HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), DEADLINE)
    assert head.startswith(b"HTTP/1.1 101"), head
    return reader, writer


async def close_frame(reader: asyncio.StreamReader) -> None:
    """Read until the server's close frame (opcode 8) arrives."""
    while True:
        first, size = await asyncio.wait_for(reader.readexactly(2), DEADLINE)
        if size & 0x7F >= 126:
            size = int.from_bytes(await reader.readexactly(2 if size & 0x7F == 126 else 8), "big")
        await reader.readexactly(size & 0x7F if size < 126 else size)
        if first & 0x0F == 8:
            return


async def test_a_stop_lets_no_one_in_while_it_waits_on_the_others(
    make_server: Callable[..., Any],
) -> None:
    """While a stop waits for an admin page that never answers its close, a player who
    connects is refused at once (before: let in, never told to close, and the stop
    waited on that player for as long as they stayed); the stop then ends."""
    server: GameServer = await make_server()
    url = f"ws://127.0.0.1:{server.port}/"
    async with WsClient.connect(url, "Ann") as ann:
        page, held = await mute_admin_page(server)
        stopping = asyncio.ensure_future(server.close())
        await close_frame(page)  # the stop is telling the pages now
        with pytest.raises(OSError):
            async with WsClient.connect(url, "Late"):
                pass
        await asyncio.wait_for(stopping, DEADLINE)
        code, _ = await closed_with(ann.ws)
        held.close()
    assert code == 1012  # the player who was in was told: a restart


@pytest.mark.stuck_stop
@pytest.mark.parametrize("named", [20, 1])
async def test_a_handler_that_never_returns_cannot_keep_the_server_from_stopping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, named: int
) -> None:
    """A connection whose handler never returns (a bug; here every handler is made to
    wait for ever): the stop tells the connection to close, waits ``SHUTDOWN_WAIT``
    for its handler, then logs the tasks still running with where each waits (the
    stuck one named; past ``STUCK_NAMED`` of them, only how many more) and ends."""
    monkeypatch.setattr(app, "SHUTDOWN_WAIT", 0.5)
    monkeypatch.setattr(app, "STUCK_NAMED", named)
    server = GameServer(ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "g.db")))
    forever = asyncio.Event()

    async def never_returns(ws: Any) -> None:
        await forever.wait()

    server._handle = never_returns  # type: ignore[method-assign]
    await server.start()
    try:
        async with connect(f"ws://127.0.0.1:{server.port}/") as ws:
            with caplog.at_level(logging.ERROR, logger="gridhall.server"):
                await asyncio.wait_for(server.close(), DEADLINE)
            code, _ = await closed_with(ws)
        assert code == 1012
        stuck = [r.getMessage() for r in caplog.records if app.STOP_CUT_SHORT in r.getMessage()]
        assert len(stuck) == 1, stuck
        if named == 1:  # (the test's own task, the client's and the handler's at least)
            assert re.search(r"running: [^;]+; and [1-9][0-9]* more$", stuck[0]), stuck
        else:
            assert "never_returns (test_stop_order_e2e.py" in stuck[0], stuck
    finally:
        forever.set()
