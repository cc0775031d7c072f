"""What a racer and a watcher see of a race: the one place a board's tiles leave the
game, to the board's owner only; everyone else sees counts.

Apart from the rules in ``game.py`` because it is a reading of the race's state, never
a change to it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import JSON
from .board import copy_rows

if TYPE_CHECKING:
    from .game import LinkMatchGame


def view_of(game: LinkMatchGame, recipient: str | None) -> JSON:
    """The only place a board leaves the game: to its owner, nobody else."""
    now = game._now
    view: JSON = {
        "width": game.options["width"],
        "height": game.options["height"],
        "kinds": game.options["kinds"],
        "gravity": game.gravity,
        "time_limit": game.options["time_limit"],
        "progress": {p: r.remaining for p, r in game.racers.items()},
        "finished": {p: r.final for p, r in game.racers.items() if r.status == "cleared"},
        "standing": {p: r.status for p, r in game.racers.items()},
    }
    if now < game.start_at:
        view["starts_in"] = round(game.start_at - now, 3)
    racer = game.racers.get(recipient) if recipient is not None else None
    if racer is None:
        view["elapsed"] = round(max(0.0, now - game.start_at), 3)
        return view
    view.update(
        rows=copy_rows(racer.rows),
        remaining=racer.remaining,
        elapsed=round(game._clock(racer, now), 3),
        penalty=racer.penalty,
        wrong=racer.wrong,
        hints=racer.hints,
    )
    if racer.path is not None:
        view["path"] = [list(p) for p in racer.path]
    if racer.hint is not None:
        view["hint"] = [list(p) for p in racer.hint]
    if racer.shuffled:
        view["shuffled"] = True
    return view
