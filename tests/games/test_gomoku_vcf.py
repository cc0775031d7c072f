"""`find_vcf`, the VCF entry point the analysis uses: points in, a checked line out."""

from __future__ import annotations

import pytest

from gridhall.server.games.gomoku.ai import clock
from gridhall.server.games.gomoku.ai.vcf import find_vcf
from tests.games.test_gomoku_ai import VCF_POSITIONS, _check_vcf_line

pytestmark = pytest.mark.usefixtures("cpu_clock")  # deadlines in CPU seconds, as work done

Point = tuple[int, int]


def test_find_vcf_answers_a_line_of_fours_that_wins() -> None:
    for moves in VCF_POSITIONS:
        line = find_vcf(moves, 15, "standard", clock.now() + 5)
        assert line is not None and len(line) % 2 == 1
        assert not set(line) & set(moves)
        _check_vcf_line(moves, line, exact=True)


def test_find_vcf_is_none_without_a_forced_win() -> None:
    assert find_vcf([(7, 7), (8, 8), (7, 8)], 15, "freestyle", clock.now() + 5) is None


def test_find_vcf_finishes_an_existing_four_at_once() -> None:
    moves = [(3, 7), (3, 9), (4, 7), (5, 9), (5, 7), (8, 2), (6, 7), (10, 12)]
    assert find_vcf(moves, 15, "standard", clock.now() + 5) in ([(2, 7)], [(7, 7)])


def test_find_vcf_gives_up_at_its_deadline() -> None:
    assert find_vcf(VCF_POSITIONS[0], 15, "standard", clock.now() - 1) is None
