"""Perfect play when few layouts remain: exhaustive search of the game tree.

Every layout consistent with the view is listed (as a bitmask over the hidden
cells); a move reveals a cell and splits the layouts where it is safe by the
number it shows. ``win(S)`` is the chance of clearing the board from the set of
layouts ``S`` with best play: cells safe in every layout are revealed for free
(all at once), otherwise the best guess is searched, pruned by the bound that a
guess can never win more often than it is safe.
"""

from __future__ import annotations

from .solver import UNKNOWN, Knowledge


class _Abort(Exception):
    pass


def explicit_layouts(k: Knowledge, limit: int, nodes: int) -> tuple[list[int], list[int]] | None:  # noqa: C901 - a bounded backtracking search, inlined (bench/bench_minesweeper.py)
    """The hidden cells and every consistent layout as a bitmask over them, or
    None when there are more than ``limit`` layouts or the search needs more
    than ``nodes`` steps."""
    state, nb, number, around = k.state, k.nb, k.number, k.mines_around
    hidden = [c for c in range(len(state)) if state[c] == UNKNOWN]
    index = {c: i for i, c in enumerate(hidden)}
    cons: list[list[int]] = []  # [need, unassigned]
    cell_cons: list[list[int]] = [[] for _ in hidden]
    order_seen: list[int] = []
    for c in sorted(k.active):
        cells = [index[n] for n in nb[c] if state[n] == UNKNOWN]
        j = len(cons)
        cons.append([number[c] - around[c], len(cells)])
        for i in cells:
            cell_cons[i].append(j)
            order_seen.append(i)
    order: list[int] = []
    placed = bytearray(len(hidden))
    for i in order_seen:
        if not placed[i]:
            placed[i] = 1
            order.append(i)
    order += [i for i in range(len(hidden)) if not placed[i]]
    left = k.total - k.known_mines
    n = len(order)
    layouts: list[int] = []
    budget = [nodes]

    def dfs(pos: int, mines: int, mask: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Abort
        if mines > left or left - mines > n - pos:
            return
        if pos == n:
            layouts.append(mask)
            if len(layouts) > limit:
                raise _Abort
            return
        i = order[pos]
        js = cell_cons[i]
        for value in (0, 1):
            ok = True
            for j in js:
                con = cons[j]
                con[0] -= value
                con[1] -= 1
                if con[0] < 0 or con[0] > con[1]:
                    ok = False
            if ok:
                dfs(pos + 1, mines + value, mask | (value << i))
            for j in js:
                con = cons[j]
                con[0] += value
                con[1] += 1

    try:
        dfs(0, 0, 0)
    except _Abort:
        return None
    return hidden, layouts


def best_endgame_move(k: Knowledge, limit: int, nodes: int) -> int | None:  # noqa: C901 - the endgame's exhaustive search, inlined (bench/bench_minesweeper.py)
    """The reveal that maximises the chance of winning, or None when the
    position is too big to search within ``limit`` layouts and ``nodes`` steps."""
    got = explicit_layouts(k, limit, nodes)
    if got is None or len(got[1]) < 2:
        return None
    cells, layouts = got
    index = {c: i for i, c in enumerate(cells)}
    near = [sum(1 << index[n] for n in k.nb[c] if n in index) for c in cells]
    full = (1 << len(cells)) - 1
    memo: dict[tuple[int, ...], float] = {}
    budget = [nodes]

    def split(group: list[int], masks: list[int]) -> list[list[int]]:
        """Layouts grouped by the numbers the cells with these masks show."""
        if len(masks) == 1:
            m = masks[0]
            one: dict[int, list[int]] = {}
            for lay in group:
                key = (lay & m).bit_count()
                got = one.get(key)
                if got is None:
                    one[key] = [lay]
                else:
                    got.append(lay)
            return list(one.values())
        parts: dict[tuple[int, ...], list[int]] = {}
        for lay in group:
            parts.setdefault(tuple([(lay & m).bit_count() for m in masks]), []).append(lay)
        return list(parts.values())

    def search(layouts_: tuple[int, ...], top: bool) -> tuple[float, int]:
        size = len(layouts_)
        if size == 1:
            return 1.0, -1
        if not top:
            got_ = memo.get(layouts_)
            if got_ is not None:
                return got_, -1
        budget[0] -= 1
        if budget[0] < 0:
            raise _Abort
        anded, ored = full, 0
        for lay in layouts_:
            anded &= lay
            ored |= lay
        free = full & ~ored
        varying = ored & ~anded
        informative = [i for i in range(len(cells)) if free >> i & 1 and near[i] & varying]
        if informative:
            parts = split(list(layouts_), [near[i] for i in informative])
            if len(parts) > 1:
                value = sum(len(p) / size * search(tuple(p), False)[0] for p in parts)
                memo[layouts_] = value
                return value, informative[0]
        options: list[tuple[int, int]] = []
        for i in range(len(cells)):
            if varying >> i & 1:
                bit = 1 << i
                options.append((sum(1 for lay in layouts_ if not lay & bit), i))
        options.sort(key=lambda o: (-o[0], o[1]))
        best, move = 0.0, -1
        for count, i in options:
            if count / size <= best:
                break
            bit = 1 << i
            safe = [lay for lay in layouts_ if not lay & bit]
            value = 0.0
            for p in split(safe, [near[i]]):
                value += len(p) / size * search(tuple(p), False)[0]
            if value > best + 1e-12:
                best, move = value, i
        memo[layouts_] = best
        return best, move

    try:
        _, move = search(tuple(sorted(layouts)), True)
    except _Abort:
        return None
    return cells[move] if move >= 0 else None
