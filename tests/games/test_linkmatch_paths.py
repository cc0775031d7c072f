"""Link rules: which pairs link, and the corner points returned for them.

A deliberately naive reference (try every pair of corner points on the two
tiles' lines) checks both the line-scan ``find_path`` and the run-based
``available_pairs`` on many random boards.
"""

from __future__ import annotations

import itertools
import random

import pytest

from gridhall.server.games.linkmatch import available_pairs, find_path
from gridhall.server.games.linkmatch.board import Point, Rows

X = 9  # a blocker kind in hand-made boards


def _free(rows: Rows, p: Point) -> bool:
    x, y = p
    inside = 0 <= y < len(rows) and 0 <= x < len(rows[0])
    return not inside or rows[y][x] == 0


def _clear(rows: Rows, p: Point, q: Point) -> bool:
    """p and q on one line and every cell strictly between them free."""
    if p[0] != q[0] and p[1] != q[1]:
        return False
    n = max(abs(p[0] - q[0]), abs(p[1] - q[1]))
    dx = (q[0] > p[0]) - (q[0] < p[0])
    dy = (q[1] > p[1]) - (q[1] < p[1])
    return all(_free(rows, (p[0] + dx * i, p[1] + dy * i)) for i in range(1, n))


def _segments(points: list[Point]) -> int:
    dirs: list[tuple[int, int]] = []
    for p, q in itertools.pairwise(points):
        d = ((q[0] > p[0]) - (q[0] < p[0]), (q[1] > p[1]) - (q[1] < p[1]))
        if d != (0, 0) and (not dirs or dirs[-1] != d):
            dirs.append(d)
    return len(dirs)


def brute_segments(rows: Rows, a: Point, b: Point) -> int | None:
    """Fewest segments (<= 3) of a link from a to b, by trying every corner pair."""
    h, w = len(rows), len(rows[0])
    if a == b or rows[a[1]][a[0]] == 0 or rows[a[1]][a[0]] != rows[b[1]][b[0]]:
        return None
    xs, ys = range(-1, w + 1), range(-1, h + 1)
    best: int | None = None
    for p in [(x, a[1]) for x in xs] + [(a[0], y) for y in ys]:
        if (p != a and not _free(rows, p)) or not _clear(rows, a, p):
            continue
        for q in [(x, b[1]) for x in xs] + [(b[0], y) for y in ys]:
            if (q != b and not _free(rows, q)) or not _clear(rows, p, q):
                continue
            if _clear(rows, q, b):
                n = _segments([a, p, q, b])
                best = n if best is None else min(best, n)
    return best


def assert_valid_path(rows: Rows, path: list[Point], a: Point, b: Point) -> None:
    """Ends right, 1..3 real segments, corners free, every segment clear, in range."""
    h, w = len(rows), len(rows[0])
    assert path[0] == a and path[-1] == b
    assert 2 <= len(path) <= 4
    assert _segments(path) == len(path) - 1, "consecutive segments must turn"
    for p in path[1:-1]:
        assert -1 <= p[0] <= w and -1 <= p[1] <= h
        assert _free(rows, p)
    for p, q in itertools.pairwise(path):
        assert _clear(rows, p, q)


def random_board(rng: random.Random) -> Rows:
    w, h = rng.randint(1, 6), rng.randint(1, 5)
    density = rng.random()
    kinds = rng.randint(1, 3)
    return [
        [rng.randint(1, kinds) if rng.random() < density else 0 for _ in range(w)] for _ in range(h)
    ]


# -- hand-made cases -----------------------------------------------------------


def test_adjacent_tiles_link_straight() -> None:
    rows = [[1, 1], [2, 3]]
    assert find_path(rows, (0, 0), (1, 0)) == [(0, 0), (1, 0)]


def test_straight_line_through_gap() -> None:
    rows = [[X, X, X, X, X], [1, 0, 0, 0, 1], [X, X, X, X, X]]
    assert find_path(rows, (0, 1), (4, 1)) == [(0, 1), (4, 1)]


def test_vertical_straight_line() -> None:
    rows = [[X, 1, X], [X, 0, X], [X, 1, X]]
    assert find_path(rows, (1, 0), (1, 2)) == [(1, 0), (1, 2)]


def test_one_turn_link_through_empty_corner() -> None:
    rows = [[X, X, X, X], [X, 1, 0, X], [X, X, 1, X], [X, X, X, X]]
    assert find_path(rows, (1, 1), (2, 2)) == [(1, 1), (2, 1), (2, 2)]


def test_one_turn_refused_when_both_corners_blocked() -> None:
    rows = [[X, X, X, X], [X, 1, X, X], [X, X, 1, X], [X, X, X, X]]
    assert find_path(rows, (1, 1), (2, 2)) is None


def test_two_turns_inside_the_board() -> None:
    rows = [[X, X, X, X, X], [X, 1, X, 1, X], [X, 0, 0, 0, X], [X, X, X, X, X]]
    assert find_path(rows, (1, 1), (3, 1)) == [(1, 1), (1, 2), (3, 2), (3, 1)]


@pytest.mark.parametrize(
    ("rows", "a", "b", "expected"),
    [
        ([[1, X, X, 1], [X, X, X, X]], (0, 0), (3, 0), [(0, 0), (0, -1), (3, -1), (3, 0)]),
        ([[X, X, X, X], [1, X, X, 1]], (0, 1), (3, 1), [(0, 1), (0, 2), (3, 2), (3, 1)]),
        ([[1, X], [X, X], [1, X]], (0, 0), (0, 2), [(0, 0), (-1, 0), (-1, 2), (0, 2)]),
        ([[X, 1], [X, X], [X, 1]], (1, 0), (1, 2), [(1, 0), (2, 0), (2, 2), (1, 2)]),
    ],
    ids=["top", "bottom", "left", "right"],
)
def test_path_through_outer_ring_on_every_side(
    rows: Rows, a: Point, b: Point, expected: list[Point]
) -> None:
    assert find_path(rows, a, b) == expected
    assert find_path(rows, b, a) == expected[::-1]


def test_blocked_pair_does_not_link() -> None:
    rows = [[X, X, X], [1, X, 1], [X, X, X]]
    assert find_path(rows, (0, 1), (2, 1)) is None


def test_three_turn_path_is_refused() -> None:
    # a=(1,1) can only go right, down, right, down to b=(4,4): four segments.
    rows = [
        [X, X, X, X, X, X],
        [X, 1, 0, X, X, X],
        [X, X, 0, 0, 0, X],
        [X, X, X, X, 0, X],
        [X, X, X, X, 1, X],
    ]
    four = [(1, 1), (2, 1), (2, 2), (4, 2), (4, 4)]
    for p, q in itertools.pairwise(four):
        assert _clear(rows, p, q)  # the four-segment route really is open
    assert find_path(rows, (1, 1), (4, 4)) is None
    assert brute_segments(rows, (1, 1), (4, 4)) is None


def test_different_kinds_never_link() -> None:
    rows = [[1, 2], [0, 0]]
    assert find_path(rows, (0, 0), (1, 0)) is None
    assert available_pairs(rows) == []


@pytest.mark.parametrize(
    ("a", "b"),
    [((0, 0), (0, 0)), ((0, 0), (1, 1)), ((0, 0), (2, 0)), ((-1, 0), (0, 0)), ((0, 5), (0, 0))],
)
def test_same_empty_or_off_board_cells_do_not_link(a: Point, b: Point) -> None:
    rows = [[1, 1], [1, 0]]
    assert find_path(rows, a, b) is None


def test_prefers_fewest_segments_then_shortest_route() -> None:
    rows = [[0, 0, 0, 0], [1, 0, 0, 1], [0, 0, 0, 0]]
    assert find_path(rows, (0, 1), (3, 1)) == [(0, 1), (3, 1)]
    rows[1][1] = X
    # around row 0 or row 2: both length 5; a U over the ring would be 7.
    path = find_path(rows, (0, 1), (3, 1))
    assert path is not None and len(path) == 4 and path[1][1] in (0, 2)


# -- agreement with the brute-force reference ------------------------------------


def test_find_path_agrees_with_brute_force_on_random_boards() -> None:
    rng = random.Random(4)
    checked = linked = 0
    for _ in range(300):
        rows = random_board(rng)
        cells = [(x, y) for y in range(len(rows)) for x in range(len(rows[0]))]
        for a in cells:
            for b in cells:
                expected = brute_segments(rows, a, b)
                path = find_path(rows, a, b)
                checked += 1
                if expected is None:
                    assert path is None, (rows, a, b, path)
                    continue
                linked += 1
                assert path is not None, (rows, a, b)
                assert_valid_path(rows, path, a, b)
                assert len(path) - 1 == expected, (rows, a, b, path)
    assert linked > 1000 and checked - linked > 1000  # both outcomes well exercised


def test_available_pairs_agrees_with_brute_force_on_random_boards() -> None:
    rng = random.Random(7)
    for _ in range(300):
        rows = random_board(rng)
        cells = [(x, y) for y in range(len(rows)) for x in range(len(rows[0]))]
        expected = {
            (a, b)
            for i, a in enumerate(cells)
            for b in cells[i + 1 :]
            if brute_segments(rows, a, b) is not None
        }
        got = available_pairs(rows)
        assert len(got) == len(set(got))
        assert set(got) == expected, rows


def test_available_pairs_on_full_board_are_neighbours_or_along_the_edge() -> None:
    rows = [[1, 2, 1], [3, 4, 3], [2, 4, 2]]
    assert set(available_pairs(rows)) == {((0, 0), (2, 0)), ((1, 1), (1, 2)), ((0, 2), (2, 2))}
