"""A finished Reversi game re-run for its replay: the discs in the order they went down
(take-backs are gone), each frame with its counts, last move and turned discs. The
clock and any offer are left out (they mean nothing in a replay); ``t`` comes from the
game's log when it accounts for every move."""

from __future__ import annotations

from collections.abc import Iterator

from gridhall.protocol.cells import cell_name

from ..base import JSON, GameError
from ..replay import Action, Run, skipped
from .game import ReversiGame


class ReversiRun(Run):
    """The moves of the final game, black's first."""

    def __init__(self, record: JSON) -> None:
        colors: dict[str, str] = record["colors"]
        black = next(p for p, c in colors.items() if c == "black")
        white = next(p for p, c in colors.items() if c == "white")
        self.game = ReversiGame(dict(record["options"]), [black, white], 0, 0.0)
        self.moves = [(int(x), int(y)) for x, y in record["moves"]]
        self.times = seconds(record, self.moves)

    def view(self) -> JSON:
        view = self.game.view(None)
        view.pop("clock", None)
        view.pop("pending", None)
        return view

    def actions(self) -> Iterator[Action]:
        for n, (x, y) in enumerate(self.moves):
            by = self.game.turn()
            if by is None:
                skipped("reversi", (x, y), ValueError("the game was already over"))
                return
            try:
                self.game.apply(by, {"x": x, "y": y}, self.times[n])
            except GameError as exc:
                skipped("reversi", (x, y), exc)
                continue
            yield self.times[n], by, cell_name(x, y)


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
