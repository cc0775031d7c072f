"""The Python clients' replay viewer: what a key press costs on a big game.

For a full 15x15 Gomoku game, a 100x100 co-op Minesweeper game (thousands of
actions, several pages) and a 4-racer Link-match race, as the server pages them
(``server/io/replays.py``), the terminal client's work per key:

- ``open``: fold the answer to its last frame and draw it (the replay opens on the end);
- ``back``: one step back from the end, drawn (``Left``); the viewer keeps a view every
  50 frames, against the baseline of folding from the start (no kept views);
- ``jump``: to the middle (``g``), drawn;
- ``owners`` (Minesweeper): who opened each cell, worked out once for the whole game.

Run: ``.venv/bin/python bench/bench_replay_client.py``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_history import gomoku_record, linkmatch_record, minesweeper_record  # noqa: E402
from rich.text import Text  # noqa: E402

from gridhall.client.replays import ReplayPlayer, frame_room  # noqa: E402
from gridhall.client.tui.boards import board_for  # noqa: E402
from gridhall.client.views import view_for  # noqa: E402
from gridhall.client.views.minesweeper import replay_owners  # noqa: E402
from gridhall.protocol.replay import Replay  # noqa: E402
from gridhall.server.io import replays  # noqa: E402


def render(player: ReplayPlayer) -> list[Text]:
    """The shown step as the terminal's replay screen draws it: the game's live board
    widget per frame the game's view gives, with the frame's decoration."""
    drawn = []
    for frame in view_for(player.game).replay_frames(player):
        board = board_for(player.game)()
        board.frame = frame
        board.room = frame_room(player, frame)
        drawn.append(board.render())
    return drawn


def answer(game: str, record: dict[str, Any]) -> dict[str, Any]:
    """The whole game as one ``replay`` answer (its pages joined)."""
    first = replays.page(game, record)
    steps = list(first.steps)
    at = first.next
    while at is not None:
        more = replays.page(game, record, at)
        steps += more.steps
        at = more.next
    ids = record.get("players") or list(record.get("colors") or {}) or ["p1", "p2"]
    players = [{"player": p, "name": p, "seat": i} for i, p in enumerate(ids)]
    return {
        "game_id": 1,
        "game": game,
        "options": record["options"],
        "players": players,
        "result": {},
        "start": first.start,
        "steps": steps,
    }


def ms(fn: Any) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def bench(game: str, record: dict[str, Any]) -> None:
    data = answer(game, record)
    n = len(data["steps"])
    player = ReplayPlayer(data)

    def open_end() -> None:
        fresh = ReplayPlayer(data)
        fresh.go(fresh.count)
        render(fresh)

    opened = ms(open_end)
    owners = ms(lambda: replay_owners(player)) if game == "minesweeper" else 0.0
    player.go(player.count)
    player.view()
    back = ms(lambda: (player.back(), render(player)))
    jump = ms(lambda: (player.go(n // 2), render(player)))
    naive = Replay(data["start"], data["steps"], every=10**9)
    naive.view(n)
    baseline = ms(lambda: naive.view(n - 1))
    folds = ms(lambda: player.frame(n - 2))
    print(
        f"{game:12} {n:5} steps  open {opened:7.1f} ms  back {back:6.1f} ms  "
        f"jump {jump:6.1f} ms  owners {owners:7.1f} ms  "
        f"back-fold {folds:6.2f} ms vs from the start {baseline:7.2f} ms "
        f"(x{baseline / max(folds, 1e-3):.0f})"
    )


def main() -> None:
    bench("gomoku", gomoku_record())
    bench("minesweeper", minesweeper_record())
    bench("linkmatch", linkmatch_record())


if __name__ == "__main__":
    main()
