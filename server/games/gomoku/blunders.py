"""Blunders: the move that let the opponent force a win, and the move that stops it.

A ply is a blunder when, after it, the opponent has a forced win, and a defence existed:
some other move after which the opponent has no win by fours (a VCF) and none by threes
and fours (a VCT of up to :data:`THREES` threes) that the hard engine's threat search
finds. The same tests the engine uses to keep only refuting moves
(:func:`~gridhall.server.games.gomoku.ai.hard.opponent_wins_after`), so the mark and its
defence are what the engine itself would have played against. Pure and synchronous: the
analysis runs it in the worker pool (:func:`.analysis.analyse_ply`).
"""

from __future__ import annotations

from gridhall.server.games.gomoku.ai import hard
from gridhall.server.games.gomoku.ai.patterns import C_FOUR, C_THREE
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.search import Searcher
from gridhall.server.games.gomoku.ai.threats import Timeout

Point = tuple[int, int]
THREES = "vct3"
"""The depth of the VCT a defence must leave the opponent without (the engine's
deepest refutation check but one: it answers in a fraction of a budget)."""
TRIED = 24
"""Candidate defences tried at most, best first (the engine's own bound)."""


def find_defence(
    moves: list[Point], played: Point, size: int, rule: str, deadline: float, first: Point | None
) -> Point | None:
    """A move for the side to move after ``moves`` that would have stopped the forced win
    its opponent has after ``played`` (``first``, the engine's choice there, is tried
    first). None when none is found by ``deadline``, when there was none (the position
    was lost already), or when the same test cannot see the opponent's win after
    ``played`` either (then it could not tell a defence from the blunder)."""
    pos = Position(size, rule, moves)
    me = pos.to_move
    st = hard.Stats()
    try:
        at = pos.grid.index(*played)
        if pos.cells[at] != 0 or not hard.opponent_wins_after(pos, at, THREES, deadline, st):
            return None
        for p in _candidates(pos, me, deadline, st, first):
            if p != at and not hard.opponent_wins_after(pos, p, THREES, deadline, st):
                return pos.xy(p)
    except Timeout:
        return None
    return None


def _candidates(
    pos: Position, me: int, deadline: float, st: hard.Stats, first: Point | None
) -> list[int]:
    """Moves that could stop the opponent's threats: its four- and three-making points,
    the points of the line it would win by if it moved now and the points that line
    leaves us, and our own fours and threes (a counter-attack); best first."""
    op = 3 - me
    cands = set(pos.threats[op][C_FOUR]) | set(pos.threats[op][C_THREE])
    cands |= set(pos.threats[me][C_FOUR]) | set(pos.threats[me][C_THREE])
    for kind in ("vcf", "vct"):
        found = hard.opponent_line(pos, kind, deadline, st)
        if found is not None:
            line, cost = found
            cands |= set(line) | set(cost)
    legal = [p for p in cands if pos.cells[p] == 0 and pos.legal(me, p)]
    ordered = Searcher(pos, deadline).order(legal, me)[:TRIED]
    if first is not None:
        p = pos.grid.index(*first)
        if pos.cells[p] == 0 and pos.legal(me, p):
            ordered = [p, *(q for q in ordered if q != p)]
    return ordered
