"""A Gomoku position for search: flat padded board, incremental line shapes.

Every playable point keeps, per direction and per colour, the base-3 code of
the ten cells around it (see patterns.py). Placing or removing a stone touches
only the points within five cells on its four lines, so shapes, the running
evaluation and the threat tables (where each colour can make five, a four or
an open three) stay current at a cost of a few dozen table look-ups per move.
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
    THREE,
    ShapeTable,
)
from gridhall.server.games.gomoku.renju import BLACK, EMPTY, WALL, WHITE, Grid, foul_code

WEIGHT = (0, 2, 8, 10, 40, 45, 300, 2000, 0)
"""Evaluation weight of each shape (index = shape)."""

_ZOBRIST_SEED = 20240607


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
        self.tab: list[list[int]] = [[], *(t.table for t in tables_for(rule))]
        self.shape_tables: list[ShapeTable] = [EXACT, *tables_for(rule)]
        self.keys: list[list[int]] = [[], [0] * (4 * self.L), [0] * (4 * self.L)]
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
                        self.nbr[p].append((di * L + q, q, POW3[5 - sign * k]))
            x, y = self.grid.point(p)
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    if (dx or dy) and 0 <= x + dx < self.size and 0 <= y + dy < self.size:
                        self.ring[p].append(self.grid.index(x + dx, y + dy))

    def _init_keys(self) -> None:
        """Walls count as blocked (digit 2), and so does everything past a wall."""
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
                            key += 2 * POW3[5 + sign * k]
                for c in (BLACK, WHITE):
                    self.keys[c][di * L + p] = key
        for c in (BLACK, WHITE):
            tab = self.shape_tables[c]
            for p in self.points:
                for di in range(4):
                    self._add(c, p, tab.shape(self.keys[c][di * L + p]), 1)

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

    def shape(self, c: int, p: int, di: int) -> int:
        key = self.keys[c][di * self.L + p]
        s = self.tab[c][key]
        return s if s >= 0 else self.shape_tables[c].shape(key)

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
        L = self.L
        for col in (BLACK, WHITE):
            keys = self.keys[col]
            tab = self.tab[col]
            st = self.shape_tables[col]
            for di in range(4):
                k = keys[di * L + p]
                s = tab[k]
                if s < 0:
                    s = st.shape(k)
                if s:
                    self._add(col, p, s, sign)

    def _shift(self, p: int, c: int, sign: int) -> None:
        """Stone c at p appears (sign 1) or goes (-1): update the keys of the points
        on its four lines, and the shapes, totals and threat tables they imply.
        Written flat because it is the engine's innermost loop."""
        cells = self.cells
        kb, kw = self.keys[BLACK], self.keys[WHITE]
        tabb, tabw = self.tab[BLACK], self.tab[WHITE]
        stb, stw = self.shape_tables[BLACK], self.shape_tables[WHITE]
        thb, thw = self.threats[BLACK], self.threats[WHITE]
        total = self.total
        weight, class_of = WEIGHT, CLASS_OF
        db = sign * (1 if c == BLACK else 2)
        dw = sign * (1 if c == WHITE else 2)
        for fi, q, pw in self.nbr[p]:
            ob = kb[fi]
            nb = ob + db * pw
            kb[fi] = nb
            ow = kw[fi]
            nw = ow + dw * pw
            kw[fi] = nw
            if cells[q]:
                continue
            so = tabb[ob]
            if so < 0:
                so = stb.shape(ob)
            sn = tabb[nb]
            if sn < 0:
                sn = stb.shape(nb)
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
            so = tabw[ow]
            if so < 0:
                so = stw.shape(ow)
            sn = tabw[nw]
            if sn < 0:
                sn = stw.shape(nw)
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
