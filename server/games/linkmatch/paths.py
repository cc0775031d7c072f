"""Which tiles link, and along which path.

Two tiles of one kind link when at most three straight segments (two turns)
join them through empty cells; the path may use the one-cell ring around the
board. :func:`find_path` answers one query by line scans (straight, then one
corner, then the best two-corner route). :func:`available_pairs` answers "what
links now" for a whole board at once through maximal empty runs, which costs
about one board scan per tile instead of one path search per same-kind pair.

Internally the board is padded twice: a ring of empty cells (the playable
outer ring) and, outside it, a wall, so scans stop without bounds checks.
"""

from __future__ import annotations

from .board import Pair, Point, Rows

WALL = -1
_PAD = 2


class Grid:
    """A board padded with the empty ring and a wall, flattened row-major."""

    __slots__ = ("cells", "height", "stride", "width")

    def __init__(self, rows: Rows) -> None:
        self.height = len(rows)
        self.width = len(rows[0]) if rows else 0
        self.stride = self.width + 2 * _PAD
        total_rows = self.height + 2 * _PAD
        cells = [0] * (self.stride * total_rows)
        for i in range(self.stride):
            cells[i] = WALL
            cells[(total_rows - 1) * self.stride + i] = WALL
        for py in range(total_rows):
            cells[py * self.stride] = WALL
            cells[py * self.stride + self.stride - 1] = WALL
        for y, row in enumerate(rows):
            base = (y + _PAD) * self.stride + _PAD
            cells[base : base + self.width] = row
        self.cells = cells

    def point(self, i: int) -> Point:
        """Board coordinates of flat index ``i`` (ring cells are -1 or width/height)."""
        py, px = divmod(i, self.stride)
        return (px - _PAD, py - _PAD)


def _inside(rows: Rows, p: Point) -> bool:
    return 0 <= p[1] < len(rows) and 0 <= p[0] < len(rows[p[1]])


def find_path(rows: Rows, a: Point, b: Point) -> list[Point] | None:
    """Corner points of a link from ``a`` to ``b``, both ends included.

    Prefers fewer segments, then the shorter route. None when either cell is
    off the board or empty, when ``a == b``, when the kinds differ, or when no
    path of at most three segments exists.
    """
    if a == b or not _inside(rows, a) or not _inside(rows, b):
        return None
    kind = rows[a[1]][a[0]]
    if kind <= 0 or kind != rows[b[1]][b[0]]:
        return None
    grid = Grid(rows)
    corners = _route(grid, a[0] + _PAD, a[1] + _PAD, b[0] + _PAD, b[1] + _PAD)
    if corners is None:
        return None
    return [(x - _PAD, y - _PAD) for x, y in corners]


def _route(g: Grid, ax: int, ay: int, bx: int, by: int) -> list[tuple[int, int]] | None:  # noqa: C901 - the path scan every link and hint runs, inlined (bench/bench_linkmatch.py)
    """Line-scan search in padded coordinates; the ends themselves are tiles."""
    cells, s = g.cells, g.stride

    def clear_h(y: int, x0: int, x1: int) -> bool:
        lo, hi = (x0, x1) if x0 < x1 else (x1, x0)
        row = y * s
        return all(cells[row + x] == 0 for x in range(lo + 1, hi))

    def clear_v(x: int, y0: int, y1: int) -> bool:
        lo, hi = (y0, y1) if y0 < y1 else (y1, y0)
        return all(cells[y * s + x] == 0 for y in range(lo + 1, hi))

    if ay == by and clear_h(ay, ax, bx):
        return [(ax, ay), (bx, by)]
    if ax == bx and clear_v(ax, ay, by):
        return [(ax, ay), (bx, by)]
    if ax != bx and ay != by:
        if cells[ay * s + bx] == 0 and clear_h(ay, ax, bx) and clear_v(bx, ay, by):
            return [(ax, ay), (bx, ay), (bx, by)]
        if cells[by * s + ax] == 0 and clear_v(ax, ay, by) and clear_h(by, ax, bx):
            return [(ax, ay), (ax, by), (bx, by)]
    best: list[tuple[int, int]] | None = None
    best_len = 1 << 30
    if ay != by:  # horizontal, vertical, horizontal
        lo_x = max(_reach_x(cells, s, ax, ay, -1), _reach_x(cells, s, bx, by, -1))
        hi_x = min(_reach_x(cells, s, ax, ay, 1), _reach_x(cells, s, bx, by, 1))
        for x in range(lo_x, hi_x + 1):
            if x in (ax, bx) or not clear_v(x, ay, by):
                continue
            length = abs(ax - x) + abs(ay - by) + abs(bx - x)
            if length < best_len:
                best, best_len = [(ax, ay), (x, ay), (x, by), (bx, by)], length
    if ax != bx:  # vertical, horizontal, vertical
        lo_y = max(_reach_y(cells, s, ax, ay, -1), _reach_y(cells, s, bx, by, -1))
        hi_y = min(_reach_y(cells, s, ax, ay, 1), _reach_y(cells, s, bx, by, 1))
        for y in range(lo_y, hi_y + 1):
            if y in (ay, by) or not clear_h(y, ax, bx):
                continue
            length = abs(ay - y) + abs(ax - bx) + abs(by - y)
            if length < best_len:
                best, best_len = [(ax, ay), (ax, y), (bx, y), (bx, by)], length
    return best


def _reach_x(cells: list[int], s: int, x: int, y: int, step: int) -> int:
    """The farthest column reachable from (x, y) along its row through empty cells."""
    row = y * s
    while cells[row + x + step] == 0:
        x += step
    return x


def _reach_y(cells: list[int], s: int, x: int, y: int, step: int) -> int:
    """The farthest row reachable from (x, y) along its column through empty cells."""
    while cells[(y + step) * s + x] == 0:
        y += step
    return y


class Runs:
    """Maximal straight runs of empty cells (ring included), by row and by column.

    Every empty cell lies on exactly one horizontal and one vertical run; a
    straight segment of a path is a stretch of one run, and the cells just
    past a run's two ends are the tiles (or wall) it can reach.
    """

    __slots__ = ("grid", "h_cells", "h_ends", "h_of", "v_cells", "v_ends", "v_of")

    def __init__(self, grid: Grid) -> None:
        self.grid = grid
        n = len(grid.cells)
        self.h_of = [-1] * n
        self.v_of = [-1] * n
        self.h_cells: list[list[int]] = []
        self.v_cells: list[list[int]] = []
        self.h_ends: list[tuple[int, int]] = []
        self.v_ends: list[tuple[int, int]] = []
        s = grid.stride
        rows = len(grid.cells) // s
        for py in range(1, rows - 1):
            self._scan([py * s + px for px in range(s)], 1, self.h_of, self.h_cells, self.h_ends)
        for px in range(1, s - 1):
            self._scan([py * s + px for py in range(rows)], s, self.v_of, self.v_cells, self.v_ends)

    def _scan(
        self,
        line: list[int],
        step: int,
        run_of: list[int],
        run_cells: list[list[int]],
        run_ends: list[tuple[int, int]],
    ) -> None:
        cells = self.grid.cells
        current: list[int] = []
        for i in line:
            if cells[i] == 0:
                run_of[i] = len(run_cells)
                current.append(i)
            elif current:
                run_cells.append(current)
                run_ends.append((current[0] - step, current[-1] + step))
                current = []

    def _runs_from(self, start: int) -> tuple[set[int], set[int], set[int]]:
        """(neighbouring tiles, horizontal runs, vertical runs) within three segments."""
        cells, s = self.grid.cells, self.grid.stride
        h_of, v_of = self.h_of, self.v_of
        near: set[int] = set()
        h_level: set[int] = set()
        v_level: set[int] = set()
        for n, run_of, level in (
            (start + 1, h_of, h_level),
            (start - 1, h_of, h_level),
            (start + s, v_of, v_level),
            (start - s, v_of, v_level),
        ):
            if cells[n] > 0:
                near.add(n)
            elif cells[n] == 0:
                level.add(run_of[n])
        h_runs: set[int] = set()
        v_runs: set[int] = set()
        for depth in range(3):
            h_runs |= h_level
            v_runs |= v_level
            if depth == 2 or not (h_level or v_level):
                break
            next_v = {v_of[c] for r in h_level for c in self.h_cells[r]} - v_runs
            h_level = {h_of[c] for r in v_level for c in self.v_cells[r]} - h_runs
            v_level = next_v
        return near, h_runs, v_runs

    def reach_tiles(self, start: int) -> set[int]:
        """Tiles that ``start`` links to by occupancy alone (kinds ignored)."""
        near, h_runs, v_runs = self._runs_from(start)
        cells = self.grid.cells
        for r in h_runs:
            near.update(self.h_ends[r])
        for r in v_runs:
            near.update(self.v_ends[r])
        near.discard(start)
        return {t for t in near if cells[t] > 0}


def available_pairs(rows: Rows) -> list[Pair]:
    """Every pair of tiles that links now, each once, in row-major order of its ends."""
    grid = Grid(rows)
    runs = Runs(grid)
    cells = grid.cells
    last = {kind: i for i, kind in enumerate(cells) if kind > 0}
    pairs: list[Pair] = []
    for i, kind in enumerate(cells):
        if kind <= 0 or last[kind] == i:
            continue
        for j in sorted(runs.reach_tiles(i)):
            if j > i and cells[j] == kind:
                pairs.append((grid.point(i), grid.point(j)))
    return pairs


def has_pair(rows: Rows) -> bool:
    """True when at least one pair links; stops at the first one found."""
    grid = Grid(rows)
    runs = Runs(grid)
    cells = grid.cells
    for i, kind in enumerate(cells):
        if kind > 0 and any(cells[j] == kind for j in runs.reach_tiles(i)):
            return True
    return False


def first_pair(rows: Rows) -> Pair | None:
    """``available_pairs(rows)[0]`` without listing the others (a hint's cost is
    then that of :func:`has_pair`). Linking is symmetric, so the first tile with
    any partner has only later partners; its nearest in row-major order is it."""
    grid = Grid(rows)
    runs = Runs(grid)
    cells = grid.cells
    for i, kind in enumerate(cells):
        if kind > 0:
            partners = [j for j in runs.reach_tiles(i) if cells[j] == kind]
            if partners:
                return grid.point(i), grid.point(min(partners))
    return None
