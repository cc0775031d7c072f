"""Room events that change nothing on the board (chat, a notice, play-again) leave the
terminal client's board alone (rendering a 200 x 200 field takes half a second); a move
that changes the board still redraws it."""

from __future__ import annotations

from typing import Any

from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.boards import Board
from tests.client.test_client_tui import FAST, SIZE
from tests.client.test_client_untrusted_text import toasts
from tests.hostile import gomoku_state, hostile_server
from tests.waiting import ui_until


def mines(rows: list[str]) -> dict[str, Any]:
    return {"width": len(rows[0]), "height": len(rows), "mines": 10, "rows": rows}


async def test_events_that_change_nothing_drawn_leave_the_board_and_a_move_redraws_it() -> None:
    hidden = ["#" * 30] * 16
    async with hostile_server() as hostile:
        hostile.room_state = {
            **gomoku_state(),
            "game": "minesweeper",
            "options": {},
            "view": mines(hidden),
        }
        app = GridhallApp(hostile.url, "me", backoff=FAST)
        async with app.run_test(size=SIZE) as pilot:
            await ui_until(pilot, lambda: app.session.connected)
            app.session.submit("join-room", room="EV1L00")
            # The room screen is pushed before it is composed: wait for its board.
            await ui_until(pilot, lambda: app.screen is app.room_screen and app.screen.query(Board))
            board = app.screen.query_one(Board)
            await ui_until(pilot, lambda: board.room is app.session.room)
            await pilot.pause()
            renders: list[int] = []
            render = board.render

            def counted() -> Any:
                renders.append(1)
                return render()

            board.render = counted  # type: ignore[method-assign]
            for n in range(3):  # a chat line, a game's notice, a request for another game
                await hostile.push(
                    {
                        "type": "chat",
                        "from": "p-them",
                        "name": "them",
                        "text": f"line {n}",
                        "ts": 2.0,
                    }
                )
                await hostile.push({"type": "notice", "event": f"notice-{n}"})
                await hostile.push({"type": "play-again", "from": "p-them"})
            await ui_until(pilot, lambda: sum("Notice 2" in t for t in toasts(app)) == 1)
            await ui_until(pilot, lambda: board.room is app.session.room)
            await pilot.pause()
            assert renders == []
            opened = ["0" + "#" * 29, *hidden[1:]]
            await hostile.push(
                {
                    "type": "moved",
                    "by": "p-them",
                    "turn": None,
                    "move": {"action": "reveal", "x": 0, "y": 0},
                    "view": mines(opened),
                }
            )
            await ui_until(pilot, lambda: bool(renders))
