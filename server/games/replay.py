"""A finished game re-run for ``get-replay``: what every game's replay runner is.

The record (``game.record()``, kept by the store) is re-run through the game's own
pure rules, so a replay shows exactly what the rules made of each action and clients
need no rules of their own. A game's :meth:`~.base.GameSpec.replay` returns a
:class:`Run`: :meth:`Run.view` is a spectator's view after the latest action (before
the first, the start), plus whatever a replay adds because the game is over (every
racer's board, who hit which mine); :meth:`Run.actions` applies one action per item it
yields. ``server/io/replays.py`` pages the views and sends them as deltas.

An action the rules refuse on the re-run (a record from an older, different rule set)
is skipped (:func:`skipped`), never fatal.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Iterator
from typing import Any

from .base import JSON

log = logging.getLogger("gridhall.replays")

Action = tuple[float, "str | None", "str | None"]
"""What one applied action was: (seconds since the start, who, a label such as ``H8``)."""


class Run(ABC):
    """A record being re-run (see the module docstring)."""

    @abstractmethod
    def view(self) -> JSON:
        """The frame after the latest action."""

    @abstractmethod
    def actions(self) -> Iterator[Action]:
        """Apply the record's actions one by one, yielding each as it is applied."""


def skipped(game: str, action: Any, exc: Exception) -> None:
    """Log an action the rules refused on the re-run (it is left out of the replay)."""
    log.warning("replay of a %s game skips %r: %s", game, action, exc)
