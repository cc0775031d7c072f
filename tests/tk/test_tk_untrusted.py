"""The Tk window against a hostile server: names, chat, errors and the server's name
shown without control characters; a board beyond the protocol refused; and a chat
line or a move never redraws a whole 200 x 200 field (which kept Tk at 100% CPU)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
import tkinter as tk
from collections.abc import Iterator
from typing import Any

import pytest

from gridhall.client.tk.app import TkApp
from gridhall.client.tk.boards.minesweeper import MinesCanvas
from tests.hostile import EVIL, HostileServer, gomoku_state, has_control, hostile_server
from tests.tk.driver import FAST, Pump


class HostileThread:
    """A :class:`HostileServer` on its own loop in a daemon thread (Tk owns the main one)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.done: asyncio.Event | None = None
        self.server: HostileServer | None = None
        self.thread = threading.Thread(
            target=self.loop.run_until_complete, args=(self._run(),), daemon=True
        )
        self.thread.start()
        assert self.ready.wait(30), "the hostile server did not start"

    async def _run(self) -> None:
        self.done = asyncio.Event()
        async with hostile_server() as server:
            self.server = server
            self.ready.set()
            await self.done.wait()

    @property
    def hostile(self) -> HostileServer:
        assert self.server is not None
        return self.server

    def push(self, msg: dict[str, Any]) -> None:
        asyncio.run_coroutine_threadsafe(self.hostile.push(msg), self.loop).result(30)

    def stop(self) -> None:
        if self.done is not None:
            self.loop.call_soon_threadsafe(self.done.set)
        self.thread.join(10)


@pytest.fixture
def hostile(xvfb: str) -> Iterator[HostileThread]:
    server = HostileThread()
    yield server
    server.stop()


@pytest.fixture
def window(hostile: HostileThread) -> Iterator[tuple[TkApp, Pump]]:
    pump = Pump()
    app = TkApp(hostile.hostile.url, "me", root=tk.Tk(className="gridhall"), backoff=FAST)
    pump.apps.append(app)
    app.start()
    pump.until(lambda: app.bridge.latest.connected, "the window to connect")
    yield app, pump
    with contextlib.suppress(Exception):
        app.close()
    gc.collect()


def texts(widget: tk.Misc) -> list[str]:
    """Every text a widget and its children show (labels, text boxes, tree rows)."""
    found: list[str] = []
    for child in [widget, *_descendants(widget)]:
        with contextlib.suppress(tk.TclError):
            found.append(str(child.cget("text")))
        if isinstance(child, tk.Text):
            found.append(child.get("1.0", "end").replace("\n", " "))
        if child.winfo_class() == "Treeview":
            found += [
                " ".join(map(str, child.item(i, "values")))  # type: ignore[attr-defined]
                for i in child.get_children()
            ]  # type: ignore[attr-defined]
    return found


def _descendants(widget: tk.Misc) -> list[tk.Misc]:
    out: list[tk.Misc] = []
    for child in widget.winfo_children():
        out += [child, *_descendants(child)]
    return out


def test_a_hostile_servers_texts_show_without_control_characters(
    window: tuple[TkApp, Pump], hostile: HostileThread
) -> None:
    app, pump = window
    app.lobby.refresh()
    pump.until(lambda: app.lobby.rooms() == ["EV1L00"], "the hostile room listed")
    shown = texts(app.root)
    assert any("[/]x" in t for t in shown)
    assert not [t for t in shown if has_control(t)]
    app.bridge.submit("join-room", room="EV1L00")
    pump.until(lambda: app.room is not None and app.room.room is not None, "the room screen")
    hostile.push({"type": "chat", "from": "p-them", "name": EVIL, "text": EVIL, "ts": 2.0})
    hostile.push({"type": "play-again", "from": "p-them"})
    hostile.push({"type": "error", "code": "bad-message", "message": EVIL})
    pump.until(lambda: app.room is not None and len(app.room.chat.lines()) >= 2, "the chat")
    pump.until(lambda: len(app.notices) >= 2, "the notices")
    shown = [*texts(app.root), *app.notices, app.root.title()]
    assert any("[/]x" in t for t in shown)
    assert not [t for t in shown if has_control(t)]


def test_a_board_beyond_the_protocol_is_refused_and_the_window_stays_in_the_lobby(
    window: tuple[TkApp, Pump], hostile: HostileThread
) -> None:
    app, pump = window
    hostile.hostile.room_state = gomoku_state(size=100_000)
    app.bridge.submit("join-room", room="EV1L00")
    pump.until(lambda: any("at most 19" in n for n in app.notices), "the refusal")
    assert app.room is None and app.lobby.winfo_manager()


def mines(rows: list[str], **view: Any) -> dict[str, Any]:
    return {
        **gomoku_state(),
        "game": "minesweeper",
        "options": {},
        "view": {"width": len(rows[0]), "height": len(rows), "mines": 10, "rows": rows, **view},
    }


def test_a_chat_line_leaves_the_board_alone_and_a_move_redraws_only_its_cells(
    window: tuple[TkApp, Pump], hostile: HostileThread
) -> None:
    app, pump = window
    hidden = ["#" * 200] * 200
    hostile.hostile.room_state = mines(hidden)
    app.bridge.submit("join-room", room="EV1L00")
    pump.until(
        lambda: (
            app.room is not None
            and isinstance(app.room.board, MinesCanvas)
            and app.room.board.find_withtag("cell-199-199")
        ),
        "the 200 x 200 field",
    )
    assert app.room is not None
    board = app.room.board
    before = set(board.find_all())
    hostile.push({"type": "chat", "from": "p-them", "name": "them", "text": "hi", "ts": 2.0})
    pump.until(
        lambda: app.room is not None and any("hi" in ln for ln in app.room.chat.lines()),
        "the chat line",
    )
    assert set(board.find_all()) == before  # not one item drawn again

    opened = ["0" + "#" * 199, *hidden[1:]]
    kept = set(board.find_all()) - set(board.find_withtag("cell-0-0"))
    hostile.push(
        {
            "type": "moved",
            "by": "p-them",
            "move": {"action": "reveal", "x": 0, "y": 0},
            "view": mines(opened, revealed=1)["view"],
            "turn": None,
        }
    )
    pump.until(lambda: snap_rows(app)[0][0] == "0", "the move")
    pump.once()
    assert kept <= set(board.find_all())  # every other cell's items stayed
    assert board.find_withtag("cell-0-0")


def snap_rows(app: TkApp) -> list[str]:
    room = app.bridge.latest.room
    state = room.state if room else None
    return [str(r) for r in state.view.get("rows", [])] if state else [""]
