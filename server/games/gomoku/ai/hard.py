"""The `hard` opponent: forced moves, threat-space search for both sides, then PVS.

Stages, each on its own slice of the budget (a stage that runs out of time
just ends, and the move is still chosen from what is known):

1. a five, a block of the opponent's four, an open four;
2. our VCF: play it;
3. the opponent's VCF (as if it moved now): keep only moves that refute it;
4. otherwise our VCT (a proof), then our threat-space line (an estimate: played
   only if the opponent has no VCF after its first move);
5. the opponent's threat-space line: keep only moves after which it has none
   (and when a few such moves are left, a deeper VCT check between them);
6. PVS over the moves kept, deepening until the time is used.

Time: the hard cap is `CAP` of the budget, checked every few nodes. The PVS
deepens until the cap (an iteration cut short still counts when it found a
better move); a quiet position (no threat line either way, no open three, no
double-threat point, every threat search finished) starts no new iteration
after `QUIET` of the budget unless the last iteration's score fell
(search.DROP). So the clock's time is used, not left on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridhall.server.games.gomoku.ai import clock, core
from gridhall.server.games.gomoku.ai.patterns import C_FIVE, C_FOUR, C_THREE
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.search import Searcher, shared_table
from gridhall.server.games.gomoku.ai.threats import ThreatSearch, Timeout

CAP = 0.93
"""Fraction of the budget after which every search stops (the rest is for the
answer's way back: the worker's pipe, the event loop, a pbrain pipe)."""
DEEP_CHECK = 6
"""At most this many surviving defences get the deepest (four-three) VCT check."""
QUIET = 0.8
"""Fraction of the budget after which a quiet position starts no new iteration."""


@dataclass
class Stats:
    """What one move cost: for the bench and the pbrain MESSAGE line."""

    nodes: int = 0
    depth: int = 0
    score: int = 0
    reason: str = ""
    seconds: float = 0.0
    sharp: bool = False


def choose(
    moves: list[tuple[int, int]], size: int, rule: str, budget: float, stats: Stats | None = None
) -> tuple[int, int]:
    """The hard engine's move after `moves` (black first), within `budget` seconds."""
    start = clock.now()
    return choose_in(Position(size, rule, moves), budget, start, stats)


def choose_in(  # noqa: C901 - the engine's move choice (book, threats, deepening) in one timed pass; measured by bench/bench_gomoku_ai.py
    pos: Position, budget: float, start: float, stats: Stats | None = None
) -> tuple[int, int]:
    """The move for the side to move in `pos`; the clock started at `start`."""
    st = stats if stats is not None else Stats()
    size = pos.size
    me = pos.to_move
    op = 3 - me

    def done(p: int, reason: str) -> tuple[int, int]:
        st.reason = reason
        st.seconds = clock.now() - start
        return pos.xy(p)

    if core.usable(pos.rule, size):  # the compiled core: the same search, far deeper
        p = core.search(pos, max(budget * CAP - (clock.now() - start), 0.001), st)
        return done(p, st.reason)
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

    cap = start + budget * CAP

    def until(frac: float) -> float:
        return min(cap, start + budget * frac)

    sharp = False
    hint: int | None = None
    ours = ThreatSearch(pos, until(0.2))
    try:
        line = ours.vcf()
        if line:
            st.nodes += ours.nodes
            return done(line[0], "vcf")
    except Timeout:
        sharp = True

    threats: dict[str, tuple[list[int], list[int]]] = {}
    found = opponent_line(pos, "vcf", until(0.26), st)
    if found is not None:
        threats["vcf"] = found
    else:
        try:
            ours.deadline = until(0.34)
            line = ours.vct(depth=3)
            if line:
                st.nodes += ours.nodes
                return done(line[0], "vct")
        except Timeout:
            sharp = True
        try:
            ours.deadline = until(0.37)
            line = ours.threat_space()
            if line and pos.legal(me, line[0]) and _safe(pos, line[0], until(0.4), st):
                st.nodes += ours.nodes
                return done(line[0], "threat-space")
            hint = line[0] if line else None
        except Timeout:
            sharp = True
    for kind, frac in (("vct", 0.47), ("tss", 0.5)):
        found = opponent_line(pos, kind, until(frac), st)
        if found is not None:
            threats[kind] = found
    st.nodes += ours.nodes
    defences: set[int] | None = None
    if threats:
        sharp = True
        cands = set(pos.threats[op][C_FOUR]) | set(pos.threats[op][C_THREE])
        cands |= set(pos.threats[me][C_FOUR]) | set(pos.threats[me][C_THREE])
        for line, cost in threats.values():
            cands |= set(line) | set(cost)
        # the strictest test first: a move must stop the fours, should stop a proven
        # VCT, and preferably the threat-space estimate too; a level nobody passes
        # is skipped (against it we are lost anyway, or it was a false alarm)
        # then, when a few moves are left, a deeper proof picks between them
        levels = (("vcf", 0.55), ("vct2", 0.62), ("vct3", 0.68), ("tss", 0.72), ("vct4", 0.8))
        for kind, frac in levels:
            if kind == "vct4" and (defences is None or len(defences) > DEEP_CHECK):
                break
            if kind == "vcf" and "vcf" not in threats:
                continue
            if kind.startswith("vct") and not ({"vcf", "vct"} & threats.keys()):
                continue
            passed = _refuters(pos, kind, until(frac), st, defences or cands)
            if passed:
                defences = passed
                if len(passed) == 1:
                    break

    searcher = Searcher(pos, cap, width=10, tt=shared_table(size, pos.rule))
    root_moves = searcher.moves_for(me, searcher.forced(me)[1], 14)
    root_moves = [p for p in root_moves if pos.legal(me, p)] or legal[:1]
    if defences:
        root_moves = [p for p in root_moves if p in defences] + sorted(
            p for p in defences if p not in root_moves
        )
    if hint is not None and hint in root_moves:
        root_moves.remove(hint)
        root_moves.insert(0, hint)
    if len(root_moves) == 1:
        return done(root_moves[0], "only-move")
    # sharp: a threat line either way, a search that ran out of time, an open
    # three on the board, or a double-threat point for either side
    sharp = (
        sharp
        or bool(searcher.doubles(me) or searcher.doubles(op))
        or ThreatSearch(pos, cap).threatens_open_four(op)
    )
    st.sharp = sharp
    # a quiet position stops at QUIET of the budget, but the search itself always
    # gets a fair share, however long the threat stages took
    soft = cap if sharp else until(QUIET)
    best, score, depth = searcher.root(root_moves, soft=soft)
    st.nodes += searcher.nodes + searcher.vcf.nodes
    st.depth, st.score = depth, score
    return done(best, "search" if defences is None else "defence")


def opponent_line(
    pos: Position, kind: str, deadline: float, st: Stats
) -> tuple[list[int], list[int]] | None:
    """The opponent's winning line if it could move now (VCF, VCT, or the
    threat-space estimate) and the blocking points it gave us; None when it has
    none or there was no time to tell."""
    pos.parity ^= 1
    search = ThreatSearch(pos, deadline)
    try:
        if kind == "vcf":
            line = search.vcf(depth=20)
        elif kind == "vct":
            line = search.vct(depth=3)
        else:
            line = search.threat_space()
    except Timeout:
        line = None
    finally:
        pos.parity ^= 1
        st.nodes += search.nodes
    return (line, list(search.cost)) if line else None


def opponent_wins_after(pos: Position, p: int, kind: str, deadline: float, st: Stats) -> bool:
    """Does the opponent still have a win after our p: a VCF, or (by `kind`) a
    VCT of up to two, three or four threes ("vct2" .. "vct4"), or a threat-space line?

    If p is a four, the opponent's forced block is played and the opponent is
    then asked as if it moved again: a four only counts as a defence if it also
    breaks the opponent's line."""
    me = pos.to_move
    op = 3 - me
    pos.make(p, me)
    made = 1
    saved = pos.parity
    try:
        fives = pos.threats[me][C_FIVE]
        if len(fives) >= 2:
            return False
        if fives:
            b = next(iter(fives))
            if not pos.legal(op, b):
                return False
            pos.make(b, op)
            made = 2
            pos.parity ^= 1
        check = ThreatSearch(pos, deadline)
        try:
            if check.vcf(depth=20):
                return True
            if kind.startswith("vct"):
                return check.vct(depth=int(kind[3:])) is not None
            return kind == "tss" and check.threat_space() is not None
        finally:
            st.nodes += check.nodes
    finally:
        pos.parity = saved
        for _ in range(made):
            pos.unmake()


def _refuters(
    pos: Position, kind: str, deadline: float, st: Stats, cands: set[int]
) -> set[int] | None:
    """Those of `cands` after which the opponent has no win of `kind`. None if
    none works or there was no time to check any."""
    me = pos.to_move
    ordered = Searcher(pos, deadline).order(
        [p for p in cands if pos.cells[p] == 0 and pos.legal(me, p)], me
    )
    stops: set[int] = set()
    for p in ordered[:24]:
        try:
            if not opponent_wins_after(pos, p, kind, deadline, st):
                stops.add(p)
        except Timeout:
            break
    return stops or None


def _safe(pos: Position, p: int, deadline: float, st: Stats) -> bool:
    """Our threat-space move p leaves the opponent no VCF (False if unsure)."""
    try:
        return not opponent_wins_after(pos, p, "vcf", deadline, st)
    except Timeout:
        return False
