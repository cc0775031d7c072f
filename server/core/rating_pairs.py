"""How far one person's rating rose against one opponent lately: the cap that keeps a
pair of accounts from farming each other (issue 41; docs/ratings.md).

Per (person, opponent, game kind) a window opens with their first rated game and
lasts :data:`~.ratings.PAIR_WINDOW`; within it, the person's ordinal may rise at
most :data:`~.ratings.PAIR_GAIN` net (a loss to that opponent gives room back).
Pure: the time comes in as ``now``; the store keeps the windows with the games that
changed them and :meth:`PairGains.load` reads them back at start.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Key = tuple[str, str, str]
"""(person, opponent, game kind)."""


@dataclass(frozen=True)
class Window:
    """A pair's window: when it opened and the net ordinal the person gained in it."""

    since: float
    gained: float


class PairGains:
    """Every open window; ended ones are dropped as the table grows (memory stays about
    one entry per pair that played within a window)."""

    def __init__(self, cap: float, window: float) -> None:
        self.cap = cap
        self.window = window
        self.windows: dict[Key, Window] = {}
        self._kept = 0
        """Windows after the last sweep: the next one comes when the table has doubled."""

    def load(self, rows: Iterable[tuple[str, str, str, float, float]], now: float) -> None:
        """Rows of ``(person, opponent, game, since, gained)`` from the store."""
        for player, opponent, game, since, gained in rows:
            if now - since < self.window:
                self.windows[(player, opponent, game)] = Window(since, gained)
        self._kept = len(self.windows)

    def allow(
        self, player: str, game: str, opponents: Sequence[str], gain: float, now: float
    ) -> tuple[float, list[tuple[str, Window]]]:
        """Of the ordinal ``gain`` ``player`` made against ``opponents`` (people), how
        much counts, and each pair's window after it. The gain is shared out evenly;
        each opponent's share is cut to what its window has room for (a loss is
        counted whole)."""
        share = gain / len(opponents)
        allowed = 0.0
        after: list[tuple[str, Window]] = []
        for opponent in opponents:
            key = (player, opponent, game)
            open_ = self.windows.get(key)
            if open_ is None or now - open_.since >= self.window:
                open_ = Window(now, 0.0)
            got = share if share <= 0 else min(share, max(0.0, self.cap - open_.gained))
            allowed += got
            self.windows[key] = Window(open_.since, open_.gained + got)
            after.append((opponent, self.windows[key]))
        self._sweep(now)
        return allowed, after

    def _sweep(self, now: float) -> None:
        if len(self.windows) < 2 * self._kept + 64:
            return
        for key in [k for k, w in self.windows.items() if now - w.since >= self.window]:
            del self.windows[key]
        self._kept = len(self.windows)
