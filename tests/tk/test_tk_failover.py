"""The Tk client while its node is gone: the connection bar names the node it is
reconnecting to, and says when it gave up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from gridhall.client.failover import gave_up_text
from gridhall.client.messages import Connection
from gridhall.client.tk.app import TkApp
from tests.tk.driver import Pump, ServerThread

HELD: list[asyncio.StreamWriter] = []


async def _silent_node() -> tuple[asyncio.Server, str]:
    """A loopback address that accepts TCP connections and never answers a handshake."""

    async def hold(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        HELD.append(writer)  # keep it open, say nothing

    silent = await asyncio.start_server(hold, "127.0.0.1", 0)
    return silent, f"ws://127.0.0.1:{silent.sockets[0].getsockname()[1]}/"


async def _close(silent: asyncio.Server) -> None:
    for writer in HELD:
        writer.close()
    HELD.clear()
    silent.close()


def test_the_connection_bar_names_the_node_being_tried(
    make_app: Callable[[str], TkApp], server: ServerThread, pump: Pump
) -> None:
    silent, other = server.call(_silent_node())
    server.inspect(lambda: setattr(server.server.hub.nodes, "peers", (other,)))
    try:
        ann = make_app("Ann")
        assert ann.session.nodes == [server.url, other]
        ann.session.open_timeout = 120  # it waits on the silent node meanwhile
        server.call(server.server.close())
        pump.until(
            lambda: f"Reconnecting to {other}" in str(ann.connection.cget("text")),
            "the bar to name the other node",
        )
        assert ann.reconnect.winfo_manager()  # and the "Reconnect now" button shows
    finally:
        server.call(_close(silent))


def test_the_connection_bar_says_when_it_gave_up(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    ann = make_app("Ann")
    ann.on_message(Connection("gave-up", attempt=6, count=3), ann.bridge.latest)
    assert gave_up_text(3) in str(ann.connection.cget("text"))
    assert ann.reconnect.winfo_manager()
