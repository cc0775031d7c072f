"""The time a client's clocks show: they stand still while we are offline.

Gomoku clocks, the Minesweeper timer and Link-match race clocks are run on between
events from the time the server last told us about. While the connection is down we
cannot know what they do (a server that is down keeps its clocks still, and gives
them back as they were), so the clocks stop at the moment the connection dropped,
as in the browser, and go on from the server's word once we are back.
"""

from __future__ import annotations


def shown_time(now: float, offline_since: float | None) -> float:
    """``now`` while connected; the moment the connection dropped while offline."""
    return now if offline_since is None else min(now, offline_since)
