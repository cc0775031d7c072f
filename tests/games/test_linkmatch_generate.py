"""Board generation and shuffles: solvable by construction, checked two ways.

The witness order the generator returns is replayed on every board; an exact
solver independently confirms solvability on small boards (and is itself
shown able to say "no").
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from gridhall.server.games.linkmatch import find_path, generate
from gridhall.server.games.linkmatch.board import (
    Gravity,
    Pair,
    Rows,
    copy_rows,
    count_tiles,
    fall_down,
    remove_pair,
)
from gridhall.server.games.linkmatch.generate import Layout, shuffle_tiles
from gridhall.server.games.linkmatch.solver import solve

GRAVITIES: list[Gravity] = ["none", "down"]


def replay(rows: Rows, order: list[Pair], gravity: Gravity) -> None:
    """Every pair of the order links when its turn comes and the board ends empty."""
    board = copy_rows(rows)
    for a, b in order:
        assert find_path(board, a, b) is not None, (board, a, b)
        remove_pair(board, a, b, gravity)
    assert count_tiles(board) == 0


def kind_counts(rows: Rows) -> Counter[int]:
    return Counter(c for row in rows for c in row if c)


def bottom_packed(rows: Rows) -> bool:
    return all(
        not (rows[y][x] and not rows[y + 1][x])
        for y in range(len(rows) - 1)
        for x in range(len(rows[0]))
    )


@pytest.mark.parametrize("gravity", GRAVITIES)
@pytest.mark.parametrize(
    ("width", "height", "kinds", "seeds"),
    [(2, 2, 1, 40), (4, 3, 3, 60), (7, 4, 5, 40), (16, 9, 36, 12), (30, 16, 36, 2), (30, 16, 2, 1)],
)
def test_generated_boards_are_full_even_and_clear_in_witness_order(
    width: int, height: int, kinds: int, seeds: int, gravity: Gravity
) -> None:
    for seed in range(seeds):
        layout = generate.generate(width, height, kinds, gravity, random.Random(seed))
        assert len(layout.rows) == height and all(len(r) == width for r in layout.rows)
        counts = kind_counts(layout.rows)
        assert sum(counts.values()) == width * height
        assert set(counts) == set(range(1, kinds + 1))
        assert all(n % 2 == 0 for n in counts.values())
        replay(layout.rows, layout.order, gravity)


@pytest.mark.parametrize("gravity", GRAVITIES)
@pytest.mark.parametrize(("width", "height", "kinds"), [(4, 4, 8), (6, 4, 12), (6, 5, 8)])
def test_exact_solver_confirms_generated_boards(
    width: int, height: int, kinds: int, gravity: Gravity
) -> None:
    for seed in range(25):
        rows = generate.generate(width, height, kinds, gravity, random.Random(seed)).rows
        order = solve(rows, gravity)
        assert order is not None, rows
        replay(rows, order, gravity)


def test_exact_solver_finds_unsolvable_boards() -> None:
    assert solve([[1, 2], [2, 1]]) is None
    rng = random.Random(1)
    unsolvable = 0
    for _ in range(60):  # random deals, not constructed: many have no clearing order
        cells = [1 + i % 8 for i in range(8)] * 2
        rng.shuffle(cells)
        rows = [cells[i * 4 : i * 4 + 4] for i in range(4)]
        order = solve(rows)
        if order is None:
            unsolvable += 1
        else:
            replay(rows, order, "none")
    assert 5 < unsolvable < 55


def test_falling_tiles_drop_to_the_bottom_of_their_columns() -> None:
    rows = [[1, 2], [0, 3], [4, 0], [0, 0]]
    fall_down(rows)
    assert rows == [[0, 0], [0, 0], [1, 2], [4, 3]]


def test_solvability_depends_on_gravity() -> None:
    # Found by search: boards solvable under one option and not the other, so a
    # generator that ignored the option would be caught by the solver checks.
    only_down = [[6, 2, 1], [4, 5, 3], [6, 1, 2], [5, 4, 3]]
    only_none = [[5, 6, 1], [4, 4, 2], [2, 5, 3], [3, 1, 6]]
    assert solve(only_down, "none") is None and solve(only_down, "down") is not None
    assert solve(only_none, "down") is None and solve(only_none, "none") is not None


def test_same_seed_same_board_and_seeds_differ() -> None:
    boards = [generate.generate(16, 9, 36, "none", random.Random(s)).rows for s in range(5)]
    again = generate.generate(16, 9, 36, "none", random.Random(3)).rows
    assert again == boards[3]
    assert len({str(b) for b in boards}) == 5


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_stacking_fallback_is_solvable(monkeypatch: pytest.MonkeyPatch, gravity: Gravity) -> None:
    monkeypatch.setattr(generate, "PLAY_ATTEMPTS", 0)
    for seed in range(20):
        layout = generate.generate(6, 4, 12, gravity, random.Random(seed))
        replay(layout.rows, layout.order, gravity)
        assert solve(layout.rows, gravity) is not None


def _partly_played(
    width: int, height: int, kinds: int, gravity: Gravity, seed: int, steps: int
) -> Rows:
    layout: Layout = generate.generate(width, height, kinds, gravity, random.Random(seed))
    rows = copy_rows(layout.rows)
    for a, b in layout.order[:steps]:
        remove_pair(rows, a, b, gravity)
    return rows


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_shuffle_keeps_tiles_and_cells_and_stays_solvable(gravity: Gravity) -> None:
    for seed in range(30):
        rows = _partly_played(16, 9, 36, gravity, seed, steps=10 + seed)
        shuffled = shuffle_tiles(rows, gravity, random.Random(seed))
        assert kind_counts(shuffled.rows) == kind_counts(rows)
        occupied = [[c != 0 for c in row] for row in rows]
        assert [[c != 0 for c in row] for row in shuffled.rows] == occupied
        replay(shuffled.rows, shuffled.order, gravity)
        if gravity == "down":
            assert bottom_packed(shuffled.rows)


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_shuffle_of_small_boards_passes_exact_solver(gravity: Gravity) -> None:
    for seed in range(25):
        rows = _partly_played(6, 4, 12, gravity, seed, steps=3)
        shuffled = shuffle_tiles(rows, gravity, random.Random(seed)).rows
        assert solve(shuffled, gravity) is not None


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_shuffle_fallback_restacks_in_same_columns(
    monkeypatch: pytest.MonkeyPatch, gravity: Gravity
) -> None:
    monkeypatch.setattr(generate, "PLAY_ATTEMPTS", 0)
    rows = _partly_played(8, 6, 12, gravity, 5, steps=9)
    shuffled = shuffle_tiles(rows, gravity, random.Random(0))
    assert kind_counts(shuffled.rows) == kind_counts(rows)
    column_counts = [sum(1 for r in rows if r[x]) for x in range(8)]
    assert [sum(1 for r in shuffled.rows if r[x]) for x in range(8)] == column_counts
    assert bottom_packed(shuffled.rows)
    replay(shuffled.rows, shuffled.order, gravity)
