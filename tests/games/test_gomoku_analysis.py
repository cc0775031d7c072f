"""The analysis of a Gomoku game: per-ply engine answers and the marks they give."""

from __future__ import annotations

import time

import pytest

from gridhall.server.games.gomoku import analysis
from gridhall.server.games.gomoku.ai import clock
from gridhall.server.games.gomoku.analysis import WIN_EVAL, analyse_ply, notes, positions

DOUBLE_FOUR = [
    (6, 7),
    (5, 7),
    (7, 7),
    (9, 3),
    (8, 7),
    (0, 14),
    (9, 4),
    (14, 14),
    (9, 5),
    (14, 0),
    (9, 6),
    (0, 0),
]
"""Black to move: (9, 7) makes two fours at once (row 7 and column 9)."""


def test_a_vcf_is_found_with_its_first_stone_as_the_best_move() -> None:
    value, best, line, _defence = analyse_ply(DOUBLE_FOUR, 15, "freestyle", 0.2)
    assert value == WIN_EVAL and best == (9, 7) and line == [(9, 7)]


def test_a_position_is_analysed_on_cpu_time_and_the_workers_clock_is_left_as_it_was(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 40: on a busy machine a wall-clock budget shrinks to a few milliseconds of
    thinking; an analysis is stored for good, so it thinks in CPU seconds."""
    clocks: list[object] = []
    real = analysis._vcf_finder()

    def finder(moves: list[tuple[int, int]], size: int, rule: str, deadline: float) -> object:
        clocks.append(clock.now)
        return real(moves, size, rule, deadline)

    monkeypatch.setattr(analysis, "_vcf_finder", lambda: finder)
    assert analyse_ply(DOUBLE_FOUR, 15, "freestyle", 0.2)[1] == (9, 7)
    assert clocks == [time.process_time]
    assert clock.now is time.perf_counter  # computer moves in this worker: wall time


def test_a_full_board_has_no_best_move() -> None:
    full = [(x, y) for y in range(5) for x in range(5)]
    assert analyse_ply(full, 5, "freestyle", 0.05) == (0, None, None, None)


def test_a_move_off_the_vcf_that_loses_the_win_is_marked_missed_vcf() -> None:
    moves = [(0, 0), (1, 1), (2, 2), (3, 3)]
    results = [
        (0, None, None, None),
        (0, None, None, None),
        (WIN_EVAL, (9, 7), [(9, 7), (9, 8), (5, 5)], None),
        (-20, (4, 4), None, None),
        (10, None, None, None),
    ]
    marked = notes(moves, results)
    assert marked[2] == {"n": 3, "eval": WIN_EVAL, "best": [9, 7], "mark": "missed-vcf"}
    assert all("mark" not in n for i, n in enumerate(marked) if i != 2)


def test_a_won_position_given_away_without_a_vcf_is_marked_lost_win() -> None:
    moves = [(0, 0), (1, 1), (2, 2)]
    results = [
        (WIN_EVAL, (4, 4), None, None),
        (50, (3, 3), None, None),
        (200, (5, 5), None, None),
        (0, None, None, None),
    ]
    assert notes(moves, results)[0]["mark"] == "lost-win"


def test_a_stone_of_the_vcf_played_in_the_wrong_order_is_a_lost_win() -> None:
    moves = [(9, 8), (1, 1), (2, 2)]
    results = [
        (WIN_EVAL, (9, 7), [(9, 7), (1, 2), (9, 8)], None),
        (0, None, None, None),
        (0, None, None, None),
        (0, None, None, None),
    ]
    assert notes(moves, results)[0]["mark"] == "lost-win"


def test_keeping_the_win_or_winning_is_not_marked() -> None:
    # the mover wins again at its next turn, then makes five with its last stone
    moves = [(0, 0), (1, 1), (2, 2)]
    results = [
        (WIN_EVAL, (0, 0), None, None),
        (-300, (1, 1), None, None),
        (WIN_EVAL, (2, 2), None, None),
    ]
    assert all("mark" not in n for n in notes(moves, results))
    assert positions(moves, five_at_end=True) == 3 and positions(moves, False) == 4


def test_a_win_kept_until_the_game_ended_otherwise_is_not_marked() -> None:
    # the opponent resigned after the mover's last ply: its position there is lost
    moves = [(0, 0), (1, 1)]
    results = [(0, None, None, None), (WIN_EVAL, (1, 1), None, None), (-WIN_EVAL, None, None, None)]
    assert all("mark" not in n for n in notes(moves, results))


def test_a_missed_vcf_is_marked_even_when_the_engine_sees_a_slower_win_later() -> None:
    # a VCF at ply 1, none at the mover's next turn, where the engine (given time) finds
    # a win by threes: the VCF was still missed, whatever the engine's budget found later
    moves = [(0, 0), (1, 1), (2, 2)]
    results = [
        (WIN_EVAL, (9, 7), [(9, 7)], None),
        (-200, (4, 4), None, None),
        (WIN_EVAL, (8, 5), None, None),
        (0, None, None, None),
    ]
    assert notes(moves, results)[0]["mark"] == "missed-vcf"


OPEN_THREE = [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7), (0, 14)]
"""White's third stone (0, 14) leaves Black's open three H8-K8 (row 7) unblocked."""


def test_a_move_that_leaves_an_open_three_unblocked_is_a_blunder_with_its_defence() -> None:
    results = [analyse_ply(OPEN_THREE[:k], 15, "freestyle", 0.2) for k in range(7)]
    value, _best, _line, defence = results[6]
    assert value == WIN_EVAL  # Black to move makes an open four
    assert defence in ((6, 7), (10, 7))  # an end of the three stops it
    marked = notes(OPEN_THREE, results)
    assert marked[5]["mark"] == "blunder" and tuple(marked[5]["best"]) == defence
    assert [n["n"] for n in marked if n.get("mark")] == [6]  # Black's stones are no blunders


def test_a_position_already_lost_has_no_defence_so_the_last_move_is_no_blunder() -> None:
    # Black's open four is down before White's stone: no move stops it any more
    four = [(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0), (10, 7), (14, 14)]
    assert analyse_ply(four, 15, "freestyle", 0.2)[3] is None


def test_a_blunder_mark_needs_the_opponents_win_after_it_and_a_defence() -> None:
    moves = [(0, 0), (1, 1), (2, 2)]
    results = [
        (10, (5, 5), None, None),
        (-40, (6, 6), None, None),
        (WIN_EVAL, (7, 7), [(7, 7)], (6, 6)),  # after ply 2 the mover of ply 3 wins
        (-WIN_EVAL, None, None, None),
    ]
    marked = notes(moves, results)
    assert marked[1]["mark"] == "blunder" and marked[1]["best"] == [6, 6]
    assert all("mark" not in n for i, n in enumerate(marked) if i != 1)
    lost = [(10, (5, 5), None, None), (-WIN_EVAL, (6, 6), None, None), *results[2:]]
    assert "mark" not in notes(moves, lost)[1]  # the mover was lost already
    none = [*results[:2], (WIN_EVAL, (7, 7), [(7, 7)], None), results[3]]
    assert "mark" not in notes(moves, none)[1]  # no defence was found: nothing to mark
