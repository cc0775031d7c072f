"""A finished game's record -> the views it went through, for ``get-replay``.

Each game's plug-in re-runs its record through its own pure rules
(``GameSpec.replay``, ``server/games/replay.py``), so a replay shows exactly what the
rules made of each action and clients need no rules of their own: ``start`` is a
spectator's view before the first action (plus what the game's replay adds, the game
being over), and step k is the view after k actions, in the ``moved`` delta form
(:func:`gridhall.protocol.delta.diff` against the frame before).

Building a page re-runs the whole record (the rules are cheap next to views) but
makes views only for the page's steps, so memory is bounded by a page: at most
:data:`~gridhall.protocol.messages.REPLAY_PAGE` steps and :data:`PAGE_BYTES`.
An action the rules refuse on the re-run (a record from an older, different rule
set) is skipped, never fatal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgpack

from gridhall.protocol.delta import diff
from gridhall.protocol.messages import REPLAY_PAGE

from ..games import registry
from ..games.base import GameError
from ..games.replay import Run

JSON = dict[str, Any]

PAGE_BYTES = 4 * 2**20
"""Encoded steps one answer carries at most (clients accept frames of 8 MiB)."""


class ReplayError(ValueError):
    """A stored record that cannot be replayed at all (not the client's fault)."""


@dataclass
class Page:
    """One answer's worth of a replay."""

    start: JSON
    steps: list[JSON]
    total: int
    next: int | None


def page(
    game: str,
    record: JSON,
    first: int = 0,
    limit: int = REPLAY_PAGE,
    max_bytes: int = PAGE_BYTES,
    duration: float | None = None,
) -> Page:
    """Steps ``first``.. of the game's replay (``start``: the frame before them).
    ``duration``: seconds from the game's start to its end (a race's clocks may end
    it after the last action). Raises ReplayError for a record that is not
    replayable, IndexError when ``first`` is past the last step."""
    run = make_run(game, record, duration)
    prev: JSON | None = run.view() if first == 0 else None
    start = prev
    steps: list[JSON] = []
    size = 0
    k = 0
    more: int | None = None
    for t, by, label in run.actions():
        k += 1
        if k < first or more is not None:
            continue
        view = run.view()
        if k == first:
            prev = start = view
            continue
        if len(steps) >= limit or size >= max_bytes:
            more = k - 1
            continue
        assert prev is not None
        parts = diff(prev, view)
        whole, patches = parts if parts is not None else (view, {})
        step: JSON = {"t": round(max(0.0, t), 3), "by": by, "view": whole, "delta": patches}
        if label:
            step["label"] = label
        size += len(msgpack.packb(step, use_bin_type=True))
        steps.append(step)
        prev = view
    if start is None:
        raise IndexError(f"this replay has {k} steps")
    return Page(start, steps, k, more)


def make_run(game: str, record: JSON, duration: float | None = None) -> Run:
    """The re-run of a stored ``record`` of ``game``, by its plug-in."""
    spec = registry().get(game)
    if spec is None:
        raise ReplayError(f"no replays for {game!r} games")
    try:
        return spec.replay(record, duration)
    except (KeyError, TypeError, ValueError, IndexError, GameError) as exc:
        raise ReplayError(f"the stored {game} record cannot be replayed: {exc!r:.200}") from None
