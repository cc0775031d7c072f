"""The solo strategy: first click, safe moves, guesses, and perfect endgames."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from gridhall.server.games.minesweeper import best_move
from gridhall.server.games.minesweeper.board import Board, neighbour_table
from gridhall.server.games.minesweeper.endgame import best_endgame_move
from gridhall.server.games.minesweeper.play import play_game
from gridhall.server.games.minesweeper.solver import knowledge_from_rows
from gridhall.server.games.minesweeper.strategy import CUTOFF, first_cell, forced_guess


def test_first_move_on_an_untouched_expert_board_is_near_the_corner() -> None:
    assert best_move(["#" * 30] * 16, 99) == (3, 3)


def test_first_move_on_a_tiny_board_stays_on_it() -> None:
    x, y = best_move(["###", "###", "###", "###"], 2)
    assert (x, y) == (1, 1)
    assert first_cell(2, 5) == 2 * 2 + 0  # (0, 2): the middle of a 2-wide strip


def test_a_proven_safe_cell_is_chosen_before_any_guess() -> None:
    # The 1 at (0, 1) puts the only mine at (0, 0) or (1, 0); the 1 at (1, 1)
    # then clears (2, 0) and (2, 1), while (0, 0) and (1, 0) stay 50/50.
    assert best_move(["###", "11#", "000"], 1) in {(2, 0), (2, 1)}


def test_a_guess_is_among_the_safest_cells() -> None:
    # The 1 at (0, 1) holds one of the 3 mines among its 5 hidden neighbours
    # (risk 1/5); the 24 cells beyond it share the other 2 (risk 1/12).
    rows = ["##########", "1#########", "##########"]
    x, y = best_move(rows, 3)
    analysis = knowledge_from_rows(rows, 3).analyse()
    best = min(analysis.prob.values())
    assert best == pytest.approx(2 / 24)
    assert 1 - analysis.prob[y * 10 + x] >= CUTOFF * (1 - best) - 1e-12


def test_best_move_refuses_a_finished_or_broken_view() -> None:
    with pytest.raises(ValueError):
        best_move(["11", "11"], 0)
    with pytest.raises(ValueError):
        best_move(["9#", "##"], 1)


# -- perfect endgame ---------------------------------------------------------------


def _layouts(rows: list[str], mines: int) -> tuple[list[int], list[frozenset[int]]]:
    width = len(rows[0])
    cells = [y * width + x for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"]
    nb = neighbour_table(width, len(rows))
    numbers = [
        (y * width + x, int(ch))
        for y, r in enumerate(rows)
        for x, ch in enumerate(r)
        if ch.isdigit()
    ]
    out = [
        frozenset(c)
        for c in combinations(cells, mines)
        if all(sum(n in c for n in nb[cell]) == v for cell, v in numbers)
    ]
    return cells, out


def _oracle(
    width: int, height: int, cells: list[int], layouts: list[frozenset[int]]
) -> dict[int, float]:
    """Win chance of revealing each hidden cell first, then playing perfectly
    (plain recursion over layout sets, no pruning)."""
    nb = neighbour_table(width, height)

    @cache
    def value(group: frozenset[frozenset[int]], opened: frozenset[int]) -> float:
        if len(group) == 1:
            return 1.0
        return max(move(group, opened, c) for c in cells if c not in opened)

    def move(group: frozenset[frozenset[int]], opened: frozenset[int], c: int) -> float:
        parts: dict[int, set[frozenset[int]]] = {}
        for lay in group:
            if c not in lay:
                parts.setdefault(sum(n in lay for n in nb[c]), set()).add(lay)
        return sum(len(p) / len(group) * value(frozenset(p), opened | {c}) for p in parts.values())

    start = frozenset(layouts)
    return {c: move(start, frozenset(), c) for c in cells}


def _random_endgame(rng: random.Random) -> tuple[list[str], int]:
    while True:
        width, height = rng.randint(3, 5), rng.randint(2, 3)
        mines = rng.randint(1, 3)
        board = Board(width, height, rng.sample(range(width * height), mines))
        revealed = bytearray(width * height)
        safe = [c for c in range(width * height) if not board.is_mine(c)]
        for c in rng.sample(safe, rng.randint(1, max(1, len(safe) - 3))):
            revealed[c] = 1
        rows = [
            "".join(
                str(board.counts[y * width + x]) if revealed[y * width + x] else "#"
                for x in range(width)
            )
            for y in range(height)
        ]
        hidden = sum(r.count("#") for r in rows)
        if mines < hidden <= 8:
            return rows, mines


def test_endgame_search_plays_as_well_as_a_brute_force_oracle() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(60):
        rows, mines = _random_endgame(rng)
        cells, layouts = _layouts(rows, mines)
        if len(layouts) < 2:
            continue
        k = knowledge_from_rows(rows, mines)
        move = best_endgame_move(k, 1000, 100_000)
        assert move is not None
        values = _oracle(len(rows[0]), len(rows), cells, layouts)
        assert values[move] == pytest.approx(max(values.values()))
        checked += 1
    assert checked > 30


def test_endgame_search_gives_up_beyond_its_limit() -> None:
    k = knowledge_from_rows(["#" * 8, "#" * 8], 4)
    assert best_endgame_move(k, 50, 100_000) is None


def test_a_full_game_is_won_or_lost_by_revealing_a_mine_only() -> None:
    wins = 0
    for seed in range(6):
        board = Board(
            9, 9, random.Random(seed).sample([c for c in range(81) if c not in {0, 1, 9, 10}], 10)
        )
        wins += play_game(board, 0)
    assert wins >= 3  # beginner is won about nine times in ten


def test_a_fifty_fifty_no_reveal_can_settle_is_guessed_at_once() -> None:
    # (0, 0) and (1, 0) share one mine; both see the same two 1s and nothing
    # else hidden, so no later number can tell them apart.
    k = knowledge_from_rows(["##", "11", "00"], 1)
    assert forced_guess(k, k.analyse().prob) in (0, 1)


def test_a_pair_a_later_number_could_settle_is_not_forced() -> None:
    # The 1 at (0, 1) puts one mine on (0, 0) or (1, 0), but (2, 0) is hidden
    # next to (1, 0) and not to (0, 0): a number there can settle the pair.
    k = knowledge_from_rows(["###", "11#", "00#"], 1)
    assert forced_guess(k, k.analyse().prob) is None


def test_best_move_refuses_a_view_where_only_mines_are_hidden() -> None:
    with pytest.raises(ValueError):
        best_move(["1#", "11"], 1)
