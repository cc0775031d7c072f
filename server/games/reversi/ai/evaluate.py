"""How good a Reversi position is for the side to move, short of searching it out.

Four things, as the strong programs weigh them: mobility (how many moves each side has:
the side with fewer is squeezed into bad ones), corners (never lost once taken), the
cells next to an empty corner (an X or C square gives the corner away), and stable discs
(discs nothing can turn over any more). Frontier discs (next to an empty cell) count a
little against their owner: they give the other side moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..board import Geometry, geometry, legal_bits

MOBILITY = 90
CORNER = 80
X_SQUARE = 30
C_SQUARE = 10
STABLE = 12
FRONTIER = 4


@dataclass(frozen=True)
class Axes:
    """Per line direction: its shift, and the cells whose neighbour one way or the other
    is off the board (an edge stops a line there)."""

    lines: tuple[tuple[int, int, int, int], ...]
    """(shift, border on the + side, border on the - side, either) per direction."""
    near_corner: tuple[tuple[int, int, int], ...]
    """(corner, its X square, its C squares) per corner."""
    around: tuple[int, ...]
    """All eight neighbour shifts as signed numbers (frontier discs)."""


@cache
def axes(size: int) -> Axes:
    g = geometry(size)
    last = size - 1
    lines = []
    for d, (dx, dy) in zip(g.shifts, ((1, 0), (0, 1), (1, 1), (-1, 1)), strict=True):
        plus = minus = 0
        for y in range(size):
            for x in range(size):
                if not (0 <= x + dx < size and 0 <= y + dy < size):
                    plus |= g.bit(x, y)
                if not (0 <= x - dx < size and 0 <= y - dy < size):
                    minus |= g.bit(x, y)
        lines.append((d, plus, minus, plus | minus))
    near = []
    for cx, cy in ((0, 0), (last, 0), (0, last), (last, last)):
        sx, sy = (1 if cx == 0 else -1), (1 if cy == 0 else -1)
        near.append(
            (g.bit(cx, cy), g.bit(cx + sx, cy + sy), g.bit(cx + sx, cy) | g.bit(cx, cy + sy))
        )
    return Axes(tuple(lines), tuple(near), tuple(g.shifts))


def full_lines(filled: int, g: Geometry, ax: Axes) -> list[int]:
    """Per direction, the cells whose whole line along it is filled."""
    out = []
    for d, plus, minus, _ in ax.lines:
        up = filled & plus
        down = filled & minus
        for _ in range(g.size):
            up |= filled & (up >> d)
            down |= filled & ((down << d) & g.mask)
        out.append(up & down)
    return out


def stable(me: int, filled: int, g: Geometry, ax: Axes) -> int:
    """``me``'s discs that can never be turned over: along each direction each is at the
    edge, on a full line, or next to another such disc of its colour."""
    if not filled & g.corners:
        return 0
    full = full_lines(filled, g, ax)
    found = 0
    while True:
        more = me
        for (d, _, _, edge), whole in zip(ax.lines, full, strict=True):
            more &= edge | whole | (found << d) | (found >> d)
        if more == found:
            return found
        found = more


def frontier(discs: int, empty: int, g: Geometry, ax: Axes) -> int:
    """How many of ``discs`` touch an empty cell."""
    near = 0
    for d in ax.around:
        near |= (empty << d) | (empty >> d)
    return (discs & near & g.mask).bit_count()


def evaluate(me: int, opp: int, g: Geometry) -> int:
    """The position's worth to the side owning ``me`` (about -2000..2000)."""
    ax = axes(g.size)
    mine = legal_bits(me, opp, g).bit_count()
    theirs = legal_bits(opp, me, g).bit_count()
    score = MOBILITY * (mine - theirs) * 10 // (mine + theirs + 2)
    empty = g.mask & ~(me | opp)
    for corner, x_sq, c_sq in ax.near_corner:
        if me & corner:
            score += CORNER
        elif opp & corner:
            score -= CORNER
        elif empty & corner:
            score -= X_SQUARE * ((me & x_sq).bit_count() - (opp & x_sq).bit_count())
            score -= C_SQUARE * ((me & c_sq).bit_count() - (opp & c_sq).bit_count())
    filled = me | opp
    score += STABLE * (
        stable(me, filled, g, ax).bit_count() - stable(opp, filled, g, ax).bit_count()
    )
    score -= FRONTIER * (frontier(me, empty, g, ax) - frontier(opp, empty, g, ax))
    return score
