"""The window client's connect screen: the servers found on this network (127.0.0.1
here) are listed, one is joined by a click on *Join*, and the same window goes on
to that server's lobby."""

from __future__ import annotations

import gc
import tkinter as tk
import uuid

import pytest

from gridhall.client.discovery import Browser
from gridhall.client.tk import theme
from gridhall.client.tk.app import TkApp
from gridhall.client.tk.connect import ConnectFrame, ask_server
from gridhall.protocol.address import server_url
from gridhall.server.io.lan.discovery import Advertiser
from tests.tk.driver import FAST, WAIT, Pump, ServerThread, press, screenshot_root


async def _advertise(name: str, port: int) -> Advertiser:
    advertiser = Advertiser(name, port, ["127.0.0.1"])
    advertiser.start()
    return advertiser


@pytest.mark.usefixtures("loopback_multicast")
def test_connect_screen_lists_the_server_and_join_opens_its_lobby(
    xvfb: str, server: ServerThread, pump: Pump
) -> None:
    # The connect screen's Tk variables become garbage once it closes; an automatic
    # collection in the server's or the browser's thread would free them there, and
    # Tcl refuses calls from another thread. So no automatic collection meanwhile:
    # they are freed here, on the main thread, once the window is out of scope.
    gc.disable()
    try:
        _join_from_the_connect_screen(server, pump)
    finally:
        pump.apps.clear()
        gc.collect()
        gc.enable()


def _join_from_the_connect_screen(server: ServerThread, pump: Pump) -> None:
    """The test's body, in its own frame so nothing of the window outlives it."""
    name = f"Kitchen hall {uuid.uuid4().hex[:4]}"
    advertiser = server.call(_advertise(name, server.server.port))
    root = tk.Tk(className="gridhall")
    theme.apply(root)
    seen: list[str] = []

    def join_when_listed(started: float = 0.0) -> None:
        """Runs inside the connect screen's wait: pick the server once it is listed."""
        frame = next(w for w in root.winfo_children() if isinstance(w, ConnectFrame))
        if any(s.name == name for s in frame.found):
            key = next(s.key for s in frame.found if s.name == name)
            seen.extend(frame.table.item(key, "values"))
            screenshot_root(root, "connect")
            frame.table.selection_set(key)
            press(frame.join_button)
        else:
            root.after(50, join_when_listed)

    def give_up() -> None:
        """The failure guard: end the wait as if nothing was chosen in time."""
        frame = next(w for w in root.winfo_children() if isinstance(w, ConnectFrame))
        frame.choose("nothing listed in time")

    root.after(50, join_when_listed)
    guard = root.after(int(WAIT * 1000), give_up)
    try:
        chosen = ask_server(root, "localhost:8765", Browser(interfaces=["127.0.0.1"]))
        root.after_cancel(guard)
        assert chosen == f"127.0.0.1:{server.server.port}"
        assert list(seen) == [name, chosen, "0"]
        app = TkApp(server_url(chosen), "Ann", root=root, backoff=FAST)
        pump.apps.append(app)
        app.start()
        pump.until(lambda: app.bridge.latest.connected, "the lobby of the chosen server")
        assert app.lobby.winfo_manager() == "pack"
        app.close()
    finally:
        server.call(advertiser.close())
