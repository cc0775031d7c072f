"""How a rated Gomoku game moves ratings: the winner first, a draw ties; a game of
fewer than :data:`MIN_MOVES` stones is not rated (abandoned, resigned or thrown before
either side had played five: the quickest real five takes nine stones, and only when
the loser never blocked; one stone and resign says nothing about skill)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rating import Rated, Seat

MIN_MOVES = 10


def stones(record: Mapping[str, Any]) -> int:
    """Stones played in a Gomoku game's record (its ``moves`` list)."""
    moves = record.get("moves")
    return len(moves) if isinstance(moves, list) else 0


class GomokuRating(Rated):
    """Two rivals' places, from games long enough to say something."""

    def places(
        self, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[tuple[Seat, int]] | None:
        if stones(record) < MIN_MOVES:
            return None
        return super().places(seats, result, record)
