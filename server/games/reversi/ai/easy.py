"""The easy computer: a sensible greedy player, one move deep.

It takes a corner when it can, keeps off the cells next to an empty corner, likes edges,
and otherwise turns over the most discs it can; ties go by a seeded coin, so a game
against it is not the same every time yet a position always gets the same answer.
"""

from __future__ import annotations

import random

from ..board import Geometry, flip_bits, legal_bits
from .search import bits_of


def worth(me: int, opp: int, move: int, g: Geometry) -> int:
    """The greedy value of ``move``: flips plus where it is."""
    flips = flip_bits(me, opp, move, g).bit_count()
    if move & g.corners:
        return 100 + flips
    if move & g.x_squares:
        return -50 + flips
    if move & g.c_squares:
        return -20 + flips
    if move & g.edges:
        return 10 + flips
    return flips


def choose(me: int, opp: int, g: Geometry) -> int:
    """The easy computer's move (a bit) for the side owning ``me``."""
    moves = bits_of(legal_bits(me, opp, g))
    if not moves:
        raise ValueError("no legal move")
    coin = random.Random(me * 3 + opp)
    return max(moves, key=lambda m: (worth(me, opp, m, g), coin.random()))
