"""Both clients side by side in one room: the Tk window and the terminal client
(Textual, headless) play Gomoku moves and chat with each other.

The server and the Textual app share the test's event loop on the main thread;
Tk also lives on the main thread and is pumped between awaits.
"""

from __future__ import annotations

import asyncio
import tkinter as tk
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from gridhall.client.tk.app import TkApp
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.boards import Board
from gridhall.protocol.schema import to_map
from tests.tk.driver import FAST, click, press, room_state, snap
from tests.waiting import STEP, until


def tui_state(app: GridhallApp) -> dict[str, Any]:
    """The terminal client's copy of the room as the wire map (``{}`` in the lobby)."""
    state = app.session.state
    return to_map(state) if state is not None else {}


async def both_until(root: tk.Tk, pilot: Pilot[Any], cond: Callable[[], object], what: str) -> None:
    """:func:`tests.waiting.until`, running both UIs between looks: Tk's, the terminal's."""

    async def step() -> None:
        root.update()
        await pilot.pause(STEP)

    await until(cond, what, step=step)


async def test_tk_and_terminal_clients_play_and_chat_in_one_room(
    xvfb: str,
    make_server: Callable[..., Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path / "config"))
    server = await make_server()
    url = f"ws://127.0.0.1:{server.port}/"
    tk_app = TkApp(url, "Ann", root=tk.Tk(className="gridhall"), backoff=FAST)
    tui = GridhallApp(url, "Tess", backoff=FAST)
    tk_app.start()
    try:
        async with tui.run_test(size=(120, 40)) as pilot:
            root = tk_app.root
            await both_until(root, pilot, lambda: snap(tk_app).connected, "Tk connected")
            await both_until(root, pilot, lambda: tui.session.connected, "TUI connected")
            tk_app.lobby.choose("gomoku", 0)
            press(tk_app.lobby.create_button)
            await both_until(root, pilot, lambda: snap(tk_app).room is not None, "Tk's room")
            code = snap(tk_app).room.room  # type: ignore[union-attr]

            await pilot.click("#code")
            tui.lobby.query_one("#code", Input).value = ""  # a highlighted row may have filled it
            await pilot.press(*code, "enter")  # the terminal client joins by typing the code
            await both_until(
                root,
                pilot,
                lambda: room_state(tk_app).get("status") == "playing",
                "the game to start",
            )
            assert tk_app.room is not None
            board = tk_app.room.board
            click(board, *board.pixel_of(7, 7))  # Tk plays black
            await both_until(
                root,
                pilot,
                lambda: tui_state(tui).get("view", {}).get("moves") == [[7, 7]],
                "Tk's stone in the terminal",
            )
            # The terminal client answers with a click on its own board, once it shows the stone.
            await both_until(
                root,
                pilot,
                lambda: (
                    bool(tui.screen.query(Board))
                    and tui.screen.query(Board).first().room is tui.session.room
                ),
                "the terminal's board redrawn",
            )
            assert await pilot.click("#board", offset=(1 + 3 + 2 * 8, 1 + 1 + 8))
            await both_until(
                root,
                pilot,
                lambda: room_state(tk_app)["view"]["moves"] == [[7, 7], [8, 8]],
                "the terminal's stone in Tk",
            )

            await pilot.click("#chat-input")
            await pilot.press(*"hello tk", "enter")
            await both_until(
                root,
                pilot,
                lambda: any("Tess: hello tk" in ln for ln in tk_app.room.chat.lines()),  # type: ignore[union-attr]
                "the terminal's chat in Tk",
            )
            tk_app.room.chat.entry.insert(0, "hi from Tk")
            tk_app.room.chat.send_button.invoke()
            await both_until(
                root,
                pilot,
                lambda: any(c.get("text") == "hi from Tk" for c in tui_state(tui).get("chat", [])),
                "Tk's chat in the terminal",
            )
    finally:
        loop = tk_app.session.loop
        if loop is not None:  # close while this loop still serves the server's side
            await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(tk_app.session.close(), loop)
            )
        tk_app.close()
