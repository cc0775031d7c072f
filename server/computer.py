"""Computer players: search runs in worker processes, never on the event loop."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING

from gridhall.protocol import ProtocolError

from .identity import Identity

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("gridhall.computer")

DEFAULT_BUDGET = 2.0


def gomoku_move(moves: list[tuple[int, int]], size: int, rule: str, level: str,
                budget: float) -> tuple[int, int]:
    """Worker-side entry point (module level, so a process pool can pickle it)."""
    from .games.gomoku.ai import choose_move

    return choose_move(moves, size, rule, level, budget)


class Computers:
    """Schedules one move at a time for each computer seat."""

    def __init__(self, workers: int, budget: float = DEFAULT_BUDGET) -> None:
        self.workers = workers
        self.budget = budget
        self._pool: Executor | None = None
        self._busy: dict[str, asyncio.Task[None]] = {}

    @property
    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        return self._pool

    def schedule(self, room: Room, bot: Identity) -> None:
        if bot.id in self._busy:
            return
        task = asyncio.get_running_loop().create_task(self._play(room, bot))
        self._busy[bot.id] = task
        task.add_done_callback(lambda _t: self._busy.pop(bot.id, None))

    async def _play(self, room: Room, bot: Identity) -> None:
        """Think, then move if the position is still the one thought about."""
        loop = asyncio.get_running_loop()
        while True:
            game = room.game
            if room.closed or game is None or game.result is not None or game.turn() != bot.id:
                return
            view = game.view(bot.id)
            moves = [(int(x), int(y)) for x, y in view["moves"]]
            try:
                x, y = await loop.run_in_executor(self.pool, gomoku_move, moves, view["size"],
                                                  view["rule"], bot.bot or "easy", self.budget)
            except Exception:
                log.exception("room %s: the computer failed to find a move", room.code)
                return
            if room.game is game and game.view(bot.id)["moves"] == view["moves"]:
                break  # otherwise a take-back changed the board while it thought: think again
        try:
            room.move(bot, {"x": x, "y": y}, None)
        except ProtocolError as exc:
            log.error("room %s: the computer's move was refused: %s", room.code, exc.message)

    def close(self) -> None:
        for task in self._busy.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
