"""VCF (victory by continuous fours) for callers outside the engine: the analysis.

`find_vcf` answers with points, not the engine's internal indexes, searches
short lines first (a deepening bound on the number of fours, so a replay marks
the quickest win), and shares the process's threat memo with the hard engine,
so analysing a game after playing it is cheap.
"""

from __future__ import annotations

from gridhall.server.games.gomoku.ai import clock
from gridhall.server.games.gomoku.ai.patterns import C_FIVE
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout

Point = tuple[int, int]
DEPTHS = (3, 6, 12, 30)
"""Bounds on the attacker's fours, tried in turn (each failure is remembered)."""


def find_vcf(moves: list[Point], size: int, rule: str, deadline: float) -> list[Point] | None:
    """The side to move's forced win by fours after `moves` (black first), or None.

    The line alternates attacker and defender moves and ends with the move that
    makes five or an unstoppable four (open four, double four, or a four the
    renju defender may not block). `deadline` is a time on the engine's clock
    (`clock.now()`; perf_counter unless a bench switched it to CPU time); past
    it the answer is None, as when there is no VCF. Renju fouls are respected.
    """
    if clock.now() > deadline:
        return None
    pos = Position(size, rule, moves)
    me = pos.to_move
    if pos.threats[me][C_FIVE]:
        return [pos.xy(min(pos.threats[me][C_FIVE]))]
    search = ThreatSearch(pos, deadline)
    try:
        for depth in DEPTHS:
            line = search.vcf(depth)
            if line:
                return [pos.xy(p) for p in line]
    except Timeout:
        return None
    return None


__all__ = ["find_vcf"]
