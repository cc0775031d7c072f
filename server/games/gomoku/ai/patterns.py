"""Line shapes: what a stone at a point makes on one line, read from a lookup table.

A line is the ten cells around a point on one direction (radius 5), coded base 3
from one colour's view: 0 empty, 1 own, 2 opponent or wall. The shape of the
point is defined recursively from the shapes one more own stone would give, so
each table entry is cheap to compute once and then cached:

FIVE    the stone makes five (exactly five for an "exact" colour, else five or more)
OPEN4   two or more completion points: a straight four, or X_XXX_X on one line
FOUR    one completion point
THREE   one more stone can make an OPEN4 (an open three, roughly)
THREE_C one more stone can make a FOUR (a closed three)
TWO     one more stone can make a THREE
TWO_C   one more stone can make a THREE_C
OVERLINE six or more for an exact colour (worthless, or a foul for black)
"""

from __future__ import annotations

import sys

RADIUS = 5
CENTRE = RADIUS
POW3 = tuple(3 ** (k - (1 if k > CENTRE else 0)) if k != CENTRE else 0 for k in range(11))
"""Weight of each line offset's digit (the centre has none: it is the point itself)."""

NONE, TWO_C, TWO, THREE_C, THREE, FOUR, OPEN4, FIVE, OVERLINE = range(9)
N_KEYS = 3**10

# Threat classes kept in the position's incremental tables.
CLASS_OF = (-1, -1, -1, -1, 2, 1, 1, 0, -1)
C_FIVE, C_FOUR, C_THREE = 0, 1, 2


class ShapeTable:
    """Lazily filled shape table for one notion of five (exact or five-or-more)."""

    def __init__(self, exact: bool) -> None:
        self.exact = exact
        self.table = [-1] * N_KEYS

    def shape(self, key: int) -> int:
        s = self.table[key]
        return s if s >= 0 else self._fill(key)

    def _fill(self, key: int) -> int:
        digits = [0] * 11
        k = key
        for off in range(11):
            if off == CENTRE:
                continue
            digits[off] = k % 3
            k //= 3
        lo = CENTRE
        while lo > 0 and digits[lo - 1] == 1:
            lo -= 1
        hi = CENTRE
        while hi < 10 and digits[hi + 1] == 1:
            hi += 1
        run = hi - lo + 1
        if run >= 5:
            result = OVERLINE if self.exact and run > 5 else FIVE
        else:
            children = [
                self.shape(key + POW3[off])
                for off in range(11)
                if off != CENTRE and digits[off] == 0
            ]
            fives = children.count(FIVE)
            if fives >= 2:
                result = OPEN4
            elif fives == 1:
                result = FOUR
            elif OPEN4 in children:
                result = THREE
            elif FOUR in children:
                result = THREE_C
            elif THREE in children:
                result = TWO
            elif THREE_C in children:
                result = TWO_C
            else:
                result = NONE
        self.table[key] = result
        return result


sys.setrecursionlimit(max(sys.getrecursionlimit(), 2000))
EXACT = ShapeTable(exact=True)
FREE = ShapeTable(exact=False)
