"""A finished Reversi game re-run for its replay: the discs in the order they went down
(take-backs are gone), each frame with its counts, last move and turned discs. The
clock and any offer are left out (they mean nothing in a replay); ``t`` comes from the
game's log when it accounts for every move."""

from __future__ import annotations

from ..base import JSON
from ..clocked import ClockedRun, black_then_white
from .game import ReversiGame


class ReversiRun(ClockedRun):
    """The moves of the final game, black's first."""

    def __init__(self, record: JSON) -> None:
        game = ReversiGame(dict(record["options"]), black_then_white(record), 0, 0.0)
        moves = [(int(x), int(y)) for x, y in record["moves"]]
        super().__init__("reversi", game, moves, seconds(record, moves))


def seconds(record: JSON, moves: list[tuple[int, int]]) -> list[float]:
    """Seconds since the start at which each disc went down, from the log's ``move``
    entries when they are exactly these moves (no take-back, nothing cut); else 0."""
    log = record.get("log")
    if not isinstance(log, list) or record.get("log_omitted"):
        return [0.0] * len(moves)
    try:
        placed = [(int(e[2]), int(e[3]), float(e[4])) for e in log if e[0] == "move"]
    except (TypeError, ValueError, IndexError):
        return [0.0] * len(moves)
    if [(x, y) for x, y, _ in placed] != moves:
        return [0.0] * len(moves)
    return [t for _, _, t in placed]
