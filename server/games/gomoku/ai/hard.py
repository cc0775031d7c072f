"""The `hard` opponent: forced moves, VCF, a shallow VCT, then PVS in the budget.

The budget is split: threat search first (cheap, and it ends the game when it
succeeds), then iterative-deepening alpha-beta until the deadline. Every stage
checks the clock, so a move returns within the budget plus a few milliseconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from gridhall.server.games.gomoku.ai.patterns import C_FIVE, C_FOUR
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.search import Searcher
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout


@dataclass
class Stats:
    """What one move cost: for the bench and the pbrain MESSAGE line."""

    nodes: int = 0
    depth: int = 0
    score: int = 0
    reason: str = ""
    seconds: float = 0.0


def choose(
    moves: list[tuple[int, int]], size: int, rule: str, budget: float, stats: Stats | None = None
) -> tuple[int, int]:
    """The hard engine's move after `moves` (black first), within `budget` seconds."""
    start = time.perf_counter()
    return choose_in(Position(size, rule, moves), budget, start, stats)


def choose_in(
    pos: Position, budget: float, start: float, stats: Stats | None = None
) -> tuple[int, int]:
    """The move for the side to move in `pos`; the clock started at `start`."""
    st = stats if stats is not None else Stats()
    size = pos.size
    me = pos.to_move
    op = 3 - me

    def done(p: int, reason: str) -> tuple[int, int]:
        st.reason = reason
        st.seconds = time.perf_counter() - start
        return pos.xy(p)

    if not pos.stack:
        return done(pos.grid.index(size // 2, size // 2), "opening")
    legal = [p for p in pos.candidates() if pos.legal(me, p)]
    if not legal:
        legal = [p for p in pos.points if pos.cells[p] == 0 and pos.legal(me, p)]
        if not legal:
            raise ValueError("no legal move left")
    if pos.threats[me][C_FIVE]:
        return done(min(pos.threats[me][C_FIVE]), "five")
    fives = pos.threats[op][C_FIVE]
    if fives:
        blocks = [p for p in sorted(fives) if pos.legal(me, p)]
        return done(blocks[0] if blocks else legal[0], "block-four")
    for p in sorted(pos.threats[me][C_FOUR]):
        if pos.wins_next(me, p) and pos.legal(me, p):
            return done(p, "open-four")

    deadline = start + budget * 0.9
    threat = ThreatSearch(pos, min(deadline, start + budget * 0.25))
    try:
        line = threat.vcf()
        if line:
            st.nodes += threat.nodes
            return done(line[0], "vcf")
        threat.deadline = min(deadline, start + budget * 0.4)
        line = threat.vct(depth=2)
        if line:
            st.nodes += threat.nodes
            return done(line[0], "vct")
    except Timeout:
        pass
    st.nodes += threat.nodes

    searcher = Searcher(pos, deadline, width=10)
    root_moves = searcher.moves_for(me, searcher.forced(me)[1], 14)
    root_moves = [p for p in root_moves if pos.legal(me, p)] or legal[:1]
    defences = _vcf_defences(pos, min(deadline, start + budget * 0.6), st)
    if defences:
        root_moves = [p for p in root_moves if p in defences] + sorted(
            p for p in defences if p not in root_moves
        )
    if len(root_moves) == 1:
        return done(root_moves[0], "only-move")
    best, score, depth = searcher.root(root_moves)
    st.nodes += searcher.nodes
    st.depth, st.score = depth, score
    return done(best, "search")


def _vcf_defences(pos: Position, deadline: float, st: Stats) -> set[int] | None:
    """If the opponent threatens a VCF, the moves that stop it (None: no threat,
    or no time to tell). Candidates are the points of its winning line; our own
    fours only delay it, so they do not count as stops."""
    me = pos.to_move
    pos.parity ^= 1
    search = ThreatSearch(pos, deadline)
    try:
        line = search.vcf(depth=20)
    except Timeout:
        line = None
    finally:
        pos.parity ^= 1
    if not line:
        st.nodes += search.nodes
        return None
    tries = sorted(set(line))
    stops: set[int] = set()
    try:
        for p in tries:
            if pos.cells[p] != 0 or not pos.legal(me, p):
                continue
            pos.make(p)
            try:
                check = ThreatSearch(pos, deadline)
                if check.vcf(depth=20) is None:
                    stops.add(p)
                st.nodes += check.nodes
            finally:
                pos.unmake()
    except Timeout:
        return None
    st.nodes += search.nodes
    return stops or None
