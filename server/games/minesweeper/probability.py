"""Mine probabilities for every hidden cell, and every certainty they imply.

The frontier (hidden cells next to a revealed number) splits into independent
components. Each component is enumerated on its own over *classes* (cells that
touch exactly the same numbers are one variable, weighted by ``comb``), giving
for every mine count k the number of ways and the mines each class holds.
Components are then combined with the unconstrained interior by binomial
weights: a configuration with K frontier mines leaves ``comb(interior, left -
K)`` ways to place the rest. That is exact; it is how the strongest published
solvers (JSMinesweeper, MineSweeperProb) compute probabilities.

Work is bounded: every component gets at most ``budget`` search nodes in all
(shared by one analysis), and results are cached by the component's constraint
signature, so re-analysing after a local change only enumerates the component
that changed. A component over the budget is left out of the certainties (its
cells get an estimate) and the analysis says it is not ``exact``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from .solver import UNKNOWN, Knowledge

PER_COMPONENT_CAP = 200_000
"""A component that needs more nodes than this is remembered as too complex."""
EXACT_COMPONENTS = 48
"""Above this many components, probabilities use the independent approximation
(certainties stay exact): big boards have hundreds of components and the exact
convolution grows with their square."""
MAX_CLASSES = 400


@dataclass
class Analysis:
    """Mine probability for every hidden cell, plus the certainties found.

    ``exact``: every probability is exact (all components enumerated and
    combined exactly). ``complete``: every component was enumerated, so
    ``safe``/``mines`` hold every certainty the position has. ``weight``: the
    number of layouts consistent with the view (0 unless ``exact``).
    """

    prob: dict[int, float]
    safe: set[int] = field(default_factory=set)
    mines: set[int] = field(default_factory=set)
    exact: bool = True
    complete: bool = True
    weight: int = 0
    interior: int = 0


@dataclass
class Component:
    """One independent frontier component after enumeration."""

    classes: list[tuple[int, ...]]
    dist: dict[int, int]
    """Mines k -> number of ways (cells within classes counted by comb)."""
    per: dict[int, list[int]]
    """Mines k -> weighted mines in each class (sum over ways of mines in it)."""


class _Budget:
    __slots__ = ("left",)

    def __init__(self, left: int) -> None:
        self.left = left


class _TooComplex(Exception):
    pass


def frontier(k: Knowledge) -> tuple[list[list[tuple[tuple[int, ...], int]]], list[int]]:
    """The distinct constraints grouped into independent components, and the
    unconstrained hidden cells (the interior)."""
    state, number, around, nb = k.state, k.number, k.mines_around, k.nb
    cons: dict[tuple[int, ...], int] = {}
    for c in k.active:
        cells = tuple(n for n in nb[c] if state[n] == UNKNOWN)
        need = number[c] - around[c]
        if not 0 <= need <= len(cells):
            raise ValueError("the view contradicts itself")
        prev = cons.setdefault(cells, need)
        if prev != need:
            raise ValueError("the view contradicts itself")
    by_cell: dict[int, list[tuple[int, ...]]] = {}
    for cells in cons:
        for u in cells:
            by_cell.setdefault(u, []).append(cells)
    seen: set[tuple[int, ...]] = set()
    comps: list[list[tuple[tuple[int, ...], int]]] = []
    for start in cons:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        comp: list[tuple[tuple[int, ...], int]] = []
        while stack:
            cur = stack.pop()
            comp.append((cur, cons[cur]))
            for u in cur:
                for other in by_cell[u]:
                    if other not in seen:
                        seen.add(other)
                        stack.append(other)
        comp.sort()
        comps.append(comp)
    if len(by_cell) == k.unknown:
        interior: list[int] = []
    else:
        interior = [c for c in range(len(state)) if state[c] == UNKNOWN and c not in by_cell]
    return comps, interior


def enumerate_component(  # noqa: C901 - the solver's enumeration, its hottest loop, inlined (bench/bench_minesweeper.py)
    cons: list[tuple[tuple[int, ...], int]], cap: int, budget: _Budget
) -> Component:
    """Every assignment of mines to the component's classes that satisfies its
    constraints with at most ``cap`` mines; raises _TooComplex over budget."""
    touching: dict[int, list[int]] = {}
    for j, (cells, _) in enumerate(cons):
        for u in cells:
            touching.setdefault(u, []).append(j)
    grouped: dict[tuple[int, ...], list[int]] = {}
    for u, js in touching.items():
        grouped.setdefault(tuple(js), []).append(u)
    items = list(grouped.items())
    if len(items) > MAX_CLASSES:
        raise _TooComplex
    # Order classes breadth-first over shared constraints so each constraint
    # closes soon after it opens (prunes early).
    by_con: dict[int, list[int]] = {}
    for i, (sig, _) in enumerate(items):
        for j in sig:
            by_con.setdefault(j, []).append(i)
    order: list[int] = []
    placed = [False] * len(items)
    start = min(range(len(items)), key=lambda i: (len(items[i][0]), items[i][1][0]))
    for first in [start, *range(len(items))]:
        if placed[first]:
            continue
        placed[first] = True
        queue = [first]
        while queue:
            i = queue.pop(0)
            order.append(i)
            for j in items[i][0]:
                for other in by_con[j]:
                    if not placed[other]:
                        placed[other] = True
                        queue.append(other)
    classes = [tuple(sorted(items[i][1])) for i in order]
    sizes = [len(c) for c in classes]
    var_cons = [items[i][0] for i in order]
    need = [n for _, n in cons]
    room = [0] * len(cons)
    for i in order:
        for j in items[i][0]:
            room[j] += len(items[i][1])
    have = [0] * len(cons)
    n = len(order)
    assign = [0] * n
    dist: dict[int, int] = {}
    per: dict[int, list[int]] = {}
    choose = [[comb(s, m) for m in range(s + 1)] for s in sizes]
    nodes = budget.left

    def dfs(i: int, k: int, weight: int) -> None:
        nonlocal nodes
        nodes -= 1
        if nodes < 0:
            raise _TooComplex
        if i == n:
            dist[k] = dist.get(k, 0) + weight
            row = per.get(k)
            if row is None:
                row = per[k] = [0] * n
            for v in range(n):
                a = assign[v]
                if a:
                    row[v] += weight * a
            return
        size = sizes[i]
        lo, hi = 0, min(size, cap - k)
        cs = var_cons[i]
        for j in cs:
            rest = need[j] - have[j]
            if rest < hi:
                hi = rest
            low = rest - (room[j] - size)
            if low > lo:
                lo = low
        if lo > hi:
            return
        for j in cs:
            room[j] -= size
        row_c = choose[i]
        for m in range(lo, hi + 1):
            for j in cs:
                have[j] += m
            assign[i] = m
            dfs(i + 1, k + m, weight * row_c[m])
            for j in cs:
                have[j] -= m
        assign[i] = 0
        for j in cs:
            room[j] += size

    try:
        dfs(0, 0, 1)
    finally:
        budget.left = max(nodes, 0)
    # Per-class rows scaled back to per-cell mines later (divide by class size).
    return Component(classes, dist, per)


def _convolve(a: dict[int, int], b: dict[int, int], limit: int) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            if i + j <= limit:
                out[i + j] = out.get(i + j, 0) + x * y
    return out


def analyse(k: Knowledge, budget: int = 100_000) -> Analysis:
    """Probabilities and certainties for ``k`` within ``budget`` search nodes."""
    comps, interior = frontier(k)
    left = k.total - k.known_mines
    if left < 0 or left > k.unknown:
        raise ValueError("the view contradicts itself")
    work = _Budget(budget)
    results: list[Component | None] = []
    cache = k.cache
    for cons in comps:
        cells = sum(len(c) for c, _ in cons)  # an upper bound on the mines it can hold
        cap = left if left < cells else -1
        key = (tuple(cons), cap)
        got = cache.get(key)
        if isinstance(got, int):  # failed before with that many nodes
            if got >= min(work.left, PER_COMPONENT_CAP):
                results.append(None)
                continue
            got = None
        if got is None:
            spend = _Budget(min(work.left, PER_COMPONENT_CAP))
            before = spend.left
            try:
                got = enumerate_component(cons, left if cap < 0 else cap, spend)
            except _TooComplex:
                got = before
            work.left -= before - spend.left
            if isinstance(got, Component) and not got.dist:
                raise ValueError("the view contradicts itself")
            if len(cache) > 5000:
                cache.clear()
            cache[key] = got
        results.append(got if isinstance(got, Component) else None)
    if all(r is not None for r in results) and len(results) <= EXACT_COMPONENTS:
        return _exact(comps, [r for r in results if r is not None], interior, left)
    return _approximate(k, comps, results, interior, left)


def _exact(  # noqa: C901 - combines components' counts in one pass over big integers (bench/bench_minesweeper.py)
    comps: list[list[tuple[tuple[int, ...], int]]],
    results: list[Component],
    interior: list[int],
    left: int,
) -> Analysis:
    """Weight component assignments by the ways to fill the interior."""
    o = len(interior)
    dists = [r.dist for r in results]
    prefix = [{0: 1}]
    for d in dists:
        prefix.append(_convolve(prefix[-1], d, left))
    suffix = [{0: 1}]
    for d in reversed(dists):
        suffix.append(_convolve(suffix[-1], d, left))
    suffix.reverse()
    total = sum(w * comb(o, left - kk) for kk, w in prefix[-1].items() if left - kk <= o)
    if total == 0:
        raise ValueError("the view contradicts itself")
    analysis = Analysis(prob={}, weight=total, interior=o)
    prob, safe, mines = analysis.prob, analysis.safe, analysis.mines
    for idx, res in enumerate(results):
        others = _convolve(prefix[idx], suffix[idx + 1], left)
        nums = [0] * len(res.classes)
        for kk, row in res.per.items():
            tail = sum(
                w * comb(o, left - kk - k2) for k2, w in others.items() if 0 <= left - kk - k2 <= o
            )
            if tail:
                for i, x in enumerate(row):
                    if x:
                        nums[i] += x * tail
        for i, cells in enumerate(res.classes):
            denom = total * len(cells)
            p = nums[i] / denom
            for c in cells:
                prob[c] = p
            if nums[i] == 0:
                safe.update(cells)
            elif nums[i] == denom:
                mines.update(cells)
    if o:
        num = sum(
            w * comb(o, left - kk) * (left - kk)
            for kk, w in prefix[-1].items()
            if 0 <= left - kk <= o
        )
        p = num / (total * o)
        for c in interior:
            prob[c] = p
        if num == 0:
            safe.update(interior)
        elif num == total * o:
            mines.update(interior)
    return analysis


def _bounds(cons: list[tuple[tuple[int, ...], int]]) -> tuple[int, int]:
    """Cheap bounds on the mines a component holds (for one left unenumerated)."""
    cells = {u for c, _ in cons for u in c}
    return max(n for _, n in cons), min(len(cells), sum(n for _, n in cons))


def _approximate(  # noqa: C901 - the sampling fallback's loop, inlined (bench/bench_minesweeper.py)
    k: Knowledge,
    comps: list[list[tuple[tuple[int, ...], int]]],
    results: list[Component | None],
    interior: list[int],
    left: int,
) -> Analysis:
    """Exact certainties, approximate probabilities: each component is weighted
    by the interior's odds per mine instead of the exact binomial tail."""
    o = len(interior)
    complete = all(r is not None for r in results)
    analysis = Analysis(prob={}, exact=False, complete=complete, interior=o)
    prob, safe, mines = analysis.prob, analysis.safe, analysis.mines
    ranges: list[tuple[int, int]] = []
    for cons, res in zip(comps, results, strict=True):
        if res is None:
            ranges.append(_bounds(cons))
        else:
            ranges.append((min(res.dist), max(res.dist)))
    feasible = _feasible_counts(results, ranges, left, o)
    # Density of the interior, refined a few times against the frontier's mines.
    unknown = k.unknown
    p = left / unknown if unknown else 0.0
    for _ in range(4):
        expected = 0.0
        odds = p / (1 - p) if 0 < p < 1 else (0.0 if p <= 0 else 1e9)
        shares: list[dict[int, float]] = []
        for idx, res in enumerate(results):
            if res is None:
                lo, hi = ranges[idx]
                expected += (lo + hi) / 2
                shares.append({})
                continue
            ok = feasible[idx]
            ws = {
                kk: float(w) * odds ** (kk - ranges[idx][0])
                if odds < 1e9
                else (1.0 if kk == ranges[idx][1] else 0.0)
                for kk, w in res.dist.items()
                if ok is None or kk in ok
            }
            z = sum(ws.values()) or 1.0
            share = {kk: w / z for kk, w in ws.items()}
            shares.append(share)
            expected += sum(kk * s for kk, s in share.items())
        if not o:
            break
        new_p = min(1.0, max(0.0, (left - expected) / o))
        if abs(new_p - p) < 1e-9:
            break
        p = new_p
    for idx, (cons, res) in enumerate(zip(comps, results, strict=True)):
        if res is None:
            for cells, need in cons:
                for u in cells:
                    prob[u] = max(prob.get(u, 0.0), need / len(cells))
            continue
        share = shares[idx]
        ok = feasible[idx]
        for i, cells in enumerate(res.classes):
            size = len(cells)
            q = 0.0
            never = always = True
            for kk, row in res.per.items():
                if ok is not None and kk not in ok:
                    continue
                if row[i]:
                    never = False
                if row[i] != res.dist[kk] * size:
                    always = False
                if kk in share:
                    q += share[kk] * row[i] / (res.dist[kk] * size)
            for c in cells:
                prob[c] = q
            if never:
                safe.update(cells)
            elif always:
                mines.update(cells)
    if o:
        pi = min(1.0, max(0.0, p))
        for c in interior:
            prob[c] = pi
        lo_total = sum(r[0] for r in ranges)
        hi_total = sum(r[1] for r in ranges)
        if complete and hi_total <= left - o:  # the frontier cannot hold the rest
            mines.update(interior)
        elif complete and lo_total >= left:
            safe.update(interior)
    return analysis


def _feasible_counts(
    results: list[Component | None], ranges: list[tuple[int, int]], left: int, o: int
) -> list[set[int] | None]:
    """For each enumerated component, the mine counts the global total allows
    (None: all of them). Uses bitsets of achievable sums."""
    lo_total = sum(r[0] for r in ranges)
    hi_total = sum(r[1] for r in ranges)
    if left - hi_total >= 0 and left - lo_total <= o:
        return [None] * len(results)
    sets: list[int] = []
    for res, (lo, hi) in zip(results, ranges, strict=True):
        if res is None:
            sets.append(((1 << (hi - lo + 1)) - 1) << lo)
        else:
            bits = 0
            for kk in res.dist:
                bits |= 1 << kk
            sets.append(bits)

    def conv(a: int, b: int) -> int:
        out, shift = 0, 0
        while a:
            if a & 1:
                out |= b << shift
            a >>= 1
            shift += 1
        return out

    prefix = [1]
    for s in sets:
        prefix.append(conv(prefix[-1], s))
    suffix = [1]
    for s in reversed(sets):
        suffix.append(conv(suffix[-1], s))
    suffix.reverse()
    window = (1 << (o + 1)) - 1  # interior can take 0..o mines
    out: list[set[int] | None] = []
    for idx, res in enumerate(results):
        if res is None:
            out.append(None)
            continue
        others = conv(prefix[idx], suffix[idx + 1])
        ok = set()
        for kk in res.dist:
            need = left - kk  # others + interior must hold exactly this
            if need < 0:
                continue
            lo = max(0, need - o)
            span = (others >> lo) & (window if need - lo >= 0 else 0)
            if span & ((1 << (need - lo + 1)) - 1):
                ok.add(kk)
        out.append(ok)
    return out
