"""Fixtures for the Tk client tests: a private Xvfb display, a server thread,
windows, and a raw opponent. Tests never skip for want of a display: they start
one, and fail with a clear message when Xvfb is not installed."""

from __future__ import annotations

import contextlib
import gc
import os
import select
import shutil
import subprocess
import tkinter as tk
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gridhall.client.tk.app import TkApp
from tests.tk.driver import FAST, Opponent, Pump, ServerThread

SCREEN = "1280x900x24"


@pytest.fixture(autouse=True)
def tk_garbage_here() -> Iterator[None]:
    """After every Tk test (its last teardown: autouse fixtures are set up first), its
    garbage is freed on this, the main thread. A window a test made itself leaves
    cycles with Tk variables in them; freed by a later collection in another test's
    network thread, Tcl refused it ("main thread is not in main loop")."""
    yield
    gc.collect()


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``Xvfb`` on a free display (it picks one with ``-displayfd``), point
    ``DISPLAY`` at it for the session, and stop it afterwards."""
    binary = shutil.which("Xvfb")
    if binary is None:
        pytest.fail("Xvfb is not installed; the Tk tests need it (apt-get install xvfb)")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        [binary, "-displayfd", str(write_fd), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write_fd,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    os.close(write_fd)
    number = b""
    try:
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_fd], [], [], 30)
            chunk = os.read(read_fd, 16) if ready else b""
            if not chunk:
                err = (
                    proc.stderr.read().decode(errors="replace")
                    if proc.poll() is not None and proc.stderr
                    else ""
                )
                pytest.fail(f"Xvfb did not report a display number. {err}")
            number += chunk
    finally:
        os.close(read_fd)
    display = f":{int(number)}"
    old = {k: os.environ.get(k) for k in ("DISPLAY", "GRIDHALL_TK_TMP")}
    os.environ["DISPLAY"] = display
    os.environ["GRIDHALL_TK_TMP"] = str(tmp_path_factory.mktemp("screenshots"))
    try:
        yield display
    finally:
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ServerThread]:
    """A real server on port 0, running in a background thread (overrides the
    async fixture of the same name: the main thread belongs to Tk here). A test's
    ``@pytest.mark.server_config(...)`` sets its configuration.

    No automatic garbage collection meanwhile: one could run in the server's thread (or
    a window's network thread) and free a Tk variable or window there, which Tcl
    refuses (a warning, or the process aborts); what became garbage is freed here, on
    the main thread, once the server stopped."""
    marker = request.node.get_closest_marker("server_config")
    gc.disable()
    try:
        srv = ServerThread(tmp_path / "gridhall.db", **(marker.kwargs if marker else {}))
        yield srv
        srv.stop()
    finally:
        gc.collect()
        gc.enable()


@pytest.fixture
def pump() -> Pump:
    return Pump()


@pytest.fixture
def make_app(xvfb: str, server: ServerThread, pump: Pump) -> Iterator[Callable[[str], TkApp]]:
    """Factory: a connected Tk client window named ``name``."""
    apps: list[TkApp] = []

    def make(name: str) -> TkApp:
        app = TkApp(server.url, name, root=tk.Tk(className="gridhall"), backoff=FAST)
        apps.append(app)
        pump.apps.append(app)
        app.start()
        pump.until(lambda: app.bridge.latest.connected, f"{name} to connect")
        return app

    yield make
    for app in apps:
        with contextlib.suppress(Exception):
            app.close()
    pump.apps.clear()
    apps.clear()
    gc.collect()  # Tk variables must die on this thread, not in a network thread's GC


@pytest.fixture
def make_opponent(server: ServerThread, pump: Pump) -> Iterator[Callable[[str], Opponent]]:
    """Factory: a welcomed raw protocol client, driven synchronously."""
    made: list[Opponent] = []

    def make(name: str) -> Opponent:
        opp = Opponent(server, pump, name)
        made.append(opp)
        return opp

    yield make
    for opp in made:
        opp.close()
