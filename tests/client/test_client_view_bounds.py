"""A board beyond the protocol's sizes is refused with a sentence and the client leaves
the room; it is never drawn (a 100000-wide Gomoku board hung the terminal client, a
huge Minesweeper board raised MemoryError)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from gridhall.client.messages import Refused
from gridhall.client.session import Session
from gridhall.client.tui.app import GridhallApp
from tests.client.test_client_tui import FAST, SIZE
from tests.client.test_client_untrusted_text import toasts
from tests.hostile import gomoku_state, hostile_server
from tests.waiting import ui_until
from tests.waiting import until as wait_for

BIG_BOARDS: dict[str, Callable[[], dict[str, Any]]] = {
    "gomoku": lambda: gomoku_state(size=100_000),
    "minesweeper": lambda: {
        **gomoku_state(),
        "game": "minesweeper",
        "options": {},
        "view": {"width": 100_000, "height": 100_000, "mines": 1, "rows": []},
    },
    "linkmatch": lambda: {
        **gomoku_state(),
        "game": "linkmatch",
        "options": {},
        "view": {"width": 30, "height": 5_000, "rows": []},
    },
}


@pytest.mark.parametrize("game", list(BIG_BOARDS))
async def test_a_session_refuses_a_board_beyond_the_protocol_and_leaves(game: str) -> None:
    async with hostile_server() as hostile:
        hostile.room_state = BIG_BOARDS[game]()
        session = Session(hostile.url, "me", backoff=FAST)
        seen: list[Any] = []
        session.add_listener(seen.append)
        runner = asyncio.get_running_loop().create_task(session.run())
        try:
            await wait_for(lambda: session.connected)
            await session.send({"type": "join-room", "room": "EV1L00"})
            await wait_for(lambda: any(isinstance(m, Refused) for m in seen))
            refused = next(m for m in seen if isinstance(m, Refused))
            assert refused.code == "bad-view" and "allows" in refused.message
            assert session.room is None
            await wait_for(lambda: any(r.get("type") == "leave-room" for r in hostile.requests))
        finally:
            await session.close()
            await runner


async def test_the_terminal_client_says_so_and_stays_in_the_lobby() -> None:
    async with hostile_server() as server:
        server.room_state = BIG_BOARDS["gomoku"]()
        app = GridhallApp(server.url, "me", backoff=FAST)
        async with app.run_test(size=SIZE) as pilot:
            await ui_until(pilot, lambda: app.session.connected)
            app.session.submit("join-room", room="EV1L00")
            await ui_until(pilot, lambda: any("at most 19" in t for t in toasts(app)))
            assert app.room_screen is None and app.screen is app.lobby and app.is_running


def test_boards_within_the_protocol_fold_and_a_move_beyond_it_is_refused() -> None:
    from gridhall import protocol as p
    from gridhall.client.room import apply
    from tests.client.helpers import make_state

    largest = [
        ("gomoku", {"size": 19}),
        ("minesweeper", {"width": 200, "height": 200}),
        ("linkmatch", {"width": 30, "height": 16}),
        ("newgame", {"width": 10**9}),
    ]
    for game, view in largest:
        assert apply(None, make_state(game, view=view), "a", 0.0).refused is None
    copy = apply(None, make_state("gomoku", view={"size": 15, "moves": []}), "a", 0.0).room
    assert copy is not None
    moved = p.Moved(
        room=copy.room,
        seq=copy.seq + 1,
        by="b",
        move={"x": 0, "y": 0},
        view={"size": 15, "moves": [[0, 0]] * 226},
    )
    applied = apply(copy, moved, "a", 0.0)
    assert applied.refused is not None and "226 moves" in applied.refused
    assert applied.room is not None and applied.room.state is copy.state  # nothing folded in
    bad = make_state("minesweeper", view={"width": "100000", "height": 9})
    assert "at most 200" in str(apply(None, bad, "a", 0.0).refused)
