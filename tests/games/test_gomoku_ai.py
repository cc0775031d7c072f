"""Computer opponents: legal moves, tactics (win, block, VCF), time budget."""

from __future__ import annotations

import pickle
import random
import time

import pytest

from gridhall.server.games.gomoku.ai import choose_move, clock
from gridhall.server.games.gomoku.ai.patterns import C_FIVE
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.threats import ThreatSearch
from gridhall.server.games.gomoku.renju import forbidden_points

Point = tuple[int, int]
pytestmark = pytest.mark.usefixtures("cpu_clock")
"""Budgets in CPU seconds: what a search finds does not depend on the machine's load."""

BUDGET = 0.3

# Positions (moves in order, black first) where the side to move wins by
# continuous fours but has no open four yet; found by self-play and pinned here.
VCF_POSITIONS: list[list[Point]] = [
    [
        (7, 7),
        (8, 6),
        (8, 7),
        (9, 7),
        (7, 5),
        (7, 8),
        (7, 6),
        (7, 4),
        (6, 5),
        (9, 8),
        (5, 5),
        (8, 5),
        (6, 6),
        (8, 8),
    ],
    [
        (7, 7),
        (7, 8),
        (6, 7),
        (8, 7),
        (6, 9),
        (6, 8),
        (5, 8),
        (4, 7),
        (4, 9),
        (7, 6),
        (5, 9),
        (7, 9),
        (5, 10),
        (5, 7),
    ],
    [
        (7, 7),
        (8, 7),
        (6, 8),
        (8, 6),
        (8, 8),
        (7, 8),
        (6, 6),
        (5, 5),
        (5, 7),
        (10, 10),
        (6, 9),
        (6, 7),
        (7, 9),
        (4, 6),
        (5, 9),
        (8, 9),
        (5, 6),
        (7, 5),
    ],
]


def _random_game(rng: random.Random, n: int) -> list[Point]:
    moves: list[Point] = []
    while len(moves) < n:
        p = (rng.randint(3, 11), rng.randint(3, 11))
        if p not in moves:
            moves.append(p)
    return moves


def _has_five(stones: set[Point], p: Point, exact: bool) -> bool:
    x, y = p
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while (x + s * k * dx, y + s * k * dy) in stones:
                n += 1
                k += 1
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def _completions(stones: set[Point], taken: set[Point], exact: bool, size: int = 15) -> set[Point]:
    return {
        (x, y)
        for x in range(size)
        for y in range(size)
        if (x, y) not in taken and _has_five(stones | {(x, y)}, (x, y), exact)
    }


def _check_vcf_line(moves: list[Point], line: list[Point], exact: bool) -> None:
    """Independent replay: every attacker move is a four answered at its only
    completion point, and the last one leaves two completions (or a five)."""
    me = len(moves) % 2
    own = {p for i, p in enumerate(moves) if i % 2 == me}
    opp = {p for i, p in enumerate(moves) if i % 2 != me}
    for i in range(0, len(line), 2):
        a = line[i]
        assert a not in own | opp
        own.add(a)
        if _has_five(own, a, exact):
            return
        comps = _completions(own, own | opp, exact)
        if i + 1 == len(line):
            assert len(comps) >= 2
            return
        assert comps == {line[i + 1]}
        opp.add(line[i + 1])
    pytest.fail("line ended without a win")


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_moves_are_empty_points_and_never_renju_fouls(level: str, rule: str) -> None:
    rng = random.Random(11)
    for n in (0, 1, 8, 16, 30):
        moves = _random_game(rng, n)
        x, y = choose_move(moves, 15, rule, level, budget=0.1)
        assert 0 <= x < 15 and 0 <= y < 15 and (x, y) not in moves
        if rule == "renju" and n % 2 == 0:
            assert (x, y) not in forbidden_points(moves[0::2], moves[1::2])


def test_first_move_is_the_centre() -> None:
    assert choose_move([], 15, "standard", "hard") == (7, 7)
    assert choose_move([], 19, "standard", "easy") == (9, 9)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_completes_five(level: str) -> None:
    # black: (3..6, 7) + white scattered; black to move
    moves = [(3, 7), (3, 9), (4, 7), (5, 9), (5, 7), (8, 2), (6, 7), (10, 12)]
    assert choose_move(moves, 15, "standard", level, BUDGET) in {(2, 7), (7, 7)}


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_blocks_a_four(level: str) -> None:
    # white has four in column 10, rows 3..6, blocked at the top; black must take (10, 7)
    moves = [(7, 7), (10, 3), (10, 2), (10, 4), (2, 2), (10, 5), (12, 12), (10, 6)]
    assert choose_move(moves, 15, "standard", level, BUDGET) == (10, 7)


def test_hard_blocks_an_open_three_before_it_becomes_open() -> None:
    # white has _OOO_ in row 10 with both ends open; black must take an end (or a far end)
    moves = [(7, 7), (5, 10), (0, 0), (6, 10), (14, 0), (7, 10)]
    move = choose_move(moves, 15, "standard", "hard", BUDGET)
    assert move in {(4, 10), (8, 10), (3, 10), (9, 10)}


def test_hard_plays_open_four_when_it_has_an_open_three() -> None:
    moves = [(5, 7), (0, 14), (6, 7), (14, 14), (7, 7), (0, 0)]
    assert choose_move(moves, 15, "freestyle", "hard", BUDGET) in {(4, 7), (8, 7)}


@pytest.mark.parametrize("moves", VCF_POSITIONS)
def test_vcf_positions_are_solved_and_lines_check_out(moves: list[Point]) -> None:
    pos = Position(15, "standard", moves)
    line = ThreatSearch(pos, clock.now() + 5).vcf()
    assert line is not None and len(line) >= 5
    _check_vcf_line(moves, [pos.xy(p) for p in line], exact=True)
    # a generous budget: the engine answers as soon as its VCF stage finds the line
    assert choose_move(moves, 15, "standard", "hard", 3.0) == pos.xy(line[0])


def test_vcf_finds_a_hand_made_double_four() -> None:
    # black: closed threes in row 8 and column 8 that meet at (8, 8): a double four
    moves = [
        (5, 8),
        (4, 8),
        (6, 8),
        (0, 0),
        (7, 8),
        (8, 4),
        (8, 5),
        (14, 14),
        (8, 6),
        (14, 0),
        (8, 7),
        (0, 14),
    ]
    pos = Position(15, "standard", moves)
    line = ThreatSearch(pos, clock.now() + 5).vcf()
    assert line is not None
    assert pos.xy(line[0]) == (8, 8)


def test_hard_respects_its_budget_loosely() -> None:
    rng = random.Random(3)
    moves = _random_game(rng, 20)
    for budget in (0.2, 0.5):
        start = clock.now()
        choose_move(moves, 15, "freestyle", "hard", budget)
        assert clock.now() - start < budget * 3


def test_position_bookkeeping_matches_a_fresh_build() -> None:
    rng = random.Random(9)
    moves = _random_game(rng, 30)
    pos = Position(15, "renju", moves[:10])
    for x, y in moves[10:]:
        pos.make(pos.grid.index(x, y))
    for _ in range(10):
        pos.unmake()
    fresh = Position(15, "renju", moves[:20])
    assert pos.keys == fresh.keys
    assert pos.total == fresh.total
    assert pos.threats == fresh.threats
    assert pos.hash == fresh.hash


def test_renju_black_threat_tables_use_exact_five() -> None:
    # black XXXX_X: (12, 7) would make six, so it is no five point for black under renju
    moves = [(7, 7), (0, 0), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7), (0, 6), (12, 7), (0, 8)]
    pos = Position(15, "renju", moves)
    assert pos.grid.index(11, 7) not in pos.threats[1][C_FIVE]
    assert pos.grid.index(6, 7) in pos.threats[1][C_FIVE]


def test_choose_move_pickles_for_a_process_pool() -> None:
    assert pickle.loads(pickle.dumps(choose_move)) is choose_move


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        choose_move([(7, 7), (7, 7)], 15, "standard", "easy")
    with pytest.raises(ValueError):
        choose_move([], 15, "standard", "impossible")


# --- threat-space search: puzzles the hard engine must solve -------------------------------

# Black to move wins by threes and fours, not by fours alone (from an engine match).
VCT_PUZZLE: list[Point] = [
    (7, 7),
    (8, 7),
    (8, 8),
    (7, 8),
    (7, 9),
    (6, 9),
    (9, 6),
    (5, 10),
    (4, 11),
    (6, 10),
    (6, 8),
    (4, 10),
    (7, 10),
    (5, 7),
]
# White to move; black would win by a VCT of three threes if it moved (from a match loss).
MUST_STOP_VCT: list[Point] = [
    (7, 7),
    (8, 8),
    (6, 7),
    (5, 8),
    (6, 8),
    (8, 6),
    (8, 5),
    (9, 6),
    (4, 9),
    (3, 10),
    (5, 5),
]


def _open_four_points(moves: list[Point], side: int) -> set[Point]:
    """Points where `side` (0 black, 1 white) would make two completions at once."""
    own = {p for i, p in enumerate(moves) if i % 2 == side}
    taken = set(moves)
    return {
        (x, y)
        for x in range(15)
        for y in range(15)
        if (x, y) not in taken
        and len(_completions(own | {(x, y)}, taken | {(x, y)}, exact=False)) >= 2
    }


def test_vct_puzzle_is_solved_with_a_three_when_no_vcf_exists() -> None:
    pos = Position(15, "freestyle", VCT_PUZZLE)
    assert ThreatSearch(pos, clock.now() + 10).vcf() is None
    line = ThreatSearch(pos, clock.now() + 10).vct(depth=3)
    assert line is not None
    first = pos.xy(line[0])
    after = [*VCT_PUZZLE, first]
    # checked without the engine: the first move threatens an open four
    assert _open_four_points(after, side=0)


def test_double_three_is_found_by_vct_and_by_the_threat_space_estimate() -> None:
    # black: (5,7),(6,7) on a row and (7,5),(7,6) on a column; (7,7) makes two open threes
    moves = [(5, 7), (0, 0), (6, 7), (0, 14), (7, 5), (14, 0), (7, 6), (14, 14)]
    pos = Position(15, "freestyle", moves)
    assert ThreatSearch(pos, clock.now() + 10).vcf() is None
    vct = ThreatSearch(pos, clock.now() + 10).vct(depth=2)
    tss = ThreatSearch(pos, clock.now() + 10).threat_space()
    assert vct is not None and tss is not None
    assert pos.xy(vct[0]) == (7, 7) and pos.xy(tss[0]) == (7, 7)


def test_hard_stops_an_opponent_vct_of_three_threes() -> None:
    move = choose_move(MUST_STOP_VCT, 15, "freestyle", "hard", 3.0)
    pos = Position(15, "freestyle", [*MUST_STOP_VCT, move])
    assert ThreatSearch(pos, clock.now() + 30).vct(depth=3) is None


def test_hard_stops_an_opponent_vcf() -> None:
    # VCF_POSITIONS[2] with one more black stone in a corner: now white to move
    # faces black's VCF and must break it
    moves = [*VCF_POSITIONS[2], (0, 14)]
    pos = Position(15, "standard", moves)
    pos.parity ^= 1
    assert ThreatSearch(pos, clock.now() + 10).vcf() is not None
    move = choose_move(moves, 15, "standard", "hard", 1.0)
    after = Position(15, "standard", [*moves, move])
    assert ThreatSearch(after, clock.now() + 10).vcf() is None


def test_hard_plays_the_vct_win_and_keeps_winning() -> None:
    moves = list(VCT_PUZZLE)
    me = len(moves) % 2
    for _ in range(12):
        x, y = choose_move(moves, 15, "freestyle", "hard", 1.0)
        moves.append((x, y))
        own = {p for i, p in enumerate(moves) if i % 2 == me}
        if _has_five(own, (x, y), exact=False):
            return
        # the defender answers with the hard engine too
        reply = choose_move(moves, 15, "freestyle", "hard", 0.3)
        moves.append(reply)
        theirs = {p for i, p in enumerate(moves) if i % 2 != me}
        assert not _has_five(theirs, reply, exact=False)
    pytest.fail("the VCT did not end in a five")


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_double_four_is_played_where_it_is_no_foul(rule: str) -> None:
    moves = [
        (5, 8),
        (4, 8),
        (6, 8),
        (0, 0),
        (7, 8),
        (8, 4),
        (8, 5),
        (14, 14),
        (8, 6),
        (14, 0),
        (8, 7),
        (0, 14),
    ]
    assert choose_move(moves, 15, rule, "hard", BUDGET) == (8, 8)


def test_renju_black_never_plays_the_double_four_foul() -> None:
    moves = [
        (5, 8),
        (4, 8),
        (6, 8),
        (0, 0),
        (7, 8),
        (8, 4),
        (8, 5),
        (14, 14),
        (8, 6),
        (14, 0),
        (8, 7),
        (0, 14),
    ]
    move = choose_move(moves, 15, "renju", "hard", BUDGET)
    assert (8, 8) in forbidden_points(moves[0::2], moves[1::2])
    assert move not in forbidden_points(moves[0::2], moves[1::2])


def test_renju_black_never_completes_an_overline() -> None:
    # black XXXX_X on row 7 with white on (6, 7): (11, 7) would make six, a foul
    moves = [(7, 7), (6, 7), (8, 7), (0, 2), (9, 7), (0, 4), (10, 7), (0, 6), (12, 7), (0, 9)]
    assert choose_move(moves, 15, "renju", "hard", BUDGET) != (11, 7)
    assert choose_move(moves, 15, "freestyle", "hard", BUDGET) == (11, 7)


def test_white_blocks_a_four_under_renju() -> None:
    # black four in column 10, rows 3..6, open at row 7 only; white must take (10, 7)
    moves = [(10, 3), (7, 7), (10, 4), (10, 2), (10, 5), (2, 2), (10, 6)]
    assert choose_move(moves, 15, "renju", "hard", BUDGET) == (10, 7)


def test_engine_clock_switches_to_cpu_time_and_back() -> None:
    pos = Position(15, "standard", VCF_POSITIONS[0])
    line = ThreatSearch(pos, clock.now() + 5).vcf()
    assert line is not None
    try:
        clock.use("cpu")
        assert clock.now is time.process_time
        # the engine still plays its win when deadlines are read in CPU seconds
        assert choose_move(VCF_POSITIONS[0], 15, "standard", "hard", 3.0) == pos.xy(line[0])
    finally:
        clock.use("wall")
    assert clock.now is time.perf_counter


def test_engine_clock_refuses_an_unknown_kind() -> None:
    before = clock.now
    with pytest.raises(ValueError):
        clock.use("sundial")
    assert clock.now is before
