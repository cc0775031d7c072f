"""No-guess generation: every board is cleared by ``deduce`` alone from the first click."""

from __future__ import annotations

import random

import pytest

from gridhall.server.games.minesweeper import (
    SPEC,
    GenerationFailed,
    deduce,
    generate_no_guess,
)
from gridhall.server.games.minesweeper.board import Board, neighbour_table


def cleared_by_deduce(
    width: int, height: int, mines: list[tuple[int, int]], first: tuple[int, int]
) -> bool:
    """Reveal ``first``, then only what ``deduce`` proves safe (zeros flood as in
    the game), until it proves nothing more; True when every safe cell is open."""
    board = Board(width, height, [y * width + x for x, y in mines])
    revealed, flags = bytearray(width * height), bytearray(width * height)
    board.flood(first[1] * width + first[0], revealed, flags)
    for _ in range(width * height):
        rows = [
            "".join(
                str(board.counts[y * width + x]) if revealed[y * width + x] else "#"
                for x in range(width)
            )
            for y in range(height)
        ]
        safe, _ = deduce(rows, len(mines))
        if not safe:
            break
        for x, y in safe:
            assert not board.is_mine(y * width + x)
            board.flood(y * width + x, revealed, flags)
    return sum(revealed) == width * height - len(mines)


SIZES = [(9, 9, 10)] * 100 + [(16, 16, 40)] * 60 + [(30, 16, 99)] * 40


def test_two_hundred_boards_are_cleared_by_deduce_from_the_first_click() -> None:
    rng = random.Random(16)
    for seed, (width, height, mines) in enumerate(SIZES):
        first = (rng.randrange(width), rng.randrange(height))
        layout = generate_no_guess(width, height, mines, first, seed)
        assert len(layout) == len(set(layout)) == mines
        fx, fy = first
        assert all(max(abs(x - fx), abs(y - fy)) > 1 for x, y in layout)
        assert cleared_by_deduce(width, height, layout, first), (seed, width, height)


def test_the_same_seed_gives_the_same_board_and_others_differ() -> None:
    one = generate_no_guess(30, 16, 99, (15, 8), 42)
    assert generate_no_guess(30, 16, 99, (15, 8), 42) == one
    assert generate_no_guess(30, 16, 99, (15, 8), 43) != one
    assert generate_no_guess(30, 16, 99, (15, 8), "room-7") == generate_no_guess(
        30, 16, 99, (15, 8), "room-7"
    )


def test_a_safe_first_click_board_is_cleared_by_deduce() -> None:
    for seed in range(10):
        layout = generate_no_guess(16, 16, 40, (0, 0), seed, first_click="safe")
        assert (0, 0) not in layout
        assert cleared_by_deduce(16, 16, layout, (0, 0))


def test_max_adjacent_holds_on_no_guess_boards() -> None:
    nb = neighbour_table(30, 16)
    for seed in range(8):
        layout = generate_no_guess(30, 16, 99, (3, 3), seed, max_adjacent=4)
        board = Board(30, 16, [y * 30 + x for x, y in layout])
        assert max(sum(board.is_mine(n) for n in nb[c]) for c in range(480)) <= 4
        assert cleared_by_deduce(30, 16, layout, (3, 3))


def test_a_big_board_is_cleared_by_deduce() -> None:
    layout = generate_no_guess(60, 40, 400, (30, 20), 5)
    assert cleared_by_deduce(60, 40, layout, (30, 20))


@pytest.mark.parametrize(
    ("args", "error"),
    [
        ((9, 9, 10, (9, 0), 1), ValueError),
        ((9, 9, 0, (0, 0), 1), ValueError),
        ((9, 9, True, (0, 0), 1), ValueError),
        ((9, 9, 75, (4, 4), 1), GenerationFailed),
    ],
)
def test_impossible_requests_are_refused(args: tuple, error: type[Exception]) -> None:
    with pytest.raises(error):
        generate_no_guess(*args)


def test_bad_first_click_rule_is_refused() -> None:
    with pytest.raises(ValueError):
        generate_no_guess(9, 9, 10, (4, 4), 1, first_click="lucky")


def test_the_no_guess_option_places_the_generated_board() -> None:
    options = SPEC.parse_options({"preset": "expert", "no_guess": True})
    game = SPEC.new_game(options, ["a"], 0, 77, 0.0)
    game.apply("a", {"action": "reveal", "x": 12, "y": 5}, 1.0)
    assert game.board is not None
    expected = generate_no_guess(30, 16, 99, (12, 5), 77)
    assert sorted(game.board.layout()) == sorted([x, y] for x, y in expected)
    assert game.generation_note is None
