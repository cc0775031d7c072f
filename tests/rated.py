"""Helpers for tests of rated games: a five that is long enough to be rated, and
players given an established rating (so their games move ratings and put them on
the leaderboard; docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gridhall.server.core.ratings import ESTABLISHED_GAMES, Rating
from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient

BLACK = [(0, 0), (1, 0), (2, 0), (3, 0), (10, 10), (4, 0)]
WHITE = [(0, 2), (1, 2), (2, 2), (3, 2), (10, 12)]
"""Black's five in eleven stones (a Gomoku game of fewer than ten is not rated)."""
ESTABLISHED = Rating(25.0, 3.0, ESTABLISHED_GAMES, 5)
"""What :func:`establish` gives: shown 1640, on the leaderboard."""


def establish(
    server: GameServer, players: Iterable[str], game: str = "gomoku", rating: Rating = ESTABLISHED
) -> None:
    """Give each player id ``rating`` (by default ESTABLISHED_GAMES games played), as if
    they had played them: in the server's table (call it on the server's loop); the
    store's row follows with their next rated game."""
    for pid in players:
        server.hub.ratings.table[(pid, game)] = rating


async def five(black: WsClient, white: WsClient) -> dict[str, Any]:
    """Black plays five in a row (eleven stones in all); both get game-over (black's
    is returned)."""
    for i, (x, y) in enumerate(BLACK):
        await black.send("move", move={"x": x, "y": y})
        await white.expect("moved", by=black.player)
        if i < len(WHITE):
            await white.send("move", move={"x": WHITE[i][0], "y": WHITE[i][1]})
            await black.expect("moved", by=white.player)
    over = await black.expect("game-over")
    assert (await white.expect("game-over"))["ratings"] == over["ratings"]
    return over
