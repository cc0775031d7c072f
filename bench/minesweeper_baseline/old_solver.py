"""Baseline copy (pre issue 16): What a player can prove about a board, and how risky each hidden cell is.

:class:`Knowledge` holds only public facts (revealed numbers, known mines, the
mine total), so anything it concludes is safe to show a player. Cheap rules run
first (single-cell, pair overlap, global count); when they stall, :meth:`analyse`
enumerates the frontier exactly: cells that share the same constraints are one
variable (weighted by ``comb``), independent frontier components are enumerated
apart and combined by convolution, weighted by the ways to place the remaining
mines in the unconstrained interior. That gives exact probabilities and, from
them, every certainty the position holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from gridhall.server.games.minesweeper.board import Board, neighbour_table

UNKNOWN, SAFE, MINE = 0, 1, 2
NO_NUMBER = 255
DEFAULT_BUDGET = 100_000
"""Search nodes the exact enumeration may visit before giving up (keeps hints fast)."""


TIE_MARGIN = 0.05
LOOKAHEAD = 8
PROGRESS_WEIGHT = 0.25


class TooComplex(Exception):
    """The frontier is too large to enumerate within the budget."""


@dataclass
class Analysis:
    """Mine probability for every hidden cell, plus the exact certainties."""

    prob: dict[int, float]
    safe: set[int] = field(default_factory=set)
    mines: set[int] = field(default_factory=set)
    exact: bool = True


class Knowledge:
    """Public knowledge of one board; rules and enumeration extend it."""

    def __init__(self, width: int, height: int, mines: int) -> None:
        self.width = width
        self.height = height
        self.total = mines
        self.nb = neighbour_table(width, height)
        n = width * height
        self.state = bytearray(n)
        self.number = bytearray([NO_NUMBER]) * n
        self.known_mines = 0
        self.unknown = n
        self.found_safe: list[int] = []
        self.found_mines: list[int] = []
        self._dirty: set[int] = set()
        self._pair_dirty: set[int] = set()

    # -- facts ---------------------------------------------------------------
    def reveal(self, cell: int, number: int) -> None:
        """A safe cell shows ``number``."""
        if self.state[cell] == MINE:
            raise ValueError("a known mine cannot show a number")
        if self.state[cell] == UNKNOWN:
            self.unknown -= 1
            self.state[cell] = SAFE
            self._touch(cell)
        self.number[cell] = number
        self._dirty.add(cell)
        self._pair_dirty.add(cell)

    def add_safe(self, cell: int) -> None:
        """``cell`` is safe but shows no number (proven, or a wrong flag)."""
        if self.state[cell] == UNKNOWN:
            self.unknown -= 1
            self.state[cell] = SAFE
            self.found_safe.append(cell)
            self._touch(cell)

    def add_mine(self, cell: int) -> None:
        """``cell`` is a mine (proven, or exploded)."""
        if self.state[cell] == UNKNOWN:
            self.unknown -= 1
            self.known_mines += 1
            self.state[cell] = MINE
            self.found_mines.append(cell)
            self._touch(cell)

    def _touch(self, cell: int) -> None:
        number = self.number
        for n in self.nb[cell]:
            if number[n] != NO_NUMBER:
                self._dirty.add(n)
                self._pair_dirty.add(n)

    def constraint(self, cell: int) -> tuple[list[int], int]:
        """The unknown neighbours of a numbered cell and how many are mines."""
        state = self.state
        unknown: list[int] = []
        need = self.number[cell]
        for n in self.nb[cell]:
            s = state[n]
            if s == UNKNOWN:
                unknown.append(n)
            elif s == MINE:
                need -= 1
        return unknown, need

    def solved(self) -> bool:
        """Every safe cell is known (the rest are then mines)."""
        return self.unknown == self.total - self.known_mines

    # -- rules ---------------------------------------------------------------
    def settle(
        self, exact: bool = True, budget: int = DEFAULT_BUDGET
    ) -> tuple[list[int], list[int]]:
        """Apply the rules until they stall, then (if ``exact``) enumerate once.
        Returns the cells newly proven safe and newly proven mines."""
        self._rules()
        if exact and not self.found_safe and not self.found_mines and self.unknown:
            try:
                result = self.analyse(budget)
            except TooComplex:
                result = None
            if result is not None:
                for c in result.safe:
                    self.add_safe(c)
                for c in result.mines:
                    self.add_mine(c)
                self._rules()
        found = self.found_safe, self.found_mines
        self.found_safe, self.found_mines = [], []
        return found

    def _rules(self) -> None:
        while True:
            self._single()
            if self._pairs():
                continue
            if self._global():
                continue
            return

    def _single(self) -> None:
        dirty = self._dirty
        while dirty:
            unknown, need = self.constraint(dirty.pop())
            if not 0 <= need <= len(unknown):
                raise ValueError("the view contradicts itself")
            if not unknown:
                continue
            if need == 0:
                for u in unknown:
                    self.add_safe(u)
            elif need == len(unknown):
                for u in unknown:
                    self.add_mine(u)

    def _pairs(self) -> bool:
        """Overlap rule on pairs with at least one changed member; True on progress."""
        number = self.number
        nb = self.nb
        cache: dict[int, tuple[frozenset[int], int]] = {}

        def con(cell: int) -> tuple[frozenset[int], int]:
            got = cache.get(cell)
            if got is None:
                unknown, need = self.constraint(cell)
                got = cache[cell] = (frozenset(unknown), need)
            return got

        pending = self._pair_dirty
        while pending:
            r = pending.pop()
            a_cells, a = con(r)
            if not a_cells:
                continue
            partners = {s for u in a_cells for s in nb[u] if number[s] != NO_NUMBER}
            partners.discard(r)
            for s in partners:
                b_cells, b = con(s)
                inter = len(a_cells & b_cells)
                if not inter:
                    continue
                only_a = a_cells - b_cells
                only_b = b_cells - a_cells
                hi = min(inter, a, b)
                lo = max(0, a - len(only_a), b - len(only_b))
                progress = False
                for cells, need in ((only_a, a), (only_b, b)):
                    if not cells:
                        continue
                    if need - hi == len(cells):
                        for c in cells:
                            self.add_mine(c)
                        progress = True
                    elif need - lo == 0:
                        for c in cells:
                            self.add_safe(c)
                        progress = True
                if progress:
                    return True
        return False

    def _global(self) -> bool:
        left = self.total - self.known_mines
        if not self.unknown or (left and left != self.unknown):
            return False
        for c in range(len(self.state)):
            if self.state[c] == UNKNOWN:
                if left:
                    self.add_mine(c)
                else:
                    self.add_safe(c)
        return True

    # -- exact probabilities -------------------------------------------------
    def analyse(self, budget: int = DEFAULT_BUDGET) -> Analysis:
        """Exact mine probabilities for every unknown cell (raises TooComplex)."""
        state, number = self.state, self.number
        # Distinct constraints on the frontier.
        seen: dict[tuple[int, ...], int] = {}
        cons_cells: list[tuple[int, ...]] = []
        cons_need: list[int] = []
        for c in range(len(state)):
            if number[c] == NO_NUMBER:
                continue
            unknown, need = self.constraint(c)
            if not unknown:
                continue
            key = tuple(unknown)
            if key in seen:
                if cons_need[seen[key]] != need:
                    raise ValueError("the view contradicts itself")
                continue
            seen[key] = len(cons_cells)
            cons_cells.append(key)
            cons_need.append(need)
        # Cells touching the same constraints form one variable (a class).
        touching: dict[int, list[int]] = {}
        for j, cells in enumerate(cons_cells):
            for c in cells:
                touching.setdefault(c, []).append(j)
        classes: dict[tuple[int, ...], list[int]] = {}
        for c, js in touching.items():
            classes.setdefault(tuple(js), []).append(c)
        interior = [c for c in range(len(state)) if state[c] == UNKNOWN and c not in touching]
        left = self.total - self.known_mines
        comps = _components(list(classes.items()), len(cons_cells))
        results: list[Counts] = []
        for comp in comps:  # the budget is shared by all components
            counts, used = _enumerate(comp, cons_need, left, budget)
            results.append(counts)
            budget -= used
        return _combine(comps, results, interior, left)

    def copy(self) -> Knowledge:
        """An independent copy, for looking ahead."""
        other = Knowledge.__new__(Knowledge)
        other.__dict__.update(self.__dict__)
        other.state = bytearray(self.state)
        other.number = bytearray(self.number)
        other.found_safe, other.found_mines = [], []
        other._dirty, other._pair_dirty = set(self._dirty), set(self._pair_dirty)
        return other

    def _progress(self, cell: int) -> float:
        """Share of the numbers ``cell`` could show that would let the rules
        go on (a crude look-ahead, each possible number weighted alike)."""
        state, nb = self.state, self.nb
        known = sum(1 for n in nb[cell] if state[n] == MINE)
        hidden = sum(1 for n in nb[cell] if state[n] == UNKNOWN)
        possible = good = 0
        for value in range(known, known + hidden + 1):
            trial = self.copy()
            try:
                trial.reveal(cell, value)
                safe, _ = trial.settle(exact=False)
            except ValueError:
                continue
            possible += 1
            good += bool(safe) or not hidden
        return good / possible if possible else 0.0

    def best_guess(
        self, analysis: Analysis, margin: float = TIE_MARGIN, lookahead: int = LOOKAHEAD
    ) -> tuple[int, float]:
        """The lowest-risk unknown cell. Among cells within ``margin`` of the
        lowest risk, prefer the one most likely to let logic continue; then
        fewer unknown neighbours (corners and edges open up more often)."""
        state, nb = self.state, self.nb
        best = min(analysis.prob.values())
        near = [c for c, p in analysis.prob.items() if p <= best + margin]
        near.sort(key=lambda c: (analysis.prob[c], sum(1 for n in nb[c] if state[n] == UNKNOWN), c))
        near = near[:lookahead] or near[:1]
        if len(near) == 1:
            return near[0], analysis.prob[near[0]]
        weight = PROGRESS_WEIGHT
        cell = max(
            near, key=lambda c: (1 - analysis.prob[c]) * (1 - weight + weight * self._progress(c))
        )
        return cell, analysis.prob[cell]


def _components(
    classes: list[tuple[tuple[int, ...], list[int]]], n_cons: int
) -> list[list[tuple[tuple[int, ...], list[int]]]]:
    """Group classes into independent components (union-find over constraints)."""
    parent = list(range(n_cons))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for js, _ in classes:
        root = find(js[0])
        for j in js[1:]:
            other = find(j)
            if other != root:
                parent[other] = root
    groups: dict[int, list[tuple[tuple[int, ...], list[int]]]] = {}
    for item in classes:
        groups.setdefault(find(item[0][0]), []).append(item)
    return list(groups.values())


Counts = dict[int, tuple[int, list[int]]]
"""Per total mines k in a component: (weight, weighted mines per class)."""


def _enumerate(
    comp: list[tuple[tuple[int, ...], list[int]]], need: list[int], left: int, budget: int
) -> tuple[Counts, int]:
    """Every consistent assignment of mines to the component's classes, and the
    search nodes it took."""
    # Order classes so each constraint closes soon after it opens.
    order: list[int] = []
    placed = [False] * len(comp)
    by_con: dict[int, list[int]] = {}
    for i, (js, _) in enumerate(comp):
        for j in js:
            by_con.setdefault(j, []).append(i)
    for start in range(len(comp)):
        if placed[start]:
            continue
        queue = [start]
        placed[start] = True
        while queue:
            i = queue.pop(0)
            order.append(i)
            for j in comp[i][0]:
                for k in by_con[j]:
                    if not placed[k]:
                        placed[k] = True
                        queue.append(k)
    sizes = [len(comp[i][1]) for i in order]
    var_cons = [comp[i][0] for i in order]
    total_cap = {j: sum(len(comp[i][1]) for i in members) for j, members in by_con.items()}
    cap = dict(total_cap)
    have = dict.fromkeys(by_con, 0)
    assign = [0] * len(order)
    counts: Counts = {}
    nodes = 0
    n = len(order)
    if n > 500:
        raise TooComplex

    def dfs(i: int, k: int, weight: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise TooComplex
        if i == n:
            entry = counts.get(k)
            if entry is None:
                entry = counts[k] = (0, [0] * n)
            per = entry[1]
            for v in range(n):
                if assign[v]:
                    per[v] += weight * assign[v]
            counts[k] = (entry[0] + weight, per)
            return
        size = sizes[i]
        lo, hi = 0, min(size, left - k)
        for j in var_cons[i]:
            rest = need[j] - have[j]
            hi = min(hi, rest)
            lo = max(lo, rest - (cap[j] - size))
        if lo > hi:
            return
        for j in var_cons[i]:
            cap[j] -= size
        for m in range(lo, hi + 1):
            for j in var_cons[i]:
                have[j] += m
            assign[i] = m
            dfs(i + 1, k + m, weight * comb(size, m))
            for j in var_cons[i]:
                have[j] -= m
        assign[i] = 0
        for j in var_cons[i]:
            cap[j] += size

    dfs(0, 0, 1)
    # Map per-order sums back to the component's class order.
    out: Counts = {}
    for k, (w, per) in counts.items():
        back = [0] * n
        for pos, i in enumerate(order):
            back[i] = per[pos]
        out[k] = (w, back)
    return out, nodes


def _convolve(a: dict[int, int], b: dict[int, int], limit: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            if i + j <= limit:
                out[i + j] = out.get(i + j, 0) + x * y
    return out


def _combine(
    comps: list[list[tuple[tuple[int, ...], list[int]]]],
    results: list[Counts],
    interior: list[int],
    left: int,
) -> Analysis:
    """Weight component assignments by the ways to fill the interior."""
    o = len(interior)
    dists = [{k: w for k, (w, _) in r.items()} for r in results]
    prefix = [{0: 1}]
    for d in dists:
        prefix.append(_convolve(prefix[-1], d, left))
    suffix = [{0: 1}]
    for d in reversed(dists):
        suffix.append(_convolve(suffix[-1], d, left))
    suffix.reverse()
    total = sum(w * comb(o, left - k) for k, w in prefix[-1].items() if left - k <= o)
    if total == 0:
        raise ValueError("the view contradicts itself")
    analysis = Analysis(prob={})
    for idx, (comp, res) in enumerate(zip(comps, results, strict=True)):
        others = _convolve(prefix[idx], suffix[idx + 1], left)
        nums = [0] * len(comp)
        for k, (_, per) in res.items():
            tail = sum(
                w * comb(o, left - k - kk) for kk, w in others.items() if 0 <= left - k - kk <= o
            )
            if tail:
                for i, x in enumerate(per):
                    nums[i] += x * tail
        for i, (_, cells) in enumerate(comp):
            denom = total * len(cells)
            p = nums[i] / denom
            for c in cells:
                analysis.prob[c] = p
                if nums[i] == 0:
                    analysis.safe.add(c)
                elif nums[i] == denom:
                    analysis.mines.add(c)
    if o:
        num = sum(
            w * comb(o, left - k) * (left - k) for k, w in prefix[-1].items() if 0 <= left - k <= o
        )
        p = num / (total * o)
        for c in interior:
            analysis.prob[c] = p
        if num == 0:
            analysis.safe.update(interior)
        elif num == total * o:
            analysis.mines.update(interior)
    return analysis


def local_estimate(knowledge: Knowledge) -> Analysis:
    """A rough fallback when enumeration is too large: worst local ratio per cell."""
    prob: dict[int, float] = {}
    expected = 0.0
    for c in range(len(knowledge.state)):
        if knowledge.number[c] == NO_NUMBER:
            continue
        unknown, need = knowledge.constraint(c)
        for u in unknown:
            prob[u] = max(prob.get(u, 0.0), need / len(unknown))
    expected = sum(prob.values())
    interior = [
        c for c in range(len(knowledge.state)) if knowledge.state[c] == UNKNOWN and c not in prob
    ]
    left = knowledge.total - knowledge.known_mines
    if interior:
        p = min(1.0, max(0.0, (left - expected) / len(interior)))
        prob.update(dict.fromkeys(interior, p))
    return Analysis(prob=prob, exact=False)


def analyse_or_estimate(knowledge: Knowledge, budget: int = DEFAULT_BUDGET) -> Analysis:
    try:
        return knowledge.analyse(budget)
    except TooComplex:
        return local_estimate(knowledge)


def knowledge_from_rows(rows: list[str], mines: int) -> Knowledge:
    """Public knowledge from a protocol view's ``rows``."""
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        raise ValueError("rows must be non-empty and of equal length")
    k = Knowledge(len(rows[0]), len(rows), mines)
    width = k.width
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            c = y * width + x
            if ch.isdigit():
                k.reveal(c, int(ch))
            elif ch in "X*":
                k.add_mine(c)
            elif ch == "W":
                k.add_safe(c)
            elif ch not in "#F?":
                raise ValueError(f"unknown cell character {ch!r}")
    k.found_safe, k.found_mines = [], []
    return k


def deduce(rows: list[str], mines: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Hidden cells (x, y) proven safe and proven mines from a view's ``rows``.

    Flags are treated as unproven (a player may flag wrongly), so a flagged
    cell appears among the mines only if the numbers prove it.
    """
    k = knowledge_from_rows(rows, mines)
    safe: set[int] = set()
    found_mines: set[int] = set()
    while True:
        s, m = k.settle()
        if not s and not m:
            break
        safe.update(s)
        found_mines.update(m)
    w = k.width
    return {(c % w, c // w) for c in safe}, {(c % w, c // w) for c in found_mines}


def logic_solve(board: Board, first: int, exact: bool = True, budget: int = 20_000) -> Knowledge:
    """Play ``board`` from ``first`` revealing only proven-safe cells; the
    returned knowledge is ``solved()`` when no guess was ever needed."""
    k = Knowledge(board.width, board.height, len(board.mines))
    counts = board.counts
    k.reveal(first, counts[first])
    while True:
        safe, mines = k.settle(exact=exact, budget=budget)
        if not safe and not mines:
            return k
        for c in safe:
            k.reveal(c, counts[c])
