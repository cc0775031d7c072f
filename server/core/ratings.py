"""Ratings per player and game kind, updated after each rated game (pure: no I/O).

OpenSkill's Plackett-Luce model (Weng-Lin, the ``openskill`` package) keeps a
belief ``(mu, sigma)`` per player and game kind; it rates two rivals and races of up to
eight alike, from the places each game's rating model gives (``GameSpec.rating``,
``server/games/rating.py``: a game too short to say anything gives none). What players see is the conservative
*ordinal* ``mu - 3 sigma`` (their skill is 99.7% likely above it) on a familiar
scale: ``rating = 1000 + 40 * (mu - 3 sigma)``. A newcomer (mu 25, sigma 25/3)
shows 1000; a rating is *provisional* until :data:`PROVISIONAL_GAMES` rated games.

Farming is bounded three ways (issue 41: 30 one-stone games against throw-away
identities took a player from 1138 to 2322; docs/ratings.md says why these rules):

- an opponent counts only as far as it is established: a person's result moves
  their rating by ``min(1, games / ESTABLISHED_GAMES)`` of what the model says, that
  fraction taken from their opponents' rated games (averaged over a race's racers);
  a brand-new identity counts for nothing, a computer's reference always in full;
- against one opponent, a person's rating rises at most :data:`PAIR_GAIN` (as shown,
  100 points) per :data:`PAIR_WINDOW` (a day), net of what they lost to them;
- the game's rating model leaves out what says nothing about skill (a game of a few
  moves and a resignation, a racer who never raced).

The leaderboard lists only established players (``server/io/leaderboards.py``).

Computers carry FIXED reference ratings (each game's computer player's ``reference``)
and never change: a rated game against one moves only the person's rating. A computer
without a reference rating (an external engine) makes the game unrated.

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

from ..games import registry
from ..games.base import GameSpec
from ..games.rating import Rated
from ..games.rating import Seat as Seat
from .rating_pairs import PairGains

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

MU = 25.0
SIGMA = MU / 3
SCALE = 40.0
"""Rating points per unit of OpenSkill's ordinal."""
BASE = 1000.0
"""The rating of an ordinal of 0: every newcomer's."""
PROVISIONAL_GAMES = 10
ESTABLISHED_GAMES = PROVISIONAL_GAMES
"""Rated games after which a rating is established: it counts in full for its
opponents and is on the leaderboard (before: provisional, shown with a ``?``)."""
PAIR_GAIN = 2.5
"""Most a person's ordinal may rise from games against ONE opponent in a window (net):
2.5, i.e. 100 rating points as shown."""
PAIR_WINDOW = 86400.0
"""Seconds of that window: it starts with the pair's first rated game and lasts a day."""
COMPUTER_ID = "computer:"
"""The leaderboard's player id of a computer level (``computer:easy``)."""


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
    pairs: tuple[tuple[str, float, float], ...] = ()
    """Each opponent's pair window after this game: ``(opponent, since, gained)``."""


def ranks(
    spec: GameSpec, seats: Sequence[Seat], result: Mapping[str, Any], record: Mapping[str, Any]
) -> list[tuple[Seat, int]] | None:
    """Each participant's place (1 = best; equal places tie) from a game's
    ``result``, or None when the game is not rated (a game without ratings, one
    player, a computer with no reference rating, ended by the host removing a
    player: a kick never moves a rating; or what its rating model leaves out)."""
    if not isinstance(spec.rating, Rated) or len(seats) < 2:
        return None
    if any(s.bot is not None and s.bot not in spec.references for s in seats):
        return None
    if result.get("reason") == Termination.REMOVED:
        return None
    return spec.rating.places(seats, result, record)


class Ratings:
    """Every rating the server holds, by (player, game kind); see the module docstring."""

    def __init__(self, games: Mapping[str, GameSpec] | None = None) -> None:
        self.games = registry() if games is None else games
        """The game plug-ins, by name: each one's rating model places its players."""
        self.table: dict[tuple[str, str], Rating] = {}
        self.rated_players: set[str] = set()
        """People with at least one rating: their identities are kept (docs/ratings.md)."""
        self.pairs = PairGains(PAIR_GAIN, PAIR_WINDOW)
        """What each person gained against each opponent lately (the farming cap)."""

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
        self,
        game: str,
        seats: Sequence[Seat],
        result: Mapping[str, Any],
        record: Mapping[str, Any],
        now: float = 0.0,
    ) -> list[Change]:
        """Rate one finished game: the people's changes (applied to the table at
        once), or none when the game is not rated (see :func:`ranks`)."""
        spec = self.games.get(game)
        placed = ranks(spec, seats, result, record) if spec is not None else None
        if spec is None or placed is None:
            return []
        before = [self._of(seat, game, spec.references) for seat, _ in placed]
        model = _model()
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        rated = model.rate(teams, ranks=[float(n) for _, n in placed])
        changes: list[Change] = []
        for i, ((seat, place), old, new) in enumerate(zip(placed, before, rated, strict=True)):
            if seat.bot is not None:
                continue
            others = [(s, r) for j, ((s, _), r) in enumerate(zip(placed, before)) if j != i]
            weight = sum(_counts(s, r) for s, r in others) / len(others)
            after = _toward(old, Rating(new[0].mu, new[0].sigma), weight)
            after, windows = self._capped(
                seat.player, game, [s for s, _ in others], old, after, now
            )
            won = place == 1 and any(n > 1 for _, n in placed)
            after = Rating(after.mu, after.sigma, old.games + 1, old.wins + won)
            self.table[(seat.player, game)] = after
            self.rated_players.add(seat.player)
            changes.append(Change(seat.player, seat.name, old, after, windows))
        return changes

    def _capped(
        self,
        player: str,
        game: str,
        others: Sequence[Seat],
        old: Rating,
        after: Rating,
        now: float,
    ) -> tuple[Rating, tuple[tuple[str, float, float], ...]]:
        """``after`` cut to what the pair windows allow (people only: a computer's
        fixed rating cannot be farmed), and the windows as they are now."""
        people = [s.player for s in others if s.bot is None]
        if not people:
            return after, ()
        gain = after.ordinal - old.ordinal
        allowed, windows = self.pairs.allow(player, game, people, gain, now)
        if gain > 0 and allowed < gain:
            after = _toward(old, after, allowed / gain)
        return after, tuple((o, w.since, w.gained) for o, w in windows)

    def _of(self, seat: Seat, game: str, references: Mapping[str, tuple[float, float]]) -> Rating:
        if seat.bot is not None:
            mu, sigma = references[seat.bot]
            return Rating(mu, sigma)
        return self.get(seat.player, game)


def _counts(seat: Seat, rating: Rating) -> float:
    """How far an opponent counts: a computer (its reference) in full, a person as far
    as established (none for a newcomer, in full from :data:`ESTABLISHED_GAMES`)."""
    if seat.bot is not None:
        return 1.0
    return min(1.0, rating.games / ESTABLISHED_GAMES)


def _toward(old: Rating, new: Rating, share: float) -> Rating:
    """``share`` (0..1) of the way from ``old``'s belief to ``new``'s; the ordinal is
    linear in both, so it moves by that share too."""
    return Rating(
        old.mu + share * (new.mu - old.mu),
        old.sigma + share * (new.sigma - old.sigma),
        old.games,
        old.wins,
    )


def announced(changes: Iterable[Change]) -> dict[str, dict[str, int]]:
    """``game-over``'s ``ratings``: ``{player: {"before", "after"}}``."""
    return {c.player: {"before": c.before.shown, "after": c.after.shown} for c in changes}


def reference_rows(spec: GameSpec) -> list[tuple[str, str, Rating]]:
    """A game's computers' fixed ratings as leaderboard rows (none without a computer)."""
    return [
        (COMPUTER_ID + level, level, Rating(mu, sigma))
        for level, (mu, sigma) in spec.references.items()
    ]
