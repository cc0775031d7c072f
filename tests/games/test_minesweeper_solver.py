"""The solver: hand-made positions with known answers, and exactness against brute force."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from gridhall.server.games.minesweeper import deduce
from gridhall.server.games.minesweeper.board import Board
from gridhall.server.games.minesweeper.generate import random_layout
from gridhall.server.games.minesweeper.solver import UNKNOWN, Knowledge, knowledge_from_rows
from gridhall.server.games.minesweeper.strategy import choose_guess


def test_one_two_one_against_a_wall() -> None:
    safe, mines = deduce(["###", "121", "000"], 2)
    assert safe == {(1, 0)} and mines == {(0, 0), (2, 0)}


def test_subset_rule_clears_the_extra_cells() -> None:
    safe, mines = deduce(["11#", "###"], 1)
    assert safe == {(2, 0), (2, 1)} and mines == set()


def test_single_cell_rule_finds_a_mine_and_chains() -> None:
    safe, mines = deduce(["#1", "11", "##"], 1)
    assert mines == {(0, 0)} and safe == {(0, 2), (1, 2)}


@pytest.mark.parametrize(
    ("total", "safe", "mines"),
    [
        (2, {(2, 0)}, {(0, 0), (4, 0)}),
        (1, {(0, 0), (4, 0)}, {(2, 0)}),
    ],
)
def test_global_mine_count_decides(
    total: int, safe: set[tuple[int, int]], mines: set[tuple[int, int]]
) -> None:
    assert deduce(["#1#1#"], total) == (safe, mines)


def test_nothing_provable_means_empty_sets() -> None:
    assert deduce(["#1#"], 1) == (set(), set())
    assert deduce(["##", "##"], 2) == (set(), set())


def test_flags_are_not_taken_on_trust() -> None:
    # Trusting the flag would wrongly clear (1, 1) too.
    assert deduce(["F1#", "1##", "###"], 1) == ({(2, 0), (2, 1), (0, 2), (1, 2), (2, 2)}, set())
    safe, mines = deduce(["F1#", "110", "000"], 1)
    assert mines == {(0, 0)} and safe == {(2, 0)}


def test_exact_probabilities_weigh_the_interior() -> None:
    analysis = knowledge_from_rows(["1##", "###"], 2).analyse()
    prob = {(c % 3, c // 3): p for c, p in analysis.prob.items()}
    for cell in ((1, 0), (0, 1), (1, 1)):
        assert prob[cell] == pytest.approx(1 / 3)
    assert prob[(2, 0)] == pytest.approx(0.5) and prob[(2, 1)] == pytest.approx(0.5)


def test_exploded_mines_count_as_known() -> None:
    safe, mines = deduce(["X1#", "11#", "###"], 1)
    assert safe == {(2, 0), (2, 1), (0, 2), (1, 2), (2, 2)} and mines == set()


def _random_position(
    rng: random.Random, width: int, height: int, n_mines: int
) -> tuple[Board, list[str]]:
    board = Board(width, height, rng.sample(range(width * height), n_mines))
    revealed, flags = bytearray(width * height), bytearray(width * height)
    safe_cells = [c for c in range(width * height) if not board.is_mine(c)]
    for c in rng.sample(safe_cells, min(len(safe_cells), rng.randint(1, 4))):
        board.flood(c, revealed, flags)
    rows = [
        "".join(
            str(board.counts[y * width + x]) if revealed[y * width + x] else "#"
            for x in range(width)
        )
        for y in range(height)
    ]
    return board, rows


def _brute_force(rows: list[str], total: int) -> dict[tuple[int, int], float]:
    width = len(rows[0])
    hidden = [(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"]
    numbers = [
        (x, y, int(ch)) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch.isdigit()
    ]
    hits = dict.fromkeys(hidden, 0)
    count = 0
    for combo in combinations(hidden, total):
        mines = set(combo)
        if all(
            sum((x + dx, y + dy) in mines for dx in (-1, 0, 1) for dy in (-1, 0, 1)) == n
            for x, y, n in numbers
        ):
            count += 1
            for m in combo:
                hits[m] += 1
    assert count and width
    return {c: h / count for c, h in hits.items()}


def test_probabilities_and_deductions_match_brute_force() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(150):
        width, height = rng.randint(3, 6), rng.randint(2, 4)
        n_mines = rng.randint(1, min(5, width * height - 1))
        _, rows = _random_position(rng, width, height, n_mines)
        expect = _brute_force(rows, n_mines)
        analysis = knowledge_from_rows(rows, n_mines).analyse()
        got = {(c % width, c // width): p for c, p in analysis.prob.items()}
        assert got.keys() == expect.keys()
        for cell, p in expect.items():
            assert got[cell] == pytest.approx(p, abs=1e-9)
        safe, mines = deduce(rows, n_mines)
        assert safe == {c for c, p in expect.items() if p == 0}
        assert mines == {c for c, p in expect.items() if p == 1}
        checked += bool(safe or mines)
    assert checked > 30


def test_probabilities_sum_to_the_mines_left_on_expert_positions() -> None:
    rng = random.Random(9)
    for seed in range(12):
        board = random_layout(30, 16, 99, 250, "opening", random.Random(seed))
        k = Knowledge(30, 16, 99)
        k.reveal(250, board.counts[250])
        for _ in range(rng.randint(0, 6)):
            safe, _ = k.settle()
            for c in safe:
                k.reveal(c, board.counts[c])
        analysis = k.analyse()
        unknown = [c for c in range(480) if k.state[c] == UNKNOWN]
        assert set(analysis.prob) == set(unknown)
        assert sum(analysis.prob.values()) == pytest.approx(99 - k.known_mines)
        for c in analysis.safe:
            assert not board.is_mine(c)
        for c in analysis.mines:
            assert board.is_mine(c)


def test_best_guess_takes_the_lowest_risk() -> None:
    k = knowledge_from_rows(["1##", "###"], 2)
    cell, risk = choose_guess(k, k.analyse())
    assert risk == pytest.approx(1 / 3) and cell in (1, 3, 4)


def test_inconsistent_rows_are_refused() -> None:
    with pytest.raises(ValueError):
        deduce(["4#", "##"], 3)
    with pytest.raises(ValueError):
        deduce(["1#", "#"], 1)


def _scattered_view(
    seed: int, width: int, height: int, mines: int, reveals: int
) -> tuple[Board, list[str]]:
    rng = random.Random(seed)
    board = Board(width, height, rng.sample(range(width * height), mines))
    revealed, flags = bytearray(width * height), bytearray(width * height)
    safe = [c for c in range(width * height) if not board.is_mine(c)]
    for c in rng.sample(safe, reveals):
        board.flood(c, revealed, flags)
    rows = [
        "".join(
            str(board.counts[y * width + x]) if revealed[y * width + x] else "#"
            for x in range(width)
        )
        for y in range(height)
    ]
    return board, rows


def _rules_only(rows: list[str], mines: int) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    k = knowledge_from_rows(rows, mines)
    k.rules()
    w = k.width
    return ({(c % w, c // w) for c in k.found_safe}, {(c % w, c // w) for c in k.found_mines})


def test_deduce_on_a_huge_board_is_true_and_at_least_the_rules() -> None:
    for seed in (2, 3):
        board, rows = _scattered_view(seed, 100, 100, 2000, 200)
        safe, mines = deduce(rows, 2000)
        assert all(not board.is_mine(y * 100 + x) for x, y in safe)
        assert all(board.is_mine(y * 100 + x) for x, y in mines)
        rule_safe, rule_mines = _rules_only(rows, 2000)
        assert rule_safe <= safe and rule_mines <= mines


def test_a_smaller_budget_proves_less_but_never_wrongly() -> None:
    board, rows = _scattered_view(4, 40, 30, 260, 60)
    full = deduce(rows, 260)
    starved = deduce(rows, 260, budget=0)
    rules = _rules_only(rows, 260)
    assert rules[0] <= starved[0] <= full[0] and rules[1] <= starved[1] <= full[1]
    assert all(not board.is_mine(y * 40 + x) for x, y in starved[0])
