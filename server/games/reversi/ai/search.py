"""The hard computer's search: alpha-beta (negamax, principal variation) with iterative
deepening, a transposition table and move ordering; past the last few empties, an exact
solve of the disc count.

Time: every search checks its deadline every :data:`CHECK` nodes and raises
:class:`Timeout`; the answer is the best move of the deepest completed iteration (or of
the exact solve when it finished). Pure Python on bitboards (``board.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..board import Geometry, flip_bits, legal_bits
from .evaluate import evaluate

WIN = 1_000_000
"""A finished game scores WIN + disc difference: beyond any evaluation."""
CHECK = 128
TABLE_LIMIT = 400_000
"""Transposition-table entries before it is cleared (bounded memory in a worker)."""
EXACT, LOWER, UPPER = 0, 1, 2


class Timeout(Exception):
    """The search's deadline passed."""


def bits_of(moves: int) -> list[int]:
    out = []
    while moves:
        low = moves & -moves
        out.append(low)
        moves ^= low
    return out


def final(me: int, opp: int) -> int:
    """The score of a finished game for ``me``."""
    diff = me.bit_count() - opp.bit_count()
    return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0


@dataclass
class Search:
    """One move's search: the geometry, the deadline and what it learnt."""

    g: Geometry
    deadline: float
    clock: Callable[[], float] = time.perf_counter
    table: dict[tuple[int, int], tuple[int, int, int, int]] = field(default_factory=dict)
    nodes: int = 0
    weights: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        g = self.g
        for bit in bits_of(g.mask):
            w = 0
            if bit & g.corners:
                w = 100
            elif bit & g.x_squares:
                w = -50
            elif bit & g.c_squares:
                w = -20
            elif bit & g.edges:
                w = 10
            self.weights[bit] = w

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK == 0 and self.clock() > self.deadline:
            raise Timeout

    def ordered(self, me: int, opp: int, moves: int, first: int, depth: int) -> list[int]:
        """Moves best-first: the table's move, then (deep in the tree) fewest replies for
        the opponent, else by where they are (corners first, X squares last)."""
        g, weights = self.g, self.weights
        cands = bits_of(moves)
        if depth >= 3:

            def key(m: int) -> int:
                f = flip_bits(me, opp, m, g)
                return legal_bits(opp & ~f, me | m | f, g).bit_count() * 16 - weights[m]

            cands.sort(key=key)
        else:
            cands.sort(key=lambda m: -weights[m])
        if first and first in cands:
            cands.remove(first)
            cands.insert(0, first)
        return cands

    def probe(
        self, key: tuple[int, int], depth: int, alpha: int, beta: int
    ) -> tuple[int, int | None]:
        """(the table's best move here or 0, its value when that settles the node)."""
        entry = self.table.get(key)
        if entry is None:
            return 0, None
        e_depth, flag, value, first = entry
        settles = e_depth >= depth and (
            flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)
        )
        return first, value if settles else None

    def negamax(self, me: int, opp: int, depth: int, alpha: int, beta: int) -> int:
        """The value for ``me`` to move, within (alpha, beta); ``depth`` plies."""
        self.tick()
        g = self.g
        moves = legal_bits(me, opp, g)
        if not moves:
            if not legal_bits(opp, me, g):
                return final(me, opp)
            return -self.negamax(opp, me, depth, -beta, -alpha)
        if depth <= 0:
            return evaluate(me, opp, g)
        key = (me, opp)
        first, known = self.probe(key, depth, alpha, beta)
        if known is not None:
            return known
        start_alpha = alpha
        best, best_move = -WIN * 2, 0
        for i, m in enumerate(self.ordered(me, opp, moves, first, depth)):
            f = flip_bits(me, opp, m, g)
            a, b = me | m | f, opp & ~f
            if i == 0:
                score = -self.negamax(b, a, depth - 1, -beta, -alpha)
            else:
                score = -self.negamax(b, a, depth - 1, -alpha - 1, -alpha)
                if alpha < score < beta:
                    score = -self.negamax(b, a, depth - 1, -beta, -score)
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = (depth, flag, best, best_move)
        return best

    def root(self, me: int, opp: int, depth: int, first: int) -> tuple[int, int]:
        """(best move, its value) at ``depth`` plies, the previous best tried first."""
        g = self.g
        alpha, beta = -WIN * 2, WIN * 2
        best_move = 0
        for i, m in enumerate(self.ordered(me, opp, legal_bits(me, opp, g), first, depth + 2)):
            f = flip_bits(me, opp, m, g)
            a, b = me | m | f, opp & ~f
            if i == 0:
                score = -self.negamax(b, a, depth - 1, -beta, -alpha)
            else:
                score = -self.negamax(b, a, depth - 1, -alpha - 1, -alpha)
                if score > alpha:
                    score = -self.negamax(b, a, depth - 1, -beta, -score)
            if score > alpha or not best_move:
                alpha, best_move = max(alpha, score), m
        return best_move, alpha


def choose(
    me: int,
    opp: int,
    g: Geometry,
    budget: float,
    clock: Callable[[], float] = time.perf_counter,
    info: dict[str, int] | None = None,
) -> int:
    """The hard computer's move (a bit) for the side owning ``me``, within ``budget``
    seconds: deepening until the time is out or the game is searched to its end (then
    the answer is exact)."""
    moves = legal_bits(me, opp, g)
    if not moves:
        raise ValueError("no legal move")
    if moves & (moves - 1) == 0:
        return moves
    search = Search(g, clock() + budget, clock)
    empties = (g.mask & ~(me | opp)).bit_count()
    best, depth, value = 0, 0, 0
    try:
        for depth in range(1, empties + 1):
            best, value = search.root(me, opp, depth, best)
            if abs(value) >= WIN:  # the game is decided within the horizon
                break
    except Timeout:
        depth -= 1
    if info is not None:
        info.update(depth=depth, nodes=search.nodes, value=value, empties=empties)
    return best or (moves & -moves)
