"""How a rated race moves ratings: the racers in the order the race ranked them, those
who never linked a pair left out (they did not race; the others are ranked without
them), and no rating when fewer than two raced."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rating import Rated, Seat


def links(record: Mapping[str, Any]) -> dict[str, int]:
    """Each racer's right links in a race's record, by player id."""
    actions = record.get("actions")
    return {
        pid: sum(
            1 for a in log if isinstance(a, dict) and a.get("action") == "link" and a.get("ok")
        )
        for pid, log in (actions.items() if isinstance(actions, dict) else ())
        if isinstance(log, list)
    }


class RaceRating(Rated):
    """Places from the race's ranking, racers who linked only."""

    def places(
        self, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[tuple[Seat, int]] | None:
        by_id = {s.player: s for s in seats}
        raced = {pid for pid, n in links(record).items() if n}
        order = [pid for pid in result.get("ranking") or () if pid in by_id and pid in raced]
        if len(order) < 2:
            return None
        return [(by_id[pid], n) for n, pid in enumerate(order, 1)]
