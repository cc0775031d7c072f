"""Driving the real Tk window from a test without threads touching Tk.

The main thread owns Tk and pumps ``root.update()``; the server and the raw
opponent client share one asyncio loop in a background thread. Waiting always
pumps Tk, so the window stays live while the test waits on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import tkinter as tk
from collections.abc import Callable, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from gridhall.client.session import Backoff
from gridhall.client.tk.app import TkApp
from gridhall.client.tk.bridge import Snapshot
from gridhall.protocol.schema import to_map
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient

T = TypeVar("T")
WAIT = 30.0
"""Seconds before a wait gives up: a failure guard, never a timing assertion."""
FAST = Backoff(first=0.05, cap=0.5)


class ServerThread:
    """A real GameServer on 127.0.0.1 port 0, on its own loop in a daemon thread."""

    def __init__(self, db: Path, **config: Any) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="test-server", daemon=True
        )
        self.thread.start()
        self.server: GameServer = self.call(self._start(db, config))
        self.url = f"ws://127.0.0.1:{self.server.port}/"

    @staticmethod
    async def _start(db: Path, config: dict[str, Any]) -> GameServer:
        server = GameServer(
            ServerConfig(**{"host": "127.0.0.1", "port": 0, "db": str(db), **config})
        )
        await server.start()
        return server

    def submit(self, coro: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = WAIT) -> T:
        """Run a coroutine on the server's loop and wait (Tk is not pumped)."""
        return self.submit(coro).result(timeout)

    def inspect(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the server's loop, so server objects are read between events."""

        async def run() -> T:
            return fn()

        return self.call(run())

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.call(self.server.close(), timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
        if not self.loop.is_running():
            self.loop.close()


class Pump:
    """Keeps every open window responsive while a test waits."""

    def __init__(self) -> None:
        self.apps: list[TkApp] = []

    def once(self) -> None:
        for app in self.apps:
            with contextlib.suppress(tk.TclError):
                app.root.update()

    def until(self, cond: Callable[[], object], what: str, timeout: float = WAIT) -> None:
        """Pump Tk until ``cond()`` holds; fail with ``what`` after ``timeout``."""
        end = time.monotonic() + timeout
        while True:
            self.once()
            if cond():
                return
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for: {what}")
            time.sleep(0.01)

    def result(self, future: Future[T], what: str, timeout: float = WAIT) -> T:
        """Pump Tk until a background future is done, then return its result."""
        self.until(future.done, what, timeout)
        return future.result()


class Opponent:
    """A raw protocol client (tests/wsclient.py) with blocking calls that pump Tk."""

    def __init__(self, server: ServerThread, pump: Pump, name: str) -> None:
        self.server, self.pump = server, pump
        self._stack = contextlib.AsyncExitStack()
        self.client: WsClient = server.call(self._open(name))
        self.player = self.client.player

    async def _open(self, name: str) -> WsClient:
        return await self._stack.enter_async_context(WsClient.connect(self.server.url, name))

    def send(self, type_: str, **fields: Any) -> None:
        self.server.call(self.client.send(type_, **fields))

    def expect(self, type_: str, **match: Any) -> dict[str, Any]:
        """Wait (pumping Tk) for a message of ``type_`` whose fields equal ``match``."""
        future = self.server.submit(self.client.expect(type_, timeout=WAIT, **match))
        return self.pump.result(future, f"{self.client.player} to get {type_} {match}")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.server.call(self._stack.aclose(), timeout=5)


def snap(app: TkApp) -> Snapshot:
    """What the window knows now (the latest snapshot the bridge handed over)."""
    return app.bridge.latest


def room_state(app: TkApp) -> dict[str, Any]:
    """What the window knows of the room, as the wire map (``{}`` in the lobby)."""
    room = snap(app).room
    return to_map(room.state) if room is not None and room.state is not None else {}


def click(widget: tk.Misc, x: int, y: int, button: int = 1) -> None:
    """A real press and release at widget pixel (x, y), as the mouse would make."""
    widget.event_generate("<Motion>", x=x, y=y, warp=False)
    widget.event_generate(f"<ButtonPress-{button}>", x=x, y=y)
    widget.event_generate(f"<ButtonRelease-{button}>", x=x, y=y)


def press(button: tk.Misc) -> None:
    """Click a ttk button in its middle (enter, press, release)."""
    button.update_idletasks()
    x, y = button.winfo_width() // 2, button.winfo_height() // 2
    button.event_generate("<Enter>", x=x, y=y)
    click(button, x, y)


def screenshot(app: TkApp, name: str) -> Path:
    """Save the window as ``name``.png in $GRIDHALL_SCREENSHOTS (or a temp dir)."""
    return screenshot_root(app.root, name)


def screenshot_root(root: tk.Tk, name: str) -> Path:
    """Save the window ``root`` as ``name``.png (see :func:`screenshot`)."""
    from PIL import ImageGrab

    root.lift()  # windows overlap on the bare Xvfb screen: bring this one to the top
    for _ in range(3):
        root.update()
        time.sleep(0.05)
    out = Path(os.environ.get("GRIDHALL_SCREENSHOTS") or Path(os.environ["GRIDHALL_TK_TMP"]))
    out.mkdir(parents=True, exist_ok=True)
    x, y = root.winfo_rootx(), root.winfo_rooty()
    box = (x, y, x + root.winfo_width(), y + root.winfo_height())
    image = ImageGrab.grab(bbox=box, xdisplay=os.environ["DISPLAY"])
    path = out / f"{name}.png"
    image.save(path)
    return path
