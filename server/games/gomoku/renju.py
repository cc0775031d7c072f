"""Renju fouls for black: overline, double-four, double-three (recursive three check).

Definitions (as the Piskvork referee applies them, so our results match the
`renju` package that ports it):

- *five*: exactly five in a row through the move. Making five beats any foul.
- *overline*: six or more in a row through the move.
- *four*: a set of four black stones (including the move) that one more stone
  turns into exactly five. ``X_XXX_X`` holds two fours on one line.
- *three*: the move plus two stones that one more stone (a *key point*) turns
  into a straight four (``_XXXX_``, both ends giving exactly five). The three
  counts only if some key point is itself playable: not a foul and not a five
  (checked recursively with the move on the board).

The board is a flat list with a wall column and wall rows (stride size+1), so
walking a line needs no bounds checks: a walk stops at the first wall. The
per-line analysis depends only on the ten cells around the move and is cached.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
NO_FOUL, DOUBLE_THREE, DOUBLE_FOUR, OVERLINE = 0, 1, 2, 3
FOUL_NAMES = {OVERLINE: "overline", DOUBLE_FOUR: "double-four", DOUBLE_THREE: "double-three"}
_FIVE = -1  # internal: the move makes exactly five
RADIUS = 5
_CENTRE = RADIUS
_POW3 = [3**k for k in range(2 * RADIUS + 1)]


class Grid:
    """Index arithmetic of the padded flat board for one board size."""

    __slots__ = ("dirs", "length", "size", "stride")

    def __init__(self, size: int) -> None:
        self.size = size
        self.stride = size + 1
        self.dirs = (1, self.stride, self.stride + 1, self.stride - 1)
        self.length = self.stride * (size + 2) + 1

    def index(self, x: int, y: int) -> int:
        return (y + 1) * self.stride + x

    def point(self, idx: int) -> tuple[int, int]:
        y, x = divmod(idx, self.stride)
        return x, y - 1

    def new_board(self) -> list[int]:
        """An empty board: walls everywhere except the size x size playing area."""
        cells = [WALL] * self.length
        for y in range(self.size):
            base = self.index(0, y)
            cells[base : base + self.size] = [EMPTY] * self.size
        return cells

    def cells_of(self) -> list[int]:
        """Every playable index, row by row."""
        return [self.index(x, y) for y in range(self.size) for x in range(self.size)]


def _line_key(cells: list[int], p: int, d: int) -> int:
    """Base-3 code of the ten cells around p on direction d (black's view).

    Digit 0 empty, 1 black, 2 white or wall; beyond a wall everything is wall.
    """
    key = 0
    q = p
    for k in range(RADIUS + 1, 2 * RADIUS + 1):
        q += d
        v = cells[q]
        if v == WALL:
            for j in range(k, 2 * RADIUS + 1):
                key += 2 * _POW3[j]
            break
        if v:
            key += (1 if v == BLACK else 2) * _POW3[k]
    q = p
    for k in range(RADIUS - 1, -1, -1):
        q -= d
        v = cells[q]
        if v == WALL:
            for j in range(k, -1, -1):
                key += 2 * _POW3[j]
            break
        if v:
            key += (1 if v == BLACK else 2) * _POW3[k]
    return key


def _decode(key: int) -> list[int]:
    line = [(key // _POW3[k]) % 3 for k in range(2 * RADIUS + 1)]
    line[_CENTRE] = 1
    return line


def _run(line: list[int], c: int) -> tuple[int, int]:
    """The black run through c as (first, last) indices."""
    lo = c
    while lo > 0 and line[lo - 1] == 1:
        lo -= 1
    hi = c
    while hi < len(line) - 1 and line[hi + 1] == 1:
        hi += 1
    return lo, hi


def _four_groups(line: list[int], must: int) -> dict[tuple[int, int, int], int]:
    """Fours through `must`: map (first, last, gap) stone set -> number of completions.

    A completion is an empty cell that gives exactly five containing `must`;
    completions that share the same four stones are one four (an open four).
    """
    groups: dict[tuple[int, int, int], int] = {}
    for c in range(len(line)):
        if line[c] != 0:
            continue
        line[c] = 1
        lo, hi = _run(line, c)
        line[c] = 0
        if hi - lo == 4 and lo <= must <= hi:
            if c == lo:
                stones = (lo + 1, hi, -1)
            elif c == hi:
                stones = (lo, hi - 1, -1)
            else:
                stones = (lo, hi, c)
            groups[stones] = groups.get(stones, 0) + 1
    return groups


@lru_cache(maxsize=1 << 17)
def analyse_line(key: int) -> tuple[int, int, tuple[int, ...]]:
    """One line through a black move: (kind, fours, three key offsets).

    kind is _FIVE, OVERLINE or 0; fours counts distinct fours (0..2); the key
    offsets (relative to the move) are the empty points that would make a
    straight four containing the move and that point.
    """
    line = _decode(key)
    lo, hi = _run(line, _CENTRE)
    if hi - lo == 4:
        return _FIVE, 0, ()
    if hi - lo >= 5:
        return OVERLINE, 0, ()
    fours = min(len(_four_groups(line, _CENTRE)), 2)
    keys: list[int] = []
    if fours == 0:
        for e in range(1, 2 * RADIUS):
            if line[e] != 0 or abs(e - _CENTRE) > 4:
                continue
            line[e] = 1
            groups = _four_groups(line, _CENTRE)
            line[e] = 0
            for (first, last, gap), n in groups.items():
                if n >= 2 and gap == -1 and first <= e <= last:
                    keys.append(e - _CENTRE)
                    break
    return 0, fours, tuple(keys)


def foul_code(cells: list[int], dirs: tuple[int, ...], p: int, five_is_foul: bool = False) -> int:
    """Foul code of a black stone at empty index p: 0, DOUBLE_THREE, DOUBLE_FOUR or OVERLINE.

    With five_is_foul (used for key points of threes, as Piskvork does) making
    five answers DOUBLE_THREE's value 1 (meaning "not a usable key point").
    """
    cells[p] = BLACK
    try:
        results = [analyse_line(_line_key(cells, p, d)) for d in dirs]
        if any(r[0] == _FIVE for r in results):
            return 1 if five_is_foul else NO_FOUL
        if any(r[0] == OVERLINE for r in results):
            return OVERLINE
        if sum(r[1] for r in results) >= 2:
            return DOUBLE_FOUR
        with_keys = [(d, r[2]) for d, r in zip(dirs, results) if r[2]]
        if len(with_keys) < 2:
            return NO_FOUL
        threes = 0
        for d, offsets in with_keys:
            if any(not foul_code(cells, dirs, p + off * d, True) for off in offsets):
                threes += 1
                if threes >= 2:
                    return DOUBLE_THREE
        return NO_FOUL
    finally:
        cells[p] = EMPTY


def may_be_foul(cells: list[int], dirs: tuple[int, ...], p: int) -> bool:
    """Cheap pre-filter: False means p certainly is no foul.

    Every foul needs two lines with two other black stones within four cells,
    or one line with three.
    """
    busy = 0
    for d in dirs:
        n = 0
        for sign in (d, -d):
            q = p
            for _ in range(4):
                q += sign
                v = cells[q]
                if v == BLACK:
                    n += 1
                elif v != EMPTY:
                    break
        if n >= 3:
            return True
        if n >= 2:
            busy += 1
            if busy >= 2:
                return True
    return False


def _setup(
    black: Iterable[tuple[int, int]], white: Iterable[tuple[int, int]], size: int
) -> tuple[Grid, list[int]]:
    grid = Grid(size)
    cells = grid.new_board()
    for colour, stones in ((BLACK, black), (WHITE, white)):
        for x, y in stones:
            if not (0 <= x < size and 0 <= y < size):
                raise ValueError(f"stone ({x}, {y}) is off a {size}x{size} board")
            cells[grid.index(x, y)] = colour
    return grid, cells


def foul(
    black: Iterable[tuple[int, int]],
    white: Iterable[tuple[int, int]],
    point: tuple[int, int],
    size: int = 15,
) -> str | None:
    """The foul black would commit at `point`, or None (also when it makes five)."""
    grid, cells = _setup(black, white, size)
    x, y = point
    if not (0 <= x < size and 0 <= y < size) or cells[grid.index(x, y)] != EMPTY:
        raise ValueError(f"({x}, {y}) is not an empty point of the board")
    p = grid.index(x, y)
    if not may_be_foul(cells, grid.dirs, p):
        return None
    return FOUL_NAMES.get(foul_code(cells, grid.dirs, p))


def forbidden_points(
    black: Iterable[tuple[int, int]], white: Iterable[tuple[int, int]], size: int = 15
) -> set[tuple[int, int]]:
    """Every empty point where black may not play under renju."""
    grid, cells = _setup(black, white, size)
    dirs = grid.dirs
    out: set[tuple[int, int]] = set()
    for y in range(size):
        for x in range(size):
            p = grid.index(x, y)
            if cells[p] == EMPTY and may_be_foul(cells, dirs, p) and foul_code(cells, dirs, p):
                out.add((x, y))
    return out
