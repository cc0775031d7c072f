"""The terminal client while its node is gone: the header says which node it is
reconnecting to, and says so when it gives up."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from gridhall.client.failover import gave_up_text
from gridhall.client.messages import Connection
from gridhall.client.tui.events import ServerEvent
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.client.test_client_tui import apps
from tests.conftest import url_of
from tests.waiting import ui_until


@asynccontextmanager
async def silent_node() -> AsyncIterator[str]:
    """A loopback address that accepts TCP connections and never answers a handshake:
    a client trying it stays on it until its open timeout."""
    held: list[asyncio.StreamWriter] = []

    async def hold(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    try:
        yield f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
    finally:
        for writer in held:
            writer.close()
        server.close()


async def test_the_header_names_the_node_being_tried(tmp_path: Path) -> None:
    async with silent_node() as other:
        node = GameServer(
            ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "a.db"), peers=(other,))
        )
        await node.start()
        try:
            async with apps(url_of(node), "ann") as [(app, pilot)]:
                app.session.open_timeout = 120  # it waits on the silent node meanwhile
                await node.close()
                await ui_until(pilot, lambda: f"Reconnecting to {other}" in app.sub_title)
        finally:
            await node.close()


async def test_the_header_and_a_notice_say_when_it_gave_up(server_url: str) -> None:
    async with apps(server_url, "ann") as [(app, pilot)]:
        app.post_message(ServerEvent(Connection("gave-up", attempt=6, count=3)))
        await ui_until(pilot, lambda: gave_up_text(3) in app.sub_title)
        assert any(gave_up_text(3) in str(n.message) for n in app._notifications)
