"""Threat-space search: VCF (victory by continuous fours) and a shallow VCT.

Fours leave the defender one reply, so VCF explores a narrow tree: the attacker
plays a four, the defender must take the completion point, repeat until the
attacker has an open four, two fours, or a five. VCT also allows open threes;
the defender then gets every blocking point plus its own counter-fours.
Both are bounded by a deadline (Timeout) and memoise refuted positions.
"""

from __future__ import annotations

import time

from gridhall.server.games.gomoku.ai.patterns import C_FIVE, C_FOUR, C_THREE, OPEN4
from gridhall.server.games.gomoku.ai.position import Position


class Timeout(Exception):
    """The search ran out of its time budget."""


class ThreatSearch:
    """VCF / VCT on one position, for the side that is to move."""

    def __init__(self, pos: Position, deadline: float) -> None:
        self.pos = pos
        self.deadline = deadline
        self.nodes = 0
        self.failed: set[tuple[int, int, int]] = set()

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes & 63 == 0 and time.perf_counter() > self.deadline:
            raise Timeout

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
        key = (pos.hash, me, 0)
        if key in self.failed:
            return None
        op = 3 - me
        for a in self._four_moves(me):
            if not pos.legal(me, a):
                continue
            pos.make(a)
            try:
                fives = pos.threats[me][C_FIVE]
                if len(fives) >= 2:
                    return [a]
                if len(fives) == 1:
                    b = next(iter(fives))
                    if not pos.legal(op, b):
                        return [a]
                    pos.make(b)
                    try:
                        rest = self._vcf(me, depth - 1)
                    finally:
                        pos.unmake()
                    if rest is not None:
                        return [a, b, *rest]
            finally:
                pos.unmake()
        self.failed.add(key)
        return None

    def vct(self, depth: int = 3, vcf_depth: int = 12) -> list[int] | None:
        """A win by threes and fours for the side to move: its first move(s), or None."""
        pos = self.pos
        me = pos.to_move
        line = self.vcf(vcf_depth)
        if line:
            return line
        return self._vct(me, depth, vcf_depth)

    def _vct(self, me: int, depth: int, vcf_depth: int) -> list[int] | None:
        pos = self.pos
        self._tick()
        if depth <= 0:
            return None
        key = (pos.hash, me, depth)
        if key in self.failed:
            return None
        op = 3 - me
        if pos.threats[op][C_FIVE]:
            return None
        threes = pos.threats[me][C_THREE]
        attacks = sorted(threes, key=lambda p: (-threes[p], -pos.total_at(me, p), p))[:10]
        for a in attacks:
            if not pos.legal(me, a):
                continue
            pos.make(a)
            try:
                if not any(OPEN4 in pos.shapes(me, q) for q in pos.threats[me][C_FOUR]):
                    continue
                defences = set(pos.threats[me][C_FOUR]) | set(pos.threats[op][C_FOUR])
                if self._refuted(me, defences, depth, vcf_depth):
                    continue
                return [a]
            finally:
                pos.unmake()
        self.failed.add(key)
        return None

    def _refuted(self, me: int, defences: set[int], depth: int, vcf_depth: int) -> bool:
        """The defender (to move) can meet me's threat with one of `defences`.

        A counter-four forces the attacker's block, after which the defender moves
        again; if the attacker's threat is gone by then, count it as refuted.
        """
        pos = self.pos
        op = 3 - me
        for d in sorted(defences):
            if not pos.legal(op, d):
                continue
            pos.make(d)
            try:
                fives = pos.threats[op][C_FIVE]
                if fives:
                    if len(fives) > 1:
                        return True
                    b = next(iter(fives))
                    if not pos.legal(me, b):
                        return True
                    pos.make(b)
                    try:
                        if pos.threats[me][C_FIVE]:
                            continue  # the block made a four: the attacker keeps the initiative
                        threat = any(OPEN4 in pos.shapes(me, q) for q in pos.threats[me][C_FOUR])
                        if not threat:
                            return True
                        again = set(pos.threats[me][C_FOUR]) | set(pos.threats[op][C_FOUR])
                        if self._refuted(me, again, depth, vcf_depth):
                            return True
                    finally:
                        pos.unmake()
                elif (
                    self._vcf(me, vcf_depth) is None and self._vct(me, depth - 1, vcf_depth) is None
                ):
                    return True
            finally:
                pos.unmake()
        return False
