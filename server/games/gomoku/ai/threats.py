"""Threat-space search: VCF, VCT, and a fast threat-space estimate for defence.

Fours leave the defender one reply, so VCF explores a narrow tree: the attacker
plays a four, the defender must take the completion point, repeat until the
attacker has an open four, two fours, or a five.

VCT also allows threes (a move after which one more stone makes an open four).
In `vct` the defender tries every blocking point (the attacker's new four
points) and every counter-four, so a line it returns is a proof within its
depth. `threat_space` is the cheaper estimate that Allis's threat-space search
makes: after a three the defender takes *all* its blocking points at once, so
there is one line to follow per attacking move and it reaches deeper. It can
see wins that counter-fours refute; the engine uses it to find the opponent's
plans early (a false alarm costs only a passive move) and to order its own
attacks, never as a proof.

Every search is bounded by a deadline (Timeout) and memoises refuted positions.
"""

from __future__ import annotations

from gridhall.server.games.gomoku.ai import clock
from gridhall.server.games.gomoku.ai.patterns import C_FIVE, C_FOUR, C_THREE, OPEN4, THREE
from gridhall.server.games.gomoku.ai.position import Position


class Timeout(Exception):
    """The search ran out of its time budget."""


CACHE_MAX = 200_000
"""Entries a shared memo may hold before it is cleared."""


class Memo:
    """What threat searches proved, by stones and attacker (both in every key)."""

    def __init__(self) -> None:
        self.failed: set[tuple[int, int, int]] = set()
        """VCT / threat-space searches that found nothing, with their depth code."""
        self.won: dict[tuple[int, int], list[int]] = {}
        """VCT wins already proven, by (hash, attacker): transpositions are common."""
        self.vcf_failed: dict[tuple[int, int], int] = {}
        """The deepest VCF search that found nothing, by (hash, attacker)."""

    def size(self) -> int:
        return len(self.failed) + len(self.won) + len(self.vcf_failed)


_MEMO: tuple[tuple[int, str], Memo] = ((0, ""), Memo())


def shared_memo(size: int, rule: str) -> Memo:
    """This process's threat memo, for one board size and rule set at a time.

    A result depends only on the stones and the attacker, so the engine's many
    searches of one move, and of the next moves of the same game, share what
    they proved; a search cut short by Timeout records nothing."""
    global _MEMO
    if _MEMO[0] != (size, rule) or _MEMO[1].size() > CACHE_MAX:
        _MEMO = ((size, rule), Memo())
    return _MEMO[1]


class ThreatSearch:
    """VCF / VCT / threat-space estimate on one position, for the side to move."""

    def __init__(self, pos: Position, deadline: float, shared: bool = True) -> None:
        self.pos = pos
        self.deadline = deadline
        self.nodes = 0
        memo = shared_memo(pos.size, pos.rule) if shared else Memo()
        self.failed = memo.failed
        self.won = memo.won
        self.vcf_failed = memo.vcf_failed
        self.cost: list[int] = []
        """Blocking points the last successful threat-space line gave the defender."""

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 15 == 0 and clock.now() > self.deadline:
            raise Timeout

    # helpers -------------------------------------------------------------------
    def _four_moves(self, me: int) -> list[int]:
        """me's four-making points, strongest first (open fours, double fours)."""
        pos = self.pos
        op = 3 - me
        forced = pos.threats[op][C_FIVE]
        if len(forced) > 1:
            return []
        if forced:
            block = next(iter(forced))
            return [block] if block in pos.threats[me][C_FOUR] else []
        fours = pos.threats[me][C_FOUR]
        return sorted(fours, key=lambda p: (-fours[p], -pos.total_at(me, p), p))

    def _three_moves(self, me: int, limit: int) -> list[int]:
        """me's three-making points (open-four threats next move), best `limit`."""
        pos = self.pos
        threes = pos.threats[me][C_THREE]
        ranked = sorted(threes, key=lambda p: (-threes[p], -pos.total_at(me, p), p))
        return ranked[:limit]

    def threatens_open_four(self, c: int) -> bool:
        """Can c make an open four (or a double four) with its next stone?"""
        pos = self.pos
        return any(OPEN4 in pos.shapes(c, q) and pos.legal(c, q) for q in pos.threats[c][C_FOUR])

    # VCF ---------------------------------------------------------------------------
    def vcf(self, depth: int = 30) -> list[int] | None:
        """A winning sequence of fours for the side to move (moves alternate), or None."""
        pos = self.pos
        me = pos.to_move
        if pos.threats[me][C_FIVE]:
            return [min(pos.threats[me][C_FIVE])]
        return self._vcf(me, depth)

    def _vcf(self, me: int, depth: int) -> list[int] | None:
        pos = self.pos
        self._tick()
        if depth <= 0:
            return None
        key = (pos.hash, me)
        if self.vcf_failed.get(key, 0) >= depth:
            return None
        op = 3 - me
        for a in self._four_moves(me):
            if not pos.legal(me, a):
                continue
            pos.make(a, me)
            try:
                fives = pos.threats[me][C_FIVE]
                if len(fives) >= 2:
                    return [a]
                if len(fives) == 1:
                    b = next(iter(fives))
                    if not pos.legal(op, b):
                        return [a]
                    pos.make(b, op)
                    try:
                        rest = self._vcf(me, depth - 1)
                    finally:
                        pos.unmake()
                    if rest is not None:
                        return [a, b, *rest]
            finally:
                pos.unmake()
        self.vcf_failed[key] = depth
        return None

    # VCT (proof within depth) ----------------------------------------------------------
    def vct(self, depth: int = 3, vcf_depth: int = 12) -> list[int] | None:
        """A win by threes and fours for the side to move: its first move(s), or None.

        Iterative deepening on the number of threes, so a short win is found first."""
        pos = self.pos
        me = pos.to_move
        line = self.vcf(vcf_depth)
        if line:
            return line
        for d in range(1, depth + 1):
            line = self._vct(me, d, vcf_depth, 4)
            if line:
                return line
        return None

    def _vct(self, me: int, depth: int, vcf_depth: int, fours: int) -> list[int] | None:
        pos = self.pos
        self._tick()
        if depth <= 0:
            return None
        key = (pos.hash, me, depth * 8 + fours)
        if key in self.failed:
            return None
        known = self.won.get((pos.hash, me))
        if known is not None:
            return known
        line = self._vct_search(me, depth, vcf_depth, fours)
        if line is None:
            self.failed.add(key)
        else:
            self.won[(pos.hash, me)] = line
        return line

    def _vct_search(self, me: int, depth: int, vcf_depth: int, fours: int) -> list[int] | None:
        pos = self.pos
        op = 3 - me
        if pos.threats[op][C_FIVE]:
            return None
        # a defender with an open three of its own leaves only fours, and threes
        # that block it on the way
        op_three = self.threatens_open_four(op)
        attacks = self._three_moves(me, 8)
        if fours > 0:
            attacks += [p for p in self._four_moves(me)[:6] if p not in attacks]
        for a in attacks:
            if not pos.legal(me, a):
                continue
            pos.make(a, me)
            try:
                fives = pos.threats[me][C_FIVE]
                if len(fives) == 1:  # a four that prepares a three
                    if fours <= 0:
                        continue
                    b = next(iter(fives))
                    if not pos.legal(op, b):
                        return [a]
                    pos.make(b, op)
                    try:
                        rest = (
                            None
                            if pos.threats[op][C_FIVE]
                            else self._vct(me, depth, vcf_depth, fours - 1)
                        )
                    finally:
                        pos.unmake()
                    if rest is not None:
                        return [a, b, *rest]
                    continue
                if fives or not self.threatens_open_four(me):
                    continue
                if op_three and self.threatens_open_four(op):
                    continue
                defences = set(pos.threats[me][C_FOUR]) | set(pos.threats[op][C_FOUR])
                if self._refuted(me, defences, depth, vcf_depth):
                    continue
                return [a]
            finally:
                pos.unmake()
        return None

    def _refuted(self, me: int, defences: set[int], depth: int, vcf_depth: int) -> bool:
        """The defender (to move) can meet me's threat with one of `defences`.

        A counter-four forces the attacker's block, after which the defender moves
        again; if the attacker's threat is gone by then, count it as refuted. If
        that block makes a four, the defender takes its point and the attack must
        still win from there (the block may have broken it).
        """
        pos = self.pos
        op = 3 - me
        for d in sorted(defences, key=lambda q: -pos.total_at(me, q)):
            if not pos.legal(op, d):
                continue
            pos.make(d, op)
            try:
                fives = pos.threats[op][C_FIVE]
                if fives:
                    if len(fives) > 1:
                        return True
                    b = next(iter(fives))
                    if not pos.legal(me, b):
                        return True
                    pos.make(b, me)
                    try:
                        ours = pos.threats[me][C_FIVE]
                        if len(ours) > 1:
                            continue  # the block made an open four or two fours: a win
                        if ours:
                            # the block made a four: the defender takes its point, and
                            # what is left of the attack must still win
                            if self._still_wins(me, next(iter(ours)), depth, vcf_depth):
                                continue
                            return True
                        if not self.threatens_open_four(me):
                            return True
                        again = set(pos.threats[me][C_FOUR]) | set(pos.threats[op][C_FOUR])
                        if self._refuted(me, again, depth, vcf_depth):
                            return True
                    finally:
                        pos.unmake()
                elif (
                    self._vcf(me, vcf_depth) is None
                    and self._vct(me, depth - 1, vcf_depth, 4) is None
                ):
                    return True
            finally:
                pos.unmake()
        return False

    def _still_wins(self, me: int, point: int, depth: int, vcf_depth: int) -> bool:
        """After the defender blocks me's four at `point`: does me still win?"""
        pos = self.pos
        op = 3 - me
        if not pos.legal(op, point):
            return True
        pos.make(point, op)
        try:
            if pos.threats[op][C_FIVE]:
                return False  # the block made a four back: counted as refuted
            return (
                self._vcf(me, vcf_depth) is not None
                or self._vct(me, depth - 1, vcf_depth, 4) is not None
            )
        finally:
            pos.unmake()

    # threat-space estimate --------------------------------------------------------------
    def threat_space(self, depth: int = 4, fours: int = 6) -> list[int] | None:
        """The side to move's winning threat line if the defender only ever blocks
        (all blocking points at once after each three), or None. `self.cost` gets
        the points the defender took along the line."""
        pos = self.pos
        me = pos.to_move
        self.cost = []
        if pos.threats[me][C_FIVE]:
            return [min(pos.threats[me][C_FIVE])]
        saved = pos.parity
        try:
            return self._tss(me, depth, fours)
        finally:
            pos.parity = saved

    def _tss(self, me: int, depth: int, fours: int) -> list[int] | None:  # noqa: C901 - threat-space search's inner loop, inlined (bench/bench_gomoku_ai.py)
        pos = self.pos
        self._tick()
        op = 3 - me
        if pos.threats[me][C_FIVE]:
            return []
        if pos.threats[op][C_FIVE]:
            return None
        for p in pos.threats[me][C_FOUR]:
            if pos.wins_next(me, p) and pos.legal(me, p):
                return [p]
        key = (pos.hash, me, 64 + depth * 8 + fours)
        if key in self.failed:
            return None
        attacks = self._four_moves(me)[:8] if fours > 0 else []
        op_three = self.threatens_open_four(op)
        if depth > 0:
            attacks += [p for p in self._three_moves(me, 8) if p not in attacks]
        for a in attacks:
            if not pos.legal(me, a):
                continue
            if not op_three and sum(1 for v in pos.shapes(me, a) if v == THREE) >= 2:
                return [a]  # two open threes at once: one block cannot stop both
            before = set(pos.threats[me][C_FOUR])
            parity = pos.parity
            pos.make(a, me)
            placed = 0
            try:
                fives = pos.threats[me][C_FIVE]
                if len(fives) >= 2:
                    return [a]
                if len(fives) == 1:
                    b = next(iter(fives))
                    if not pos.legal(op, b):
                        return [a]
                    pos.make(b, op)
                    placed = 1
                    rest = self._tss(me, depth, fours - 1)
                    if rest is not None:
                        self.cost.append(b)
                        return [a, *rest]
                    continue
                if depth <= 0 or not self.threatens_open_four(me):
                    continue
                if op_three and self.threatens_open_four(op):
                    continue  # our three left the defender's open three standing
                blocks = [q for q in pos.threats[me][C_FOUR] if q not in before]
                for q in blocks:
                    pos.make(q, op)
                placed = len(blocks)
                if pos.to_move != me:
                    pos.parity ^= 1
                rest = self._tss(me, depth - 1, fours)
                if rest is not None:
                    self.cost.extend(blocks)
                    return [a, *rest]
            finally:
                for _ in range(placed):
                    pos.unmake()
                pos.unmake()
                pos.parity = parity
        self.failed.add(key)
        return None
