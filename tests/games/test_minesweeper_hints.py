"""Hints within a work budget: proven safe, an honest guess, or an honest 'unsure'."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from gridhall.server.games.minesweeper import Hint, deduce, generate_no_guess, hint
from gridhall.server.games.minesweeper.board import Board


def test_a_proven_safe_cell_is_a_safe_hint() -> None:
    assert hint(["###", "11#", "000"], 1) in (Hint("safe", 2, 0, 0.0), Hint("safe", 2, 1, 0.0))


def test_without_a_safe_cell_the_hint_is_a_guess_with_its_exact_risk() -> None:
    got = hint(["1##", "###"], 2)
    assert got is not None and got.kind == "guess" and not got.safe
    assert got.risk == pytest.approx(1 / 3, abs=1e-4)
    assert (got.x, got.y) in {(1, 0), (0, 1), (1, 1)}


def test_a_true_fifty_fifty_is_a_coin_flip_never_the_best_guess() -> None:
    # (0, 0) and (1, 0) share the mine, and every number sees both: no reveal can ever
    # tell them apart, so the hint says so and names the pair.
    assert hint(["##", "11", "00"], 1) == Hint("coin-flip", 0, 0, 0.5, (1, 0))
    # Every hidden cell is a mine one time in two: none is safer than a coin flip.
    got = hint(["#2#", "#2#"], 2)
    assert got is not None and (got.kind, got.risk, got.other) == ("coin-flip", 0.5, None)


def test_a_cell_at_one_in_two_is_no_coin_flip_while_another_is_safer() -> None:
    got = hint(["#2#", "###"], 2)
    assert got is not None and got.kind == "guess" and got.risk < 0.5


def test_out_of_budget_the_hint_says_it_is_unsure() -> None:
    # Nothing here follows from the cheap rules; proving anything needs the
    # enumeration, which a zero budget never starts.
    got = hint(["1##", "###"], 2, budget=0)
    assert got is not None and got.kind == "unsure" and not got.safe
    assert 0 < got.risk < 1


def test_a_zero_budget_still_reports_what_the_rules_prove() -> None:
    assert hint(["###", "11#", "000"], 1, budget=0) in (
        Hint("safe", 2, 0, 0.0),
        Hint("safe", 2, 1, 0.0),
    )


def test_flagged_cells_are_avoided_when_another_safe_cell_exists() -> None:
    got = hint(["###", "11#", "000"], 1, avoid=[(2, 0)])
    assert got == Hint("safe", 2, 1, 0.0)


def test_no_hidden_cell_means_no_hint() -> None:
    assert hint(["01", "01"], 0) is None


def test_bad_budget_is_refused() -> None:
    with pytest.raises(ValueError):
        hint(["1##", "###"], 2, budget=-1)


def _big_position(seed: int) -> tuple[Board, list[str]]:
    rng = random.Random(seed)
    board = Board(100, 100, rng.sample(range(10_000), 2000))
    revealed, flags = bytearray(10_000), bytearray(10_000)
    safe = [c for c in range(10_000) if not board.is_mine(c)]
    for c in rng.sample(safe, 300):
        board.flood(c, revealed, flags)
    rows = [
        "".join(
            str(board.counts[y * 100 + x]) if revealed[y * 100 + x] else "#" for x in range(100)
        )
        for y in range(100)
    ]
    return board, rows


def test_a_hint_on_a_huge_board_is_honest_and_deterministic() -> None:
    board, rows = _big_position(3)
    first = hint(rows, 2000, budget=2_000)
    assert first is not None and first == hint(rows, 2000, budget=2_000)
    if first.kind == "safe":
        assert not board.is_mine(first.y * 100 + first.x)
    safe, mines = deduce(rows, 2000)
    assert all(not board.is_mine(y * 100 + x) for x, y in safe)
    assert all(board.is_mine(y * 100 + x) for x, y in mines)


def test_the_pure_calls_run_in_a_process_pool() -> None:
    assert pickle.loads(pickle.dumps(Hint("guess", 1, 2, 0.25))) == Hint("guess", 1, 2, 0.25)
    with ProcessPoolExecutor(max_workers=1) as pool:
        got = pool.submit(hint, ["1##", "###"], 2).result(timeout=120)
        layout = pool.submit(generate_no_guess, 9, 9, 10, (4, 4), 3).result(timeout=120)
    assert got == hint(["1##", "###"], 2)
    assert layout == generate_no_guess(9, 9, 10, (4, 4), 3)


def test_when_only_mines_are_hidden_there_is_no_hint() -> None:
    assert hint(["1#", "11"], 1) is None
