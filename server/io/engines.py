"""External Gomoku engines: ``gridhall-server --engine NAME=COMMAND`` as computer levels.

Each engine is a Gomocup (Piskvork) brain run through the same code as
``gridhall-bridge`` (:class:`~.bots.pbrain_bridge.PbrainEngine`). At start the
server probes every one (START, ABOUT) with a timeout, without blocking the event
loop; one that is missing or broken is one log line and is not offered. An offered
engine is the ``ai`` level ``engine:NAME`` (:mod:`gridhall.protocol.games.engines`).

Its moves are thought in the worker pool like the built-in computer's (the
``computer`` class, ``server/io/computer.py``): :func:`think` runs in a worker, which
keeps one engine process per command, board size and rule for the moves to come
(every move resends the whole position), tells it the move's time and what is left
of the room's clock (INFO ``timeout_turn``, ``time_left``), and falls back on the
hard engine if the external one fails, so a game never waits forever.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import logging
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from gridhall.protocol.games.engines import NAME
from gridhall.protocol.i18n import gettext as _

from ..bots.pbrain_bridge import PbrainEngine, PbrainError
from ..games.gomoku.ai import choose_move
from ..games.gomoku.ai.position import Position

log = logging.getLogger("gridhall.engines")

PROBE_TIMEOUT = 10.0
"""Seconds an engine has at start to answer START and ABOUT."""
PROBE_SIZE = 15


@dataclass(frozen=True)
class EngineSpec:
    """One ``--engine NAME=COMMAND``: the level's name and the command's words."""

    name: str
    argv: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.name}={shlex.join(self.argv)}"


def engine_option(text: str) -> str:
    """An ``--engine`` value (argparse type): checked, kept as text (settings are
    shown on the admin page as given)."""
    parse_spec(text)
    return str(text)


def parse_spec(text: str) -> EngineSpec:
    """``NAME=COMMAND``, the command split as a shell would (quotes keep spaces),
    never run by a shell. argparse.ArgumentTypeError says what is wrong."""
    name, sep, command = str(text).partition("=")
    name = name.strip()
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r}: {exc}") from None
    if not sep or not NAME.fullmatch(name) or not argv:
        raise argparse.ArgumentTypeError(
            _(
                "{text} is not {form} (a name of 1 to 24 letters, digits, _ . -, then the "
                "command that starts the engine, e.g. {example})",
                text=repr(text),
                form="NAME=COMMAND",
                example="rapfi=/opt/rapfi/pbrain-rapfi",
            )
        )
    return EngineSpec(name, argv)


async def probe(spec: EngineSpec, timeout: float = PROBE_TIMEOUT) -> str | None:
    """None when the engine starts and answers START and ABOUT within ``timeout``
    seconds; else why not, in a few words."""
    try:
        async with asyncio.timeout(timeout):
            engine = await PbrainEngine.start(list(spec.argv), PROBE_SIZE, "freestyle", 1000)
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


async def probe_all(
    specs: Iterable[EngineSpec], timeout: float = PROBE_TIMEOUT
) -> dict[str, tuple[str, ...]]:
    """The engines that answered, by name (in the order given); one log line for
    each that did not, naming it and why."""
    specs = list(specs)
    answers = await asyncio.gather(*(probe(s, timeout) for s in specs))
    offered: dict[str, tuple[str, ...]] = {}
    for spec, problem in zip(specs, answers, strict=True):
        if problem is None:
            offered.setdefault(spec.name, spec.argv)
            log.info("engine %s offered as the computer level engine:%s", spec.name, spec.name)
        else:
            log.error(
                "engine %s (%s) is not offered: %s", spec.name, shlex.join(spec.argv), problem
            )
    return offered


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
