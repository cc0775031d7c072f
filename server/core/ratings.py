"""Ratings per player and game kind, updated after each rated game (pure: no I/O).

OpenSkill's Plackett-Luce model (Weng-Lin, the ``openskill`` package) keeps a
belief ``(mu, sigma)`` per player and game kind; it rates two-player Gomoku and
Link-match races of up to eight alike. What players see is the conservative
*ordinal* ``mu - 3 sigma`` (their skill is 99.7% likely above it) on a familiar
scale: ``rating = 1000 + 40 * (mu - 3 sigma)``. A newcomer (mu 25, sigma 25/3)
shows 1000; a rating is *provisional* until :data:`PROVISIONAL_GAMES` rated games.

Computers carry FIXED reference ratings (:data:`REFERENCE`) and never change: a
rated game against one moves only the person's rating. A computer without a
reference rating (an external engine) makes the game unrated.

The hub keeps every rating in memory (:class:`Ratings`, loaded from the store at
start); a room that finishes a rated game asks :meth:`Ratings.rate` for the change,
which is applied to the table at once and saved with the game in one transaction
(``SaveGame.ratings``, ``server/io/ratings_store.py``). See docs/ratings.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from gridhall.protocol import Termination

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
SCALE = 40.0
"""Rating points per unit of OpenSkill's ordinal."""
BASE = 1000.0
"""The rating of an ordinal of 0: every newcomer's."""
PROVISIONAL_GAMES = 10
RATED_GAMES = ("gomoku", "linkmatch")
"""Game kinds with ratings (co-op Minesweeper keeps team records instead)."""
REFERENCE: dict[str, tuple[float, float]] = {"easy": (20.0, 1.0), "hard": (28.0, 1.0)}
"""Each computer level's fixed (mu, sigma): easy shows 1680, hard 2000."""
COMPUTER_ID = "computer:"
"""The leaderboard's player id of a computer level (``computer:easy``)."""
MIN_GOMOKU_MOVES = 2
"""A Gomoku game with fewer stones on the board is not rated (it was abandoned)."""


@cache
def _model() -> PlackettLuce:
    """The model, made on first use (rooms' option parsing imports this module)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Rating:
    """One player's standing in one game kind."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number players see (see the module docstring)."""
        return display(self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def display(ordinal: float) -> int:
    return round(BASE + SCALE * ordinal)


@dataclass(frozen=True)
class Change:
    """One person's rating before and after a rated game (``name`` as they played)."""

    player: str
    name: str
    before: Rating
    after: Rating


@dataclass(frozen=True)
class Seat:
    """A participant of a finished game: a person, or a computer of level ``bot``."""

    player: str
    name: str
    bot: str | None = None


def ranks(
    game: str, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
) -> list[tuple[Seat, int]] | None:
    """Each participant's place (1 = best; equal places tie) from a game's
    ``result``, or None when the game is not rated (abandoned, one player, no
    reference rating for its computer, or ended by the host removing a player:
    a kick never moves a rating)."""
    if len(seats) < 2 or any(s.bot is not None and s.bot not in REFERENCE for s in seats):
        return None
    if result.get("reason") == Termination.REMOVED:
        return None
    by_id = {s.player: s for s in seats}
    if game == "gomoku":
        if gomoku_moves(record) < MIN_GOMOKU_MOVES:
            return None
        winner = result.get("winner")
        if winner is None:
            return [(s, 1) for s in seats]
        if winner not in by_id:
            return None
        return [(s, 1 if s.player == winner else 2) for s in seats]
    if game == "linkmatch":
        order = [pid for pid in result.get("ranking") or () if pid in by_id]
        if len(order) < 2:
            return None
        return [(by_id[pid], n) for n, pid in enumerate(order, 1)]
    return None


def gomoku_moves(record: Mapping[str, Any]) -> int:
    """Stones played in a Gomoku game's record (its ``moves`` list)."""
    moves = record.get("moves")
    return len(moves) if isinstance(moves, list) else 0


class Ratings:
    """Every rating the server holds, by (player, game kind); see the module docstring."""

    def __init__(self) -> None:
        self.table: dict[tuple[str, str], Rating] = {}
        self.rated_players: set[str] = set()
        """People with at least one rating: their identities are kept (docs/ratings.md)."""

    def load(self, rows: Iterable[tuple[str, str, float, float, int, int]]) -> None:
        """Rows of ``(player, game, mu, sigma, games, wins)`` from the store."""
        for player, game, mu, sigma, games, wins in rows:
            if player.startswith(COMPUTER_ID):
                continue
            self.table[(player, game)] = Rating(mu, sigma, games, wins)
            self.rated_players.add(player)

    def get(self, player: str, game: str) -> Rating:
        return self.table.get((player, game)) or Rating()

    def has(self, player: str) -> bool:
        return player in self.rated_players

    def rate(
        self, game: str, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[Change]:
        """Rate one finished game: the people's changes (applied to the table at
        once), or none when the game is not rated (see :func:`ranks`)."""
        placed = ranks(game, seats, result, record)
        if placed is None:
            return []
        before = [self._of(seat, game) for seat, _ in placed]
        model = _model()
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        rated = model.rate(teams, ranks=[float(n) for _, n in placed])
        changes: list[Change] = []
        for (seat, place), old, new in zip(placed, before, rated, strict=True):
            if seat.bot is not None:
                continue
            won = place == 1 and any(n > 1 for _, n in placed)
            after = Rating(new[0].mu, new[0].sigma, old.games + 1, old.wins + won)
            self.table[(seat.player, game)] = after
            self.rated_players.add(seat.player)
            changes.append(Change(seat.player, seat.name, old, after))
        return changes

    def _of(self, seat: Seat, game: str) -> Rating:
        if seat.bot is not None:
            mu, sigma = REFERENCE[seat.bot]
            return Rating(mu, sigma)
        return self.get(seat.player, game)


def announced(changes: Iterable[Change]) -> dict[str, dict[str, int]]:
    """``game-over``'s ``ratings``: ``{player: {"before", "after"}}``."""
    return {c.player: {"before": c.before.shown, "after": c.after.shown} for c in changes}


def reference_rows(game: str) -> list[tuple[str, str, Rating]]:
    """The computers' fixed ratings as leaderboard rows (Gomoku has computers)."""
    if game != "gomoku":
        return []
    return [
        (COMPUTER_ID + level, level, Rating(mu, sigma)) for level, (mu, sigma) in REFERENCE.items()
    ]
