"""What a player can prove about a board from public facts alone.

:class:`Knowledge` holds only public facts (revealed numbers, known mines, the
mine total), so anything it concludes is safe to show a player. It keeps, per
cell, how many neighbours are still unknown and how many are known mines, and
the set of numbered cells that still touch unknown cells (the frontier), so
every rule works on what changed instead of rescanning the board: that is what
makes it fast enough for 100x100 boards and for the no-guess generator.

Cheap rules run first (single cell, pair overlap, global count); when they
stall, :func:`.probability.analyse` enumerates the frontier's independent
components exactly (each within a work budget, results cached by component)
and proves whatever the constraints and the mine total force.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from .board import Board, neighbour_table

if TYPE_CHECKING:
    from .probability import Analysis

UNKNOWN, SAFE, MINE = 0, 1, 2
NO_NUMBER = 255
DEFAULT_BUDGET = 100_000
"""Search nodes the exact enumeration may spend per analysis (keeps hints fast)."""

Cell = int
ComponentCache = dict[object, object]


@lru_cache(maxsize=32)
def _degrees(width: int, height: int) -> bytes:
    """How many neighbours each cell has (the starting hidden counts)."""
    return bytes(len(ns) for ns in neighbour_table(width, height))


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
        self.hidden_around = bytearray(_degrees(width, height))
        self.mines_around = bytearray(n)
        self.known_mines = 0
        self.unknown = n
        self.active: set[int] = set()
        """Numbered cells that still touch an unknown cell."""
        self.found_safe: list[int] = []
        self.found_mines: list[int] = []
        self._dirty: set[int] = set()
        self._pair_dirty: set[int] = set()
        self.cache: ComponentCache = {}
        """Component enumerations by constraint signature, shared with copies."""

    # -- facts ---------------------------------------------------------------
    def reveal(self, cell: int, number: int) -> None:
        """A safe cell shows ``number``."""
        if self.state[cell] == MINE:
            raise ValueError("a known mine cannot show a number")
        if not 0 <= number <= 8:
            raise ValueError("a number must be 0..8")
        if self.state[cell] == UNKNOWN:
            self.state[cell] = SAFE
            self._known(cell, False)
        self.number[cell] = number
        if self.hidden_around[cell]:
            self.active.add(cell)
        self._dirty.add(cell)
        self._pair_dirty.add(cell)

    def add_safe(self, cell: int) -> None:
        """``cell`` is safe but shows no number (proven, or a wrong flag)."""
        if self.state[cell] == UNKNOWN:
            self.state[cell] = SAFE
            self.found_safe.append(cell)
            self._known(cell, False)

    def add_mine(self, cell: int) -> None:
        """``cell`` is a mine (proven, or exploded)."""
        if self.state[cell] == UNKNOWN:
            self.state[cell] = MINE
            self.known_mines += 1
            self.found_mines.append(cell)
            self._known(cell, True)

    def _known(self, cell: int, mine: bool) -> None:
        self.unknown -= 1
        number, hidden, dirty, pair = (
            self.number,
            self.hidden_around,
            self._dirty,
            self._pair_dirty,
        )
        around = self.mines_around
        for n in self.nb[cell]:
            hidden[n] -= 1
            if mine:
                around[n] += 1
            if number[n] != NO_NUMBER:
                dirty.add(n)
                pair.add(n)
                if not hidden[n]:
                    self.active.discard(n)

    def change_number(self, cell: int, delta: int) -> None:
        """A revealed number changed by ``delta`` (the generator moved a mine)."""
        self.number[cell] += delta
        self._dirty.add(cell)
        self._pair_dirty.add(cell)

    def constraint(self, cell: int) -> tuple[list[int], int]:
        """The unknown neighbours of a numbered cell and how many are mines."""
        state = self.state
        return (
            [n for n in self.nb[cell] if state[n] == UNKNOWN],
            self.number[cell] - self.mines_around[cell],
        )

    def solved(self) -> bool:
        """Every safe cell is known (the rest are then mines)."""
        return self.unknown == self.total - self.known_mines

    def mines_left(self) -> int:
        return self.total - self.known_mines

    def copy(self) -> Knowledge:
        """An independent copy (sharing the enumeration cache), for looking ahead."""
        other = Knowledge.__new__(Knowledge)
        other.__dict__.update(self.__dict__)
        other.state = bytearray(self.state)
        other.number = bytearray(self.number)
        other.hidden_around = bytearray(self.hidden_around)
        other.mines_around = bytearray(self.mines_around)
        other.active = set(self.active)
        other.found_safe, other.found_mines = [], []
        other._dirty, other._pair_dirty = set(self._dirty), set(self._pair_dirty)
        return other

    # -- rules ---------------------------------------------------------------
    def settle(
        self, exact: bool = True, budget: int = DEFAULT_BUDGET, pairs: bool = True
    ) -> tuple[list[int], list[int]]:
        """Apply the rules until they stall, then (if ``exact``) analyse once.
        Returns the cells newly proven safe and newly proven mines."""
        self.rules(pairs)
        if exact and not self.found_safe and not self.found_mines and self.unknown:
            from .probability import analyse

            result = analyse(self, budget)
            for c in result.safe:
                self.add_safe(c)
            for c in result.mines:
                self.add_mine(c)
            self.rules(pairs)
        found = self.found_safe, self.found_mines
        self.found_safe, self.found_mines = [], []
        return found

    def rules(self, pairs: bool = True) -> None:
        """Single-cell, pair-overlap and global-count rules to a fixed point."""
        while True:
            self._single()
            if pairs and self._pairs():
                continue
            if self._global():
                continue
            return

    def _single(self) -> None:  # noqa: C901 - the generator's hottest loop, bookkeeping inlined (bench/bench_minesweeper.py)
        """Numbers whose hidden neighbours are all safe or all mines. Inlined
        bookkeeping (this loop is most of the generator's time)."""
        dirty, number, state, nb = self._dirty, self.number, self.state, self.nb
        hidden, around, active = self.hidden_around, self.mines_around, self.active
        pair_add, dirty_add, pop = self._pair_dirty.add, dirty.add, dirty.pop
        found_safe, found_mines = self.found_safe, self.found_mines
        unknown, known_mines = self.unknown, self.known_mines
        try:
            while dirty:
                c = pop()
                value = number[c]
                if value == NO_NUMBER:
                    continue
                pair_add(c)
                h = hidden[c]
                need = value - around[c]
                if need < 0 or need > h:
                    raise ValueError("the view contradicts itself")
                if not h:
                    continue
                if need == 0:
                    for u in nb[c]:
                        if state[u] == UNKNOWN:
                            state[u] = SAFE
                            found_safe.append(u)
                            unknown -= 1
                            for v in nb[u]:
                                hidden[v] -= 1
                                if number[v] != NO_NUMBER:
                                    dirty_add(v)
                                    if not hidden[v]:
                                        active.discard(v)
                elif need == h:
                    for u in nb[c]:
                        if state[u] == UNKNOWN:
                            state[u] = MINE
                            found_mines.append(u)
                            unknown -= 1
                            known_mines += 1
                            for v in nb[u]:
                                hidden[v] -= 1
                                around[v] += 1
                                if number[v] != NO_NUMBER:
                                    dirty_add(v)
                                    if not hidden[v]:
                                        active.discard(v)
        finally:
            self.unknown, self.known_mines = unknown, known_mines

    def _pairs(self) -> bool:
        """Overlap rule on pairs with at least one changed member; True on progress."""
        number, nb, state, active = self.number, self.nb, self.state, self.active
        around = self.mines_around
        cache: dict[int, tuple[frozenset[int], int]] = {}

        def con(cell: int) -> tuple[frozenset[int], int]:
            got = cache.get(cell)
            if got is None:
                got = cache[cell] = (
                    frozenset([n for n in nb[cell] if not state[n]]),
                    number[cell] - around[cell],
                )
            return got

        pending = self._pair_dirty
        while pending:
            r = pending.pop()
            if r not in active:
                continue
            a_cells, a = con(r)
            partners = {s for u in a_cells for s in nb[u] if s in active}
            partners.discard(r)
            partners -= pending  # those check the pair themselves when popped
            for s in partners:
                b_cells, b = con(s)
                inter = len(a_cells & b_cells)
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
                    pending.add(r)
                    return True
        return False

    def _global(self) -> bool:
        left = self.total - self.known_mines
        if not self.unknown or (left and left != self.unknown):
            return False
        if left > self.unknown or left < 0:
            raise ValueError("the view contradicts itself")
        for c in range(len(self.state)):
            if self.state[c] == UNKNOWN:
                if left:
                    self.add_mine(c)
                else:
                    self.add_safe(c)
        return True

    # -- compatibility helpers -----------------------------------------------
    def analyse(self, budget: int = DEFAULT_BUDGET) -> Analysis:
        """Exact mine probabilities for every unknown cell (see probability.py)."""
        from .probability import analyse

        return analyse(self, budget)


def knowledge_from_rows(rows: list[str], mines: int) -> Knowledge:
    """Public knowledge from a protocol view's ``rows``."""
    if not rows or any(len(r) != len(rows[0]) for r in rows) or not rows[0]:
        raise ValueError("rows must be non-empty and of equal length")
    if isinstance(mines, bool) or not isinstance(mines, int) or mines < 0:
        raise ValueError("mines must be a whole number >= 0")
    k = Knowledge(len(rows[0]), len(rows), mines)
    width = k.width
    numbers: list[tuple[int, int]] = []
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            c = y * width + x
            if ch.isdigit():
                numbers.append((c, int(ch)))
            elif ch in "X*":
                k.add_mine(c)
            elif ch == "W":
                k.add_safe(c)
            elif ch not in "#F?":
                raise ValueError(f"unknown cell character {ch!r}")
    for c, value in numbers:
        k.reveal(c, value)
    if k.known_mines > mines:
        raise ValueError("more mines are shown than the board holds")
    k.found_safe, k.found_mines = [], []
    return k


def deduce(
    rows: list[str], mines: int, budget: int = DEFAULT_BUDGET
) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """Hidden cells (x, y) proven safe and proven mines from a view's ``rows``.

    Flags are treated as unproven (a player may flag wrongly), so a flagged
    cell appears among the mines only if the numbers prove it. ``budget`` caps
    the enumeration work per analysis; a frontier component too large for it
    contributes only what the cheap rules prove.
    """
    k = knowledge_from_rows(rows, mines)
    safe: set[int] = set()
    found_mines: set[int] = set()
    while True:
        s, m = k.settle(budget=budget)
        if not s and not m:
            break
        safe.update(s)
        found_mines.update(m)
    w = k.width
    return {(c % w, c // w) for c in safe}, {(c % w, c // w) for c in found_mines}


def play_out(k: Knowledge, counts: bytes | bytearray, pairs: bool = True) -> None:
    """Reveal (with ``counts``) every cell the rules prove safe, as soon as they
    prove it, until they stall: the generator's inner loop."""
    number, hidden, active = k.number, k.hidden_around, k.active
    dirty_add, pair_add = k._dirty.add, k._pair_dirty.add
    while True:
        k._single()
        if k.found_safe:
            found = k.found_safe
            k.found_safe = []
            for c in found:
                if number[c] == NO_NUMBER:
                    number[c] = counts[c]
                    if hidden[c]:
                        active.add(c)
                    dirty_add(c)
                    pair_add(c)
            continue
        if pairs and k._pairs():
            continue
        if k._global():
            continue
        k.found_mines = []
        return


def logic_solve(board: Board, first: int, exact: bool = True, budget: int = 20_000) -> Knowledge:
    """Play ``board`` from ``first`` revealing only proven-safe cells; the
    returned knowledge is ``solved()`` when no guess was ever needed."""
    k = Knowledge(board.width, board.height, len(board.mines))
    counts = board.counts
    k.reveal(first, counts[first])
    while True:
        play_out(k, counts)
        if k.solved() or not exact:
            return k
        safe, mines = k.settle(exact=True, budget=budget)
        if not safe and not mines:
            return k
        for c in safe:
            k.reveal(c, counts[c])
