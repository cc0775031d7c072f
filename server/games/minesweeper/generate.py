"""Mine layouts, made at the first reveal from a recorded seed.

Three kinds: uniform random; random with ``max_adjacent`` (no cell touches more
mines than that, as in the source material); and no-guess.

No-guess generation follows the idea of Simon Tatham's Mines (generate, solve,
perturb where the solver is stuck), written afresh: place mines at random,
solve from the first click with the cheap rules, and when they stall pick a
stuck number and make all of its hidden neighbours safe by moving their mines
into the unexplored interior (or, if the interior has no room, fill them all
with mines taken from there). Either way that number is now solved, so every
perturbation buys progress, and the solver carries on where it was instead of
starting again: only the numbers next to moved mines change.

Carrying on is sound because perturbation only moves mines among cells that
are still hidden. Every deduction the rules made earlier is linear in the
numbers it used (a number minus known mines; the difference of two
overlapping numbers), and each conclusion makes all the cells it spoke about
known, so none of them moves later; a moved mine shifts the counts on both
sides of such a deduction by the same amount, and replaying the deductions on
the final board reaches the same conclusions. Hence a returned board is
cleared by the rules alone from the first click (and so by
:func:`.solver.deduce`, which includes them); the tests and the benchmark
check exactly that with ``deduce`` on many seeds.
"""

from __future__ import annotations

import random

from .board import Board, neighbour_table
from .solver import NO_NUMBER, UNKNOWN, Knowledge, play_out

MAX_RESTARTS = 400
MAX_PERTURBATIONS_PER_CELL = 0.5
"""A layout is abandoned after ``cells * this`` perturbations (plus a floor)."""


class GenerationFailed(Exception):
    """No layout met the constraints (the options are too tight)."""


def excluded_cells(width: int, height: int, first: int, first_click: str) -> set[int]:
    """Cells the first-click rule keeps free of mines."""
    if first_click == "opening":
        return {first, *neighbour_table(width, height)[first]}
    return {first}


def random_layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    rng: random.Random,
    max_adjacent: int | None = None,
) -> Board:
    """A uniformly random layout (or, with ``max_adjacent``, a random one that
    respects it) with the first click's cells free."""
    excluded = excluded_cells(width, height, first, first_click)
    candidates = [c for c in range(width * height) if c not in excluded]
    if mines > len(candidates):
        raise GenerationFailed(f"{mines} mines do not fit beside the first click")
    if max_adjacent is None or max_adjacent >= 8:
        return Board(width, height, rng.sample(candidates, mines))
    nb = neighbour_table(width, height)
    for _ in range(MAX_RESTARTS):
        rng.shuffle(candidates)
        around = bytearray(width * height)
        chosen: list[int] = []
        for c in candidates:
            if any(around[n] >= max_adjacent for n in nb[c]):
                continue
            chosen.append(c)
            for n in nb[c]:
                around[n] += 1
            if len(chosen) == mines:
                return Board(width, height, chosen)
    raise GenerationFailed(
        f"could not place {mines} mines with at most {max_adjacent} around any cell"
    )


def generate_no_guess(
    width: int,
    height: int,
    mines: int,
    first: tuple[int, int],
    seed: int | str,
    *,
    first_click: str = "opening",
    max_adjacent: int | None = None,
) -> list[tuple[int, int]]:
    """Mine cells (x, y), sorted, of a board that the rules clear from ``first``
    without a guess. ``first`` (and with ``first_click="opening"`` its
    neighbours) stays free; the same arguments always give the same board.
    Raises GenerationFailed when no such board was found."""
    for name, value in (("width", width), ("height", height), ("mines", mines)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1")
    fx, fy = first
    if not (0 <= fx < width and 0 <= fy < height):
        raise ValueError("the first click lies off the board")
    if first_click not in ("opening", "safe"):
        raise ValueError("first_click must be opening or safe")
    board = no_guess_board(
        width, height, mines, fy * width + fx, first_click, random.Random(seed), max_adjacent
    )
    return [(m % width, m // width) for m in sorted(board.mines)]


def no_guess_layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    rng: random.Random,
    max_adjacent: int | None = None,
) -> Board:
    """Compatibility name for :func:`no_guess_board`."""
    return no_guess_board(width, height, mines, first, first_click, rng, max_adjacent)


def no_guess_board(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    rng: random.Random,
    max_adjacent: int | None = None,
) -> Board:
    """A layout the rules clear from ``first`` by logic alone (see module doc)."""
    n = width * height
    nb = neighbour_table(width, height)
    excluded = excluded_cells(width, height, first, first_click)
    limit = 50 + int(n * MAX_PERTURBATIONS_PER_CELL)
    for _ in range(MAX_RESTARTS):
        start = random_layout(width, height, mines, first, first_click, rng, max_adjacent)
        layout = _Layout(width, height, start.mines, nb)
        k = Knowledge(width, height, mines)
        k.reveal(first, layout.counts[first])
        for _ in range(limit):
            play_out(k, layout.counts)
            if k.solved():
                return Board(width, height, layout.cells())
            if _perturb(k, layout, rng, excluded, max_adjacent):
                continue
            # Stuck with no room to move mines among the hidden cells (a final
            # 50/50, or a region walled off by known mines): move one mine into
            # the revealed area and solve again from scratch.
            if not _reshuffle(k, layout, rng, excluded, max_adjacent):
                break
            k = Knowledge(width, height, mines)
            k.reveal(first, layout.counts[first])
    raise GenerationFailed("could not make a board that needs no guessing")


class _Layout:
    """Mines and neighbour counts, changed a mine at a time."""

    def __init__(
        self, width: int, height: int, mines: frozenset[int], nb: tuple[tuple[int, ...], ...]
    ) -> None:
        self.nb = nb
        self.mine = bytearray(width * height)
        self.counts = bytearray(width * height)
        for m in mines:
            self.mine[m] = 1
            for c in nb[m]:
                self.counts[c] += 1

    def cells(self) -> list[int]:
        return [c for c, m in enumerate(self.mine) if m]

    def move(self, src: int, dst: int, k: Knowledge | None) -> None:
        """Move a mine, telling ``k`` (if given) which revealed numbers changed."""
        counts, nb = self.counts, self.nb
        self.mine[src] = 0
        self.mine[dst] = 1
        if k is None:
            for c in nb[src]:
                counts[c] -= 1
            for c in nb[dst]:
                counts[c] += 1
            return
        number = k.number
        for c in nb[src]:
            counts[c] -= 1
            if number[c] != NO_NUMBER:
                k.change_number(c, -1)
        for c in nb[dst]:
            counts[c] += 1
            if number[c] != NO_NUMBER:
                k.change_number(c, 1)


def _fits(layout: _Layout, cell: int, max_adjacent: int | None) -> bool:
    """Would a mine at ``cell`` keep every cell within ``max_adjacent``?"""
    if max_adjacent is None or max_adjacent >= 8:
        return True
    counts = layout.counts
    return all(counts[c] < max_adjacent for c in layout.nb[cell])


def _perturb(
    k: Knowledge, layout: _Layout, rng: random.Random, excluded: set[int], max_adjacent: int | None
) -> bool:
    """Solve one stuck number by moving mines; False when nothing can move.

    The stuck number's hidden neighbours are emptied into hidden cells away
    from every revealed number (found by sampling, else by a scan), or, when
    there is no room, filled from them."""
    if not k.active:
        return False
    state, nb, mine = k.state, k.nb, layout.mine
    target = rng.choice(sorted(k.active))
    group = [c for c in nb[target] if state[c] == UNKNOWN]
    inside = [c for c in group if mine[c]]
    if inside:
        spots = _spots(k, layout, rng, set(group) | excluded, False, len(inside), max_adjacent)
        if len(spots) == len(inside):
            for src, dst in zip(inside, spots, strict=True):
                layout.move(src, dst, k)
            return True
    empty = [c for c in group if not mine[c]]
    if not empty or any(not _fits(layout, c, max_adjacent) for c in empty):
        return False
    donors = _spots(k, layout, rng, set(group) | excluded, True, len(empty), None)
    if len(donors) < len(empty):
        return False
    for dst, src in zip(empty, donors, strict=True):
        layout.move(src, dst, k)
    return True


def _reshuffle(
    k: Knowledge, layout: _Layout, rng: random.Random, excluded: set[int], max_adjacent: int | None
) -> bool:
    """Move one mine from the stuck edge (a hidden mine next to a number, else a
    known mine next to a hidden cell) to a random revealed cell. The caller
    solves again from scratch, since this changes cells already deduced."""
    state, number, nb, mine = k.state, k.number, k.nb, layout.mine
    n = len(state)
    sources = [
        c
        for c in range(n)
        if mine[c]
        and (
            (state[c] == UNKNOWN and any(number[x] != NO_NUMBER for x in nb[c]))
            or (state[c] != UNKNOWN and any(state[x] == UNKNOWN for x in nb[c]))
        )
    ]
    if not sources:
        sources = [c for c in range(n) if mine[c] and state[c] == UNKNOWN]
    targets = [
        c
        for c in range(n)
        if number[c] != NO_NUMBER and c not in excluded and _fits(layout, c, max_adjacent)
    ]
    if not sources or not targets:
        return False
    layout.move(rng.choice(sources), rng.choice(targets), None)
    return True


def _spots(
    k: Knowledge,
    layout: _Layout,
    rng: random.Random,
    skip: set[int],
    want_mine: bool,
    count: int,
    max_adjacent: int | None,
) -> list[int]:
    """``count`` hidden cells outside ``skip`` holding (or not) a mine,
    preferring cells that touch no revealed number. Random probes first (cheap
    on big boards), then a full scan in random order."""
    state, number, nb, mine = k.state, k.number, k.nb, layout.mine
    n = len(state)
    found: list[int] = []

    def usable(c: int) -> bool:
        return (
            state[c] == UNKNOWN
            and bool(mine[c]) == want_mine
            and c not in skip
            and c not in found
            and (want_mine or _fits(layout, c, max_adjacent))
        )

    for _ in range(24 * count):
        c = rng.randrange(n)
        if usable(c) and all(number[x] == NO_NUMBER for x in nb[c]):
            found.append(c)
            if len(found) == count:
                return found
    far: list[int] = []
    near: list[int] = []
    flag = 1 if want_mine else 0
    for c in [c for c in range(n) if not state[c] and mine[c] == flag]:
        if usable(c):
            (far if all(number[x] == NO_NUMBER for x in nb[c]) else near).append(c)
    rng.shuffle(far)
    rng.shuffle(near)
    return (found + far + near)[:count]
