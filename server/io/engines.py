"""External engines as computer levels: ``gridhall-server --engine NAME=COMMAND``.

Which game an engine plays, and how it is started and asked for moves, is the game
plug-in's (``GameSpec.engines``, ``server/games/engines.py``): Gomoku's are Gomocup
(Piskvork) brains. At start the server probes every engine through that bridge with a
timeout, without blocking the event loop; one that is missing or broken is one log line
and is not offered. An offered engine is the ``ai`` level ``engine:NAME``
(:mod:`gridhall.protocol.games.engines`) of the games whose bridge took it, and its
moves are thought in the worker pool like the built-in computer's (the ``computer``
class, ``server/io/computer.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from gridhall.protocol.games.engines import NAME
from gridhall.protocol.i18n import gettext as _

from ..games.engines import EngineBridge

log = logging.getLogger("gridhall.engines")

PROBE_TIMEOUT = 10.0
"""Seconds an engine has at start to answer its game's probe."""


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


async def probe_all(
    bridge: EngineBridge, specs: Iterable[EngineSpec], timeout: float = PROBE_TIMEOUT
) -> dict[str, tuple[str, ...]]:
    """The engines that answered ``bridge``'s probe, by name (in the order given); one
    log line for each that did not, naming it and why."""
    specs = list(specs)
    answers = await asyncio.gather(*(bridge.probe(s.argv, timeout) for s in specs))
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
