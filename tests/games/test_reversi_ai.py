"""The Reversi computers: always a legal move, the easy one's greed, and the hard one's
exact end solve against a brute-force minimax written here."""

from __future__ import annotations

import random
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from gridhall.server.games.reversi import SPEC, Position
from gridhall.server.games.reversi.ai import choose_move
from gridhall.server.games.reversi.ai.search import WIN, Search, final


def random_position(size: int, plies: int, seed: int) -> Position:
    rng = random.Random(seed)
    pos = Position.start(size)
    for _ in range(plies):
        if pos.over():
            break
        pos = pos.play(*rng.choice(pos.legal_cells()))
    return pos


def brute(pos: Position) -> int:
    """The disc difference for the side to move with perfect play by both."""
    if pos.over():
        black, white = pos.counts()
        return (black - white) if pos.to_move == 1 else (white - black)
    best = -1000
    for x, y in pos.legal_cells():
        after = pos.play(x, y)
        value = brute(after)
        best = max(best, value if after.to_move == pos.to_move else -value)
    return best


def score(diff: int) -> int:
    return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_exact_solve_agrees_with_brute_force(seed: int) -> None:
    pos = random_position(6, 6 * 6 - 4 - 7, seed)  # 7 empties left (or over)
    if pos.over():
        return
    me, opp = pos.discs(pos.to_move), pos.discs(3 - pos.to_move)
    search = Search(pos.geometry, time.perf_counter() + 60)
    exact = search.negamax(me, opp, pos.empties(), -2 * WIN, 2 * WIN)
    assert exact == score(brute(pos))
    assert final(me, opp) == score(me.bit_count() - opp.bit_count())


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([6, 8, 10]), st.integers(0, 80), st.integers(0, 10_000))
def test_both_levels_always_answer_a_legal_move(size: int, plies: int, seed: int) -> None:
    pos = random_position(size, plies, seed)
    if pos.over():
        return
    for level in ("easy", "hard"):
        x, y = choose_move(pos, level, 0.05)
        assert pos.flips(x, y), (level, x, y)


def test_easy_takes_a_corner_when_it_can() -> None:
    for seed in range(300):
        pos = random_position(8, 30, seed)
        if pos.over():
            continue
        corners = {(0, 0), (7, 0), (0, 7), (7, 7)} & set(pos.legal_cells())
        if corners:
            assert choose_move(pos, "easy") in corners
            return
    raise AssertionError("no position with a corner move found")


def test_the_hard_computer_wins_a_won_ending_it_can_see() -> None:
    """With few empties the hard level's move keeps the best outcome brute force finds."""
    for seed in range(40):
        pos = random_position(6, 6 * 6 - 4 - 6, seed)
        if pos.over() or brute(pos) <= 0:
            continue
        x, y = choose_move(pos, "hard", 5.0)
        after = pos.play(x, y)
        value = brute(after)
        assert (value if after.to_move == pos.to_move else -value) > 0
        return
    raise AssertionError("no won ending found")


def test_the_computer_thinks_from_the_rooms_request() -> None:
    game = SPEC.new_game(SPEC.parse_options({"size": 8, "ai": "hard"}), ["p", "bot"], 0, 0, 0.0)
    game.apply("p", {"x": 5, "y": 4}, 1.0)
    computer = SPEC.computer
    request = computer.request(game, "bot")
    assert request == {"size": 8, "moves": [[5, 4]]}
    move = computer.think(request, "hard", 0.2)
    game.apply("bot", move, 2.0)  # legal, or this raises
    assert game.turn() == "p"
