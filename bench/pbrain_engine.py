"""Any Piskvork/Gomocup (pbrain) engine as a bench opponent: `pbrain:COMMAND`.

    nice -n 10 .venv/bin/python bench/bench_gomoku_engines.py \\
        --engines pbrain:/work/rapfi-src/Rapfi/build/pbrain-rapfi --games 15 --jobs 1

The engine runs as a child of the match worker, driven by the project's own
pbrain protocol code (server/games/gomoku/piskvork/engine.py, the code `gridhall-bridge`
and `--engine` use) on a private event loop. It is told `timeout_turn` = the
move budget and keeps its own time; the harness still charges the move (on the
cpu clock: the CPU time of the worker and its engine child together, see
gomoku_match.cpu_seconds). Its fallback, played if it overruns, is the free
point nearest the last move. Freestyle 15x15, like every bench opponent.
"""

from __future__ import annotations

import asyncio
import shlex
import shutil
from pathlib import Path

from gomoku_engines import SIZE, Engine, EngineSpec, Point

PREFIX = "pbrain:"


class PbrainOpponent(Engine):
    """One running pbrain engine, kept for all the moves of a worker."""

    def __init__(self, cmd: list[str], budget: float) -> None:
        from gridhall.server.games.gomoku.piskvork.engine import PbrainEngine

        self._loop = asyncio.new_event_loop()
        self._engine = self._loop.run_until_complete(
            PbrainEngine.start(cmd, SIZE, "freestyle", max(1, round(budget * 1000)))
        )

    def move(self, moves: list[Point]) -> Point:
        return self._loop.run_until_complete(self._engine.move(list(moves)))


def label(name: str) -> str:
    """A short, file-name-safe name for `pbrain:COMMAND`: the executable's base name."""
    cmd = shlex.split(name.removeprefix(PREFIX))
    return Path(cmd[0]).name if cmd else "pbrain"


def spec(name: str) -> EngineSpec:
    """The EngineSpec for `pbrain:COMMAND` (COMMAND split like a shell would)."""
    cmd = shlex.split(name.removeprefix(PREFIX))

    def missing() -> str | None:
        if not cmd or shutil.which(cmd[0]) is None:
            return f"no executable {cmd[0] if cmd else '(empty)'!r}"
        return None

    return EngineSpec(
        name,
        "(a pbrain engine on this machine)",
        (),
        f"pbrain engine {' '.join(cmd)}",
        lambda budget: PbrainOpponent(cmd, budget),
        missing,
    )
