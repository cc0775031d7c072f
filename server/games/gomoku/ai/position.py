"""A Gomoku position for search: flat padded board, incremental line shapes.

Every playable point keeps, per direction, one base-4 code of the ten cells
around it (empty, black, white, off the board). A pair table maps that code to
both colours' shapes at once (see patterns.py for the shapes), so placing or
removing a stone touches only the points within five cells on its four lines,
with one code update and two look-ups each; shapes, the running evaluation and
the threat tables (where each colour can make five, a four or an open three)
stay current that way.
"""

from __future__ import annotations

import random

from gridhall.server.games.gomoku.ai.patterns import (
    CLASS_OF,
    EXACT,
    FIVE,
    FOUR,
    FREE,
    OPEN4,
    OVERLINE,
    POW3,
    RADIUS,
    THREE,
    ShapeTable,
)
from gridhall.server.games.gomoku.renju import BLACK, EMPTY, WALL, WHITE, Grid, foul_code

WEIGHT = (0, 2, 8, 10, 40, 45, 300, 2000, 0)
"""Evaluation weight of each shape (index = shape)."""

_ZOBRIST_SEED = 20240607
POW4 = tuple(4 ** (k - (1 if k > RADIUS else 0)) if k != RADIUS else 0 for k in range(11))
"""Weight of each line offset's base-4 digit (the centre is the point itself)."""
N_KEYS4 = 4**10
_TO_BLACK = (0, 1, 2, 2)
_TO_WHITE = (0, 2, 1, 2)
"""A base-4 digit (empty, black, white, wall) as a base-3 digit seen by each colour."""
SB = tuple(v // 9 for v in range(81))
SW = tuple(v % 9 for v in range(81))
"""Black's and white's shape in a pair-table value."""


class PairTable:
    """Lazily filled: base-4 line code -> black shape * 9 + white shape, per rule."""

    def __init__(self, black: ShapeTable, white: ShapeTable) -> None:
        self.black = black
        self.white = white
        self.table = [-1] * N_KEYS4

    def fill(self, key: int) -> int:
        kb = kw = 0
        k = key
        for off in range(11):
            if off == RADIUS:
                continue
            d = k & 3
            k >>= 2
            kb += _TO_BLACK[d] * POW3[off]
            kw += _TO_WHITE[d] * POW3[off]
        v = self.black.shape(kb) * 9 + self.white.shape(kw)
        self.table[key] = v
        return v


_PAIRS: dict[str, PairTable] = {}


def pair_table(rule: str) -> PairTable:
    """The shared pair table of a rule set (one per process)."""
    key = "exact-free" if rule == "renju" else rule
    if key not in _PAIRS:
        _PAIRS[key] = PairTable(*tables_for(rule))
    return _PAIRS[key]


def tables_for(rule: str) -> tuple[ShapeTable, ShapeTable]:
    """(black's, white's) notion of five for a rule set."""
    if rule == "freestyle":
        return FREE, FREE
    if rule == "renju":
        return EXACT, FREE
    return EXACT, EXACT


class Position:
    """Board, side to move and incremental shape bookkeeping; make/unmake moves."""

    def __init__(
        self,
        size: int,
        rule: str,
        moves: list[tuple[int, int]],
        extra: tuple[list[tuple[int, int]], list[tuple[int, int]], int] | None = None,
    ) -> None:
        """`moves` in order, black first; or `extra` = (black, white, colour to move)
        for a position known only by its stones (a Piskvork BOARD)."""
        self.size = size
        self.rule = rule
        self.renju = rule == "renju"
        self.grid = Grid(size)
        g = self.grid
        self.L = g.length
        self.cells = g.new_board()
        self.points = g.cells_of()
        self.pairs = pair_table(rule)
        self.keys = [0] * (4 * self.L)
        self.total = [0, 0, 0]
        # threat tables: [colour][class] -> {point: number of directions}
        self.threats: list[list[dict[int, int]]] = [[], [{}, {}, {}], [{}, {}, {}]]
        self.near = [0] * self.L
        self.stack: list[int] = []
        self.parity = 0
        rng = random.Random(_ZOBRIST_SEED + size)
        self.zob = [
            [0] * self.L,
            [rng.getrandbits(64) for _ in range(self.L)],
            [rng.getrandbits(64) for _ in range(self.L)],
        ]
        self.hash = 0
        self._build_geometry()
        self._init_keys()
        for x, y in moves:
            self.make(g.index(x, y))
        if extra is not None:
            black, white, to_move = extra
            for colour, stones in ((BLACK, black), (WHITE, white)):
                for x, y in stones:
                    self.make(g.index(x, y), colour)
            self.parity = 0
            if self.to_move != to_move:
                self.parity = 1

    # geometry -----------------------------------------------------------
    def _build_geometry(self) -> None:
        cells, L = self.cells, self.L
        self.nbr: list[list[tuple[int, int, int]]] = [[] for _ in range(L)]
        self.ring: list[list[int]] = [[] for _ in range(L)]
        for p in self.points:
            for di, d in enumerate(self.grid.dirs):
                for sign in (1, -1):
                    q = p
                    for k in range(1, 6):
                        q += sign * d
                        if cells[q] == WALL:
                            break
                        # p sits at offset -sign*k in q's line
                        self.nbr[p].append((di * L + q, q, POW4[5 - sign * k]))
            x, y = self.grid.point(p)
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    if (dx or dy) and 0 <= x + dx < self.size and 0 <= y + dy < self.size:
                        self.ring[p].append(self.grid.index(x + dx, y + dy))

    def _init_keys(self) -> None:
        """Off-board cells are digit 3 (blocked for both colours)."""
        cells, L = self.cells, self.L
        for p in self.points:
            for di, d in enumerate(self.grid.dirs):
                key = 0
                for sign in (1, -1):
                    q = p
                    walled = False
                    for k in range(1, 6):
                        q += sign * d
                        if walled or cells[q] == WALL:
                            walled = True
                            key += 3 * POW4[5 + sign * k]
                self.keys[di * L + p] = key
        for p in self.points:
            self._point(p, 1)

    # bookkeeping ---------------------------------------------------------
    def _add(self, c: int, p: int, shape: int, sign: int) -> None:
        self.total[c] += sign * WEIGHT[shape]
        cls = CLASS_OF[shape]
        if cls >= 0:
            table = self.threats[c][cls]
            n = table.get(p, 0) + sign
            if n:
                table[p] = n
            else:
                del table[p]

    @property
    def to_move(self) -> int:
        return BLACK if (len(self.stack) + self.parity) % 2 == 0 else WHITE

    def pair(self, p: int, di: int) -> int:
        """Both colours' shapes at p on direction di, as black * 9 + white."""
        key = self.keys[di * self.L + p]
        v = self.pairs.table[key]
        return v if v >= 0 else self.pairs.fill(key)

    def shape(self, c: int, p: int, di: int) -> int:
        v = self.pair(p, di)
        return v // 9 if c == BLACK else v % 9

    def shapes(self, c: int, p: int) -> list[int]:
        return [self.shape(c, p, di) for di in range(4)]

    def make(self, p: int, colour: int = 0) -> None:
        """Put the side to move's stone (or `colour`'s) on empty point p."""
        c = colour or self.to_move
        self._point(p, -1)
        self.cells[p] = c
        self.hash ^= self.zob[c][p]
        self.stack.append(p)
        self._shift(p, c, 1)
        near = self.near
        for q in self.ring[p]:
            near[q] += 1

    def unmake(self) -> None:
        p = self.stack.pop()
        c = self.cells[p]
        self._shift(p, c, -1)
        self.cells[p] = EMPTY
        self.hash ^= self.zob[c][p]
        self._point(p, 1)
        near = self.near
        for q in self.ring[p]:
            near[q] -= 1

    def _point(self, p: int, sign: int) -> None:
        """Count (sign 1) or discount (-1) the shapes of empty point p, both colours."""
        for di in range(4):
            v = self.pair(p, di)
            if v:
                if v >= 9:
                    self._add(BLACK, p, v // 9, sign)
                if v % 9:
                    self._add(WHITE, p, v % 9, sign)

    def _shift(self, p: int, c: int, sign: int) -> None:
        """Stone c at p appears (sign 1) or goes (-1): update the codes of the points
        on its four lines, and the shapes, totals and threat tables they imply.
        Written flat because it is the engine's innermost loop."""
        cells = self.cells
        keys = self.keys
        pairs = self.pairs
        tab = pairs.table
        fill = pairs.fill
        thb, thw = self.threats[BLACK], self.threats[WHITE]
        total = self.total
        weight, class_of = WEIGHT, CLASS_OF
        sb, sw = SB, SW
        d = sign * c
        for fi, q, pw in self.nbr[p]:
            ok = keys[fi]
            nk = ok + d * pw
            keys[fi] = nk
            if cells[q]:
                continue
            vo = tab[ok]
            if vo < 0:
                vo = fill(ok)
            vn = tab[nk]
            if vn < 0:
                vn = fill(nk)
            if vo == vn:
                continue
            so = sb[vo]
            sn = sb[vn]
            if so != sn:
                total[BLACK] += weight[sn] - weight[so]
                k = class_of[so]
                if k >= 0:
                    t = thb[k]
                    n = t[q] - 1
                    if n:
                        t[q] = n
                    else:
                        del t[q]
                k = class_of[sn]
                if k >= 0:
                    t = thb[k]
                    t[q] = t.get(q, 0) + 1
            so = sw[vo]
            sn = sw[vn]
            if so != sn:
                total[WHITE] += weight[sn] - weight[so]
                k = class_of[so]
                if k >= 0:
                    t = thw[k]
                    n = t[q] - 1
                    if n:
                        t[q] = n
                    else:
                        del t[q]
                k = class_of[sn]
                if k >= 0:
                    t = thw[k]
                    t[q] = t.get(q, 0) + 1

    # queries ---------------------------------------------------------------
    def legal(self, c: int, p: int) -> bool:
        """May colour c play at empty p? Only black under renju can be refused."""
        if not (self.renju and c == BLACK):
            return True
        s = self.shapes(BLACK, p)
        if FIVE in s:
            return True
        if OVERLINE in s:
            return False
        if OPEN4 not in s and sum(1 for v in s if v in (THREE, FOUR, OPEN4)) < 2:
            return True
        return foul_code(self.cells, self.grid.dirs, p) == 0

    def wins_next(self, c: int, p: int) -> bool:
        """Does c at p make an open four or two fours (a five next move, unstoppable)?"""
        s = self.shapes(c, p)
        return OPEN4 in s or sum(1 for v in s if v in (FOUR, OPEN4)) >= 2

    def total_at(self, c: int, p: int) -> int:
        """Sum of c's shape weights at p: a quick measure of how good p is for c."""
        return sum(WEIGHT[self.shape(c, p, di)] for di in range(4))

    def candidates(self) -> list[int]:
        cells, near = self.cells, self.near
        return [p for p in self.points if near[p] and cells[p] == EMPTY]

    def xy(self, p: int) -> tuple[int, int]:
        return self.grid.point(p)
