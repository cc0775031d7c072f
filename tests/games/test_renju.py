"""Renju fouls: hand-made cases for each kind, and a cross-check against the
`renju` package (a port of the Piskvork referee) on thousands of positions."""

from __future__ import annotations

import random
import time

import pytest

from gridhall.server.games.gomoku.renju import forbidden_points, foul

Point = tuple[int, int]


def row(y: int, *xs: int) -> list[Point]:
    return [(x, y) for x in xs]


def col(x: int, *ys: int) -> list[Point]:
    return [(x, y) for y in ys]


def test_open_three_crossing_open_three_is_double_three() -> None:
    black = row(7, 5, 6) + col(7, 5, 6)
    assert foul(black, [], (7, 7)) == "double-three"
    assert (7, 7) in forbidden_points(black, [])


def test_split_three_counts_as_three() -> None:
    black = row(7, 4, 6) + col(7, 5, 6)  # X_X* horizontally
    assert foul(black, [], (7, 7)) == "double-three"


def test_three_blocked_by_white_is_not_a_three() -> None:
    black = row(7, 5, 6) + col(7, 5, 6)
    assert foul(black, [(4, 7)], (7, 7)) is None  # O X X * _ : cannot become a straight four
    assert foul(black, [(8, 7)], (7, 7)) is None


def test_three_against_the_edge_is_not_a_three() -> None:
    assert foul([(5, 5), (6, 5), (7, 6), (7, 7)], [], (7, 5)) == "double-three"
    edge = [(0, 0), (1, 0), (2, 1), (2, 2)]  # |XX* along the top, |*XX down the side
    assert foul(edge, [], (2, 0)) is None


def test_four_and_three_is_legal() -> None:
    black = row(7, 4, 5, 6) + col(7, 5, 6)
    assert foul(black, [], (7, 7)) is None


def test_two_fours_on_two_lines_is_double_four() -> None:
    black = row(7, 4, 5, 6) + col(7, 4, 5, 6)
    assert foul(black, [], (7, 7)) == "double-four"


@pytest.mark.parametrize(
    ("stones", "move"),
    [
        ((3, 5, 7, 9), 6),  # X_X*X_X
        ((2, 3, 6, 8, 9), 5),  # XX_*X_XX
        ((1, 2, 3, 7, 8, 9), 5),  # XXX_*_XXX
    ],
)
def test_two_fours_on_one_line_is_double_four(stones: tuple[int, ...], move: int) -> None:
    assert foul(row(7, *stones), [], (move, 7)) == "double-four"


def test_overline_is_a_foul() -> None:
    assert foul(row(7, 2, 3, 4, 6, 7), [], (5, 7)) == "overline"


def test_five_beats_double_three() -> None:
    threes = [*col(7, 8, 9), (8, 8), (9, 9)]
    assert foul(threes, [], (7, 7)) == "double-three"
    assert foul(threes + row(7, 3, 4, 5, 6), [], (7, 7)) is None


def test_five_beats_overline_on_another_line() -> None:
    black = row(7, 3, 4, 5, 6) + col(7, 4, 5, 6, 8, 9)
    assert foul(col(7, 4, 5, 6, 8, 9), [], (7, 7)) == "overline"
    assert foul(black, [], (7, 7)) is None


def test_three_whose_only_key_point_is_forbidden_does_not_count() -> None:
    """Recursive check: XX_* has one key point; a double-four there makes it no three."""
    base = row(7, 4, 5) + col(7, 5, 6)
    assert foul(base, [], (7, 7)) == "double-three"
    key_foul = [*col(6, 9, 10, 11), (8, 5), (9, 4)]
    assert foul([*base, (7, 7), *key_foul], [], (6, 7)) == "double-four"
    assert foul(base + key_foul, [], (7, 7)) is None


def test_white_shapes_never_make_forbidden_points() -> None:
    white = row(7, 2, 3, 4, 6, 7) + col(5, 3, 4, 5, 6)
    assert forbidden_points([(0, 0)], white) == set()


def test_foul_rejects_occupied_point() -> None:
    with pytest.raises(ValueError):
        foul([(7, 7)], [], (7, 7))


def test_foul_is_fast_enough_for_every_move() -> None:
    rng = random.Random(5)
    cells = [(x, y) for x in range(3, 12) for y in range(3, 12)]
    stones = rng.sample(cells, 40)
    black, white = stones[:20], stones[20:]
    empty = [p for p in cells if p not in stones]
    start = time.process_time()  # CPU time: a loaded machine's waits are not the code's
    for p in empty:
        foul(black, white, p)
    assert (time.process_time() - start) / len(empty) < 0.005


def _random_position(rng: random.Random, size: int) -> tuple[list[Point], list[Point]]:
    """Stones clustered in a box, so fours, threes and fouls are common."""
    spread = rng.choice([3, 4, 5, 7])
    cx, cy = rng.randint(3, size - 4), rng.randint(3, size - 4)
    box = [
        (x, y)
        for x in range(max(0, cx - spread), min(size, cx + spread + 1))
        for y in range(max(0, cy - spread), min(size, cy + spread + 1))
    ]
    nb = rng.randint(4, 40)
    nw = rng.randint(0, nb)
    stones = rng.sample(box, min(len(box) * 2 // 3, nb + nw))
    nb = min(nb, len(stones))
    return stones[:nb], stones[nb:]


@pytest.mark.timeout(600)  # 500 positions: slow on a loaded machine
def test_matches_the_renju_package_on_random_positions() -> None:
    from renju.check_forbid import ForbidChecker

    names = {1: "double-three", 2: "double-four", 3: "overline"}
    rng = random.Random(2024)
    size = 15
    kinds: dict[str, int] = {}
    positions = 500
    for _ in range(positions):
        black, white = _random_position(rng, size)
        grid = [[0] * size for _ in range(size)]
        for x, y in black:
            grid[x][y] = 1
        for x, y in white:
            grid[x][y] = 2
        checker = ForbidChecker(grid, 0, 0)
        expected: dict[Point, str] = {}
        for (x, y), near in _black_near(black, size).items():
            # A foul needs at least two other black stones within five points.
            if near >= 2 and grid[x][y] == 0:
                code = checker.foulr(x, y, 0)
                if code:
                    expected[(x, y)] = names[code]
        assert forbidden_points(black, white, size) == set(expected)
        for p, name in expected.items():
            assert foul(black, white, p, size) == name
            kinds[name] = kinds.get(name, 0) + 1
    assert all(kinds.get(name, 0) > 100 for name in names.values()), kinds


def _black_near(black: list[Point], size: int) -> dict[Point, int]:
    counts: dict[Point, int] = {}
    for bx, by in black:
        for x in range(max(0, bx - 5), min(size, bx + 6)):
            for y in range(max(0, by - 5), min(size, by + 6)):
                counts[(x, y)] = counts.get((x, y), 0) + 1
    return counts
