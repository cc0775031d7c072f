"""Alpha-beta search: principal variation search, iterative deepening, a
transposition table and threat-aware move ordering.

Forced situations are resolved before the ordinary move list: a five wins, the
opponent's five must be blocked (two of them lose), an open four wins, and
against an open three only blocks and own fours are tried. Otherwise the best
few points by shape score (attack + defence) are searched, the TT move first.
"""

from __future__ import annotations

from gridhall.server.games.gomoku.ai import clock
from gridhall.server.games.gomoku.ai.patterns import C_FIVE, C_FOUR, C_THREE
from gridhall.server.games.gomoku.ai.position import SB, SW, WEIGHT, Position
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout
from gridhall.server.games.gomoku.renju import BLACK

WIN = 1_000_000
EXACT, LOWER, UPPER = 0, 1, 2
DEFENCE = (0, 1, 6, 8, 30, 40, 250, 1500, 0)
"""Value of occupying a point where the opponent would make each shape."""
DROP = 150
"""A score fall between iterations that earns more time past the soft limit."""
THREAT = (0, 0, 0, 0, 1, 1, 1, 0, 0)
"""1 for the shapes that threaten a five soon (three, four, open four)."""
DOUBLE_MINE = 1200
"""Leaf bonus when the side to move has a double-threat point."""
DOUBLE_THEIRS = 300
"""Leaf penalty per double-threat point of the opponent (times four for two or more)."""
OWN_PERMILLE = 1200
"""The side to move's shape totals count this many thousandths of the opponent's:
it plays first, so its shapes are a tempo ahead (as in the compiled core)."""
LEAF_VCF = 8
"""Fours a leaf's VCF check may play: quiescence for the sharpest tactics."""
SIDE = 0x5DEECE66D_2545F491
"""Mixed into the hash when white is to move, so a TT entry is for one side to move."""
TT_MAX = 200_000
"""Entries the shared table may hold before it is cleared (some 30 MB)."""
_TABLE: tuple[tuple[int, str], dict[int, tuple[int, int, int, int]]] = ((0, ""), {})


def shared_table(size: int, rule: str) -> dict[int, tuple[int, int, int, int]]:
    """This process's transposition table: kept from one move to the next (positions
    recur two plies later), for one board size and rule set at a time (another
    starts it afresh), cleared when full."""
    global _TABLE
    if _TABLE[0] != (size, rule) or len(_TABLE[1]) > TT_MAX:
        _TABLE = ((size, rule), {})
    return _TABLE[1]


class Searcher:
    """Iterative-deepening PVS over a Position for the side to move."""

    def __init__(
        self,
        pos: Position,
        deadline: float,
        width: int = 10,
        tt: dict[int, tuple[int, int, int, int]] | None = None,
    ) -> None:
        self.pos = pos
        self.deadline = deadline
        self.width = width
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {} if tt is None else tt
        self.vcf = ThreatSearch(pos, deadline)
        """Leaf VCF checks, sharing the process's threat memo."""
        self.killers: dict[int, list[int]] = {}
        """Per ply, the last two moves that caused a cutoff there: tried early."""

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 7 == 0 and clock.now() > self.deadline:
            raise Timeout

    def evaluate(self) -> int:
        """Shape totals from the side to move's view (its own weighted up), with a
        tempo bonus, plus the double threats the sums miss: a point where one
        stone makes four-three, four-four or three-three. The side to move can
        play one now (nearly a win); the opponent's must be answered, and two of
        them rarely can be."""
        pos = self.pos
        me = pos.to_move
        op = 3 - me
        score = (pos.total[me] * OWN_PERMILLE - pos.total[op] * 1000) // 1000 + 20
        if self.doubles(me):
            score += DOUBLE_MINE
        theirs = self.doubles(op)
        if theirs:
            score -= DOUBLE_THEIRS if theirs == 1 else DOUBLE_THEIRS * 4
        return score

    def doubles(self, c: int) -> int:
        """How many points give c a double threat (0, 1 or 2 = two or more)."""
        pos = self.pos
        fours = pos.threats[c][C_FOUR]
        threes = pos.threats[c][C_THREE]
        foul_rule = pos.renju and c == BLACK  # three-three and four-four are fouls
        n = 0
        for p, k in fours.items():
            if (k >= 2 and not foul_rule) or p in threes:
                n += 1
                if n >= 2:
                    return 2
        if not foul_rule:
            for p, k in threes.items():
                if k >= 2 and p not in fours:
                    n += 1
                    if n >= 2:
                        return 2
        return n

    def order(self, moves: list[int], me: int) -> list[int]:
        """Moves by attack + defence shape value, best first (flat: a hot loop)."""
        pos = self.pos
        L = pos.L
        keys = pos.keys
        tab = pos.pairs.table
        fill = pos.pairs.fill
        mine, theirs = (SB, SW) if me == BLACK else (SW, SB)
        weight, defence = WEIGHT, DEFENCE
        threat = THREAT
        scored = []
        for p in moves:
            s = a = d = 0
            for fi in (p, p + L, p + 2 * L, p + 3 * L):
                k = keys[fi]
                v = tab[k]
                if v < 0:
                    v = fill(k)
                m, t = mine[v], theirs[v]
                s += weight[m] + defence[t]
                a += threat[m]
                d += threat[t]
            if a >= 2:
                s += 600  # our double threat
            if d >= 2:
                s += 300  # theirs, to spoil
            scored.append((-s, p))
        scored.sort()
        return [p for _, p in scored]

    def forced(self, me: int) -> tuple[int | None, list[int] | None]:
        """(a result score, or None) and the restricted move list (None = all)."""
        pos = self.pos
        op = 3 - me
        ply = len(pos.stack)
        if pos.threats[me][C_FIVE]:
            return WIN - ply, None
        fives = pos.threats[op][C_FIVE]
        if len(fives) > 1:
            return -(WIN - ply - 1), None
        if fives:
            b = next(iter(fives))
            if not pos.legal(me, b):
                return -(WIN - ply - 1), None
            return None, [b]
        for p in pos.threats[me][C_FOUR]:
            if pos.wins_next(me, p) and pos.legal(me, p):
                return WIN - ply - 2, None
        if pos.threats[op][C_THREE] and any(pos.wins_next(op, q) for q in pos.threats[op][C_FOUR]):
            # op threatens an open four: block its four points or make our own fours
            moves = set(pos.threats[op][C_FOUR]) | set(pos.threats[me][C_FOUR])
            return None, [p for p in moves if pos.legal(me, p)]
        return None, None

    def moves_for(self, me: int, restricted: list[int] | None, width: int) -> list[int]:
        pos = self.pos
        if restricted is not None:
            return self.order(restricted, me)[: max(width, 1) * 2]
        ordered = self.order(pos.candidates(), me)
        out = []
        for p in ordered:
            if pos.legal(me, p):
                out.append(p)
                if len(out) >= width:
                    break
        return out

    def pvs(self, depth: int, alpha: int, beta: int) -> int:  # noqa: C901 - the alpha-beta inner loop, inlined: a call per node costs (bench/bench_gomoku_ai.py)
        self._tick()
        pos = self.pos
        me = pos.to_move
        result, restricted = self.forced(me)
        if result is not None:
            return result
        if restricted is not None and len(restricted) == 1 and len(pos.stack) < 60:
            depth += 1  # a single forced reply costs no depth
        if depth <= 0:
            if restricted is None and pos.threats[me][C_FOUR]:
                # a leaf where the side to move can four: is it a win by fours?
                line = self.vcf.vcf(LEAF_VCF)
                if line:
                    return WIN - len(pos.stack) - len(line)
            return self.evaluate()
        key = pos.hash if me == BLACK else pos.hash ^ SIDE
        entry = self.tt.get(key)
        tt_move = -1
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth:
                if flag == EXACT:
                    return e_score
                if flag == LOWER and e_score >= beta:
                    return e_score
                if flag == UPPER and e_score <= alpha:
                    return e_score
        moves = self.moves_for(me, restricted, self.width)
        if not moves:
            return -(WIN - len(pos.stack) - 1) if restricted is not None else 0
        ply = len(pos.stack)
        killers = self.killers.get(ply)
        if killers:
            for k in reversed(killers):
                if k in moves and k != moves[0]:
                    moves.remove(k)
                    moves.insert(1 if len(moves) > 1 else 0, k)
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        best, best_move = -WIN * 2, moves[0]
        a0 = alpha
        for i, p in enumerate(moves):
            pos.make(p)
            try:
                if i == 0:
                    score = -self.pvs(depth - 1, -beta, -alpha)
                else:
                    score = -self.pvs(depth - 1, -alpha - 1, -alpha)
                    if alpha < score < beta:
                        score = -self.pvs(depth - 1, -beta, -score)
            finally:
                pos.unmake()
            if score > best:
                best, best_move = score, p
            if score > alpha:
                alpha = score
            if alpha >= beta:
                if killers is None:
                    self.killers[ply] = [p]
                elif p not in killers:
                    killers.insert(0, p)
                    del killers[2:]
                break
        flag = EXACT if a0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, flag, best, best_move)
        return best

    def root(
        self, moves: list[int], max_depth: int = 20, soft: float | None = None
    ) -> tuple[int, int, int]:
        """Best move, its score and the depth completed (>= 1 unless out of time).

        Deepens until the deadline. Past `soft` it starts no new iteration,
        unless the last iteration's score fell by more than DROP (trouble found:
        think on, up to the deadline). An iteration cut short still counts if it
        already found a move better than the previous best, so the last one is
        started whenever time is left."""
        pos = self.pos
        best_move, best_score, done = moves[0], 0, 0
        for depth in range(1, max_depth + 1):
            it_best, it_score, searched = moves[0], -WIN * 2, 0
            try:
                alpha, beta = -WIN * 2, WIN * 2
                for i, p in enumerate(moves):
                    pos.make(p)
                    try:
                        if i == 0:
                            score = -self.pvs(depth - 1, -beta, -alpha)
                        else:
                            score = -self.pvs(depth - 1, -alpha - 1, -alpha)
                            if score > alpha:
                                score = -self.pvs(depth - 1, -beta, -score)
                    finally:
                        pos.unmake()
                    searched += 1
                    if score > it_score:
                        it_best, it_score = p, score
                    alpha = max(alpha, score)
            except Timeout:
                if searched > 1 and it_best != moves[0]:
                    best_move, best_score = it_best, it_score
                break
            dropped = depth > 1 and it_score < best_score - DROP
            best_move, best_score, done = it_best, it_score, depth
            moves.remove(it_best)
            moves.insert(0, it_best)
            if abs(best_score) >= WIN - 100:
                break
            if soft is not None and not dropped and clock.now() > soft:
                break
        return best_move, best_score, done
