"""Piskvork brains as Gomoku's computer levels (``GameSpec.engines``): each engine is
run through the same code as ``gridhall-bridge`` (:class:`~.engine.PbrainEngine`).

At start the server probes every one (START, ABOUT) with a timeout, without blocking
the event loop (:meth:`PiskvorkBrains.probe`). Its moves are thought in the worker pool
like the built-in computer's: :func:`think` runs in a worker, which keeps one engine
process per command, board size and rule for the moves to come (every move resends the
whole position), tells it the move's time and what is left of the room's clock (INFO
``timeout_turn``, ``time_left``), and falls back on the hard engine if the external one
fails, so a game never waits forever.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
from typing import Any

from ...base import JSON
from ...engines import EngineBridge
from ..ai import choose_move
from ..ai.position import Position
from .engine import PbrainEngine, PbrainError

PROBE_SIZE = 15


class PiskvorkBrains(EngineBridge):
    """Gomocup brains (``pbrain-*``) as computer levels."""

    about = "Gomocup"

    async def probe(self, argv: tuple[str, ...], timeout: float) -> str | None:
        try:
            async with asyncio.timeout(timeout):
                engine = await PbrainEngine.start(list(argv), PROBE_SIZE, "freestyle", 1000)
                try:
                    await engine.about(timeout)
                finally:
                    await engine.close()
        except TimeoutError:
            return f"no answer within {timeout:g} s"
        except PbrainError as exc:
            return str(exc)
        except (OSError, ValueError) as exc:
            return f"cannot start it: {exc}"
        return None

    def think(self, argv: tuple[str, ...], request: JSON, budget: float) -> JSON:
        return think(argv, request, budget)


# -- worker side ---------------------------------------------------------------------------
_loop: asyncio.AbstractEventLoop | None = None
_engines: dict[tuple[tuple[str, ...], int, str], PbrainEngine] = {}
"""Worker-side: the running engine processes, by (command, size, rule)."""


def _run(coro: Any) -> Any:
    """Run ``coro`` on this worker's own event loop (kept for the engines' pipes)."""
    global _loop
    if _loop is None:
        _loop = asyncio.new_event_loop()
        atexit.register(_close_all)
    return _loop.run_until_complete(coro)


def _close_all() -> None:
    for engine in list(_engines.values()):
        with contextlib.suppress(Exception):
            _run(engine.close(0.2))
    _engines.clear()


async def _move(
    argv: tuple[str, ...],
    moves: list[tuple[int, int]],
    size: int,
    rule: str,
    turn_ms: int,
    left_ms: int | None,
) -> tuple[int, int]:
    key = (argv, size, rule)
    engine = _engines.get(key)
    if engine is None or engine.proc.returncode is not None:
        engine = await PbrainEngine.start(list(argv), size, rule, turn_ms)
        _engines[key] = engine
    try:
        await engine.set_time(turn_ms, left_ms)
        return await engine.move(moves)
    except BaseException:
        _engines.pop(key, None)
        await engine.close(0.2)
        raise


def think(argv: tuple[str, ...], request: dict[str, Any], budget: float) -> dict[str, int]:
    """Worker-side entry point: the engine's move for the Gomoku ``request`` (the
    room's moves, size, rule and the mover's clock), within ``budget`` seconds a
    move; the hard engine's move when the external one fails."""
    moves = [(int(x), int(y)) for x, y in request["moves"]]
    size, rule = int(request["size"]), str(request["rule"])
    left = request.get("time_left")
    left_ms = None if left is None else max(0, int(float(left) * 1000))
    turn_ms = max(50, int(budget * 1000))
    if left_ms is not None:
        turn_ms = max(50, min(turn_ms, left_ms))
    try:
        x, y = _run(_move(argv, moves, size, rule, turn_ms, left_ms))
        if rule == "renju" and not _legal(moves, size, rule, (x, y)):
            raise PbrainError(f"engine played a renju foul at {x},{y}")
    except (PbrainError, OSError, ValueError):
        x, y = choose_move(moves, size, rule, "hard", min(budget, turn_ms / 1000))
    return {"x": x, "y": y}


def _legal(moves: list[tuple[int, int]], size: int, rule: str, point: tuple[int, int]) -> bool:
    """Not a foul for the side to move (the room would refuse it and the seat would
    never move again)."""
    pos = Position(size, rule, moves)
    return pos.legal(pos.to_move, pos.grid.index(*point))
