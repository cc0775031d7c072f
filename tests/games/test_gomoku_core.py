"""The hard engine's compiled core (ai/_core.c) and its pure-Python fallback.

Both paths must answer the same tactics (a five, a block, a winning VCF played
to the end), never play an occupied point, and keep renju in Python so black's
fouls are never played. The fallback runs when forced (GRIDHALL_PURE_PYTHON),
for renju, and on an install without the compiled module.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from gridhall.server.games.gomoku.ai import choose_move, clock, core, hard
from gridhall.server.games.gomoku.ai.patterns import C_FIVE
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.ai.threats import ThreatSearch
from gridhall.server.games.gomoku.renju import forbidden_points

Point = tuple[int, int]
BUDGET = 0.3

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
]
"""Side to move wins by fours (no open four yet); from test_gomoku_ai.py."""


@pytest.fixture(params=["c", "python"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Each test runs on the compiled core and on the forced Python fallback."""
    if request.param == "python":
        monkeypatch.setenv(core.ENV, "1")
    else:
        monkeypatch.delenv(core.ENV, raising=False)
    yield request.param


def _random_game(rng: random.Random, n: int, size: int) -> list[Point]:
    cells = [(x, y) for x in range(size) for y in range(size)]
    rng.shuffle(cells)
    return cells[:n]


def test_the_core_is_built_where_a_compiler_was() -> None:
    # CI's machine has gcc and Python's headers: `pip install -e .` builds it there
    assert core.built()
    assert core.usable("freestyle", 15) and core.usable("standard", 19)


def test_the_env_var_and_renju_keep_the_search_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.ENV, raising=False)
    assert not core.usable("renju", 15)
    monkeypatch.setenv(core.ENV, "1")
    assert not core.usable("freestyle", 15)


@pytest.mark.parametrize("size", [15, 19, 20])
def test_completes_five_at_the_board_edge(engine: str, size: int) -> None:
    e = size - 1
    # black: four in the last column, rows e-4..e-1, open only at the corner (e, e)
    moves = [(e, e - 4), (0, 0), (e, e - 3), (0, 2), (e, e - 2), (2, 0), (e, e - 1), (e, e - 5)]
    assert choose_move(moves, size, "standard", "hard", BUDGET) == (e, e)


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
def test_blocks_a_four(engine: str, rule: str) -> None:
    moves = [(7, 7), (10, 3), (10, 2), (10, 4), (2, 2), (10, 5), (12, 12), (10, 6)]
    st = hard.Stats()
    assert hard.choose(moves, 15, rule, BUDGET, st) == (10, 7)
    assert st.reason == "block-four"


def test_blocks_an_open_three(engine: str) -> None:
    moves = [(7, 7), (5, 10), (0, 0), (6, 10), (14, 0), (7, 10)]
    assert choose_move(moves, 15, "standard", "hard", BUDGET) in {
        (4, 10),
        (8, 10),
        (3, 10),
        (9, 10),
    }


@pytest.mark.usefixtures("cpu_clock")
@pytest.mark.parametrize("moves", VCF_POSITIONS)
def test_a_vcf_is_found_and_played_to_five(engine: str, moves: list[Point]) -> None:
    """The attacker's moves, each answered by the only block, end in a five."""
    moves = list(moves)
    first = hard.Stats()
    for turn in range(20):
        st = hard.Stats()
        # a found VCF answers at once: the long budget only covers a loaded machine
        move = hard.choose(moves, 15, "freestyle", 5.0, st)
        if turn == 0:
            first = st
        assert move not in moves
        moves.append(move)
        pos = Position(15, "freestyle", moves)
        attacker = 3 - pos.to_move
        if pos.cells[pos.grid.index(*move)] and _five_made(moves, move):
            assert first.reason in ("vcf", "open-four", "five")
            return
        fives = pos.threats[attacker][C_FIVE]
        assert fives, f"move {turn} {move} is not a four ({st.reason})"
        moves.append(pos.xy(min(fives)))  # the defender's only block (or one of two)
    pytest.fail("no five after 20 attacking moves")


def _five_made(moves: list[Point], last: Point) -> bool:
    mine = set(moves[len(moves) % 2 == 0 :: 2])
    x, y = last
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            k = 1
            while (x + sign * k * dx, y + sign * k * dy) in mine:
                run += 1
                k += 1
        if run >= 5:
            return True
    return False


@pytest.mark.parametrize("rule", ["freestyle", "standard"])
@pytest.mark.parametrize("size", [15, 19])
def test_moves_are_empty_points_on_the_board(engine: str, rule: str, size: int) -> None:
    rng = random.Random(size * 7 + len(rule))
    for n in (1, 2, 9, 24, 60):
        moves = _random_game(rng, n, size)
        x, y = choose_move(moves, size, rule, "hard", budget=0.05)
        assert 0 <= x < size and 0 <= y < size and (x, y) not in moves


def test_renju_black_never_plays_a_foul(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(core.ENV, raising=False)

    def refuse(*args: object) -> int:
        raise AssertionError("renju must stay in the Python engine")

    monkeypatch.setattr(core, "search", refuse)
    # black to move may not take (7, 7): it would make a double three
    moves = [(5, 7), (0, 0), (6, 7), (14, 14), (7, 5), (0, 14), (7, 6), (14, 0)]
    assert (7, 7) in forbidden_points(moves[0::2], moves[1::2])
    assert choose_move(moves, 15, "renju", "hard", BUDGET) != (7, 7)
    rng = random.Random(5)
    for n in (8, 16, 30):
        moves = _random_game(rng, n, 15)
        move = choose_move(moves, 15, "renju", "hard", budget=0.05)
        assert move not in forbidden_points(moves[0::2], moves[1::2])


def test_without_the_compiled_module_the_python_engine_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(core.ENV, raising=False)
    monkeypatch.setattr(core, "_core", None)  # as on an install without a compiler
    assert not core.built() and not core.usable("freestyle", 15)
    moves = [(7, 7), (10, 3), (10, 2), (10, 4), (2, 2), (10, 5), (12, 12), (10, 6)]
    assert choose_move(moves, 15, "freestyle", "hard", BUDGET) == (10, 7)


def test_the_core_refuses_bad_input() -> None:
    search = core._core.search  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        search(25, 0, [], 1, 0.1, False)
    with pytest.raises(ValueError):
        search(15, 0, [(3, 3, 1), (3, 3, 2)], 1, 0.1, False)  # one point twice
    with pytest.raises(ValueError):
        search(15, 0, [(15, 0, 1)], 2, 0.1, False)  # off the board
    with pytest.raises(TypeError):
        search(15, 0, [(1, 2)], 2, 0.1, False)


def test_two_threads_search_at_once() -> None:
    """The core releases the GIL and keeps its state per call."""
    rng = random.Random(3)
    games = [_random_game(rng, 12, 15) for _ in range(4)]
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda m: choose_move(m, 15, "freestyle", "hard", 0.1), games))
    for moves, move in zip(games, answers):
        assert move not in moves


def test_any_stones_on_any_size_get_an_empty_point() -> None:
    """Even boards no game reaches (fives on the board, nearly full): no crash."""
    search = core._core.search  # type: ignore[union-attr]
    rng = random.Random(1)
    for k in range(120):
        size = rng.randint(5, 20)
        cells = [(x, y) for x in range(size) for y in range(size)]
        rng.shuffle(cells)
        n = rng.randint(0, size * size - 1)
        stones = [(x, y, 1 + i % 2) for i, (x, y) in enumerate(cells[:n])]
        x, y, *_ = search(size, k % 2, stones, 1 + n % 2, 0.005, bool(k % 3))
        assert 0 <= x < size and 0 <= y < size and (x, y) not in cells[:n]


COUNTER_FOUR_GAME: list[Point] = [
    (7, 7),
    (5, 6),
    (6, 8),
    (4, 7),
    (6, 7),
    (6, 5),
    (7, 4),
    (5, 7),
    (8, 6),
    (5, 9),
    (5, 8),
    (3, 9),
    (4, 8),
    (3, 8),
    (2, 9),
    (8, 5),
    (9, 5),
    (10, 4),
    (7, 8),
    (8, 8),
    (7, 6),
    (7, 5),
    (3, 10),
    (4, 9),
    (6, 10),
    (6, 9),
    (7, 9),
    (7, 10),
]
"""A game Rapfi won against the hard engine (bench, wall clock): black's 25th move,
(6, 10), was played as a VCT; white's four at (6, 9) made black block at (7, 9),
which made a four of black's own, and white's block at (7, 10) left black's attack
with nothing."""


@pytest.mark.usefixtures("cpu_clock")
def test_a_vct_is_refuted_by_a_counter_four_whose_block_breaks_the_attack(engine: str) -> None:
    # the premise: after the refutation black has no forced win left
    after = Position(15, "freestyle", COUNTER_FOUR_GAME)
    assert ThreatSearch(after, clock.now() + 30.0, shared=False).vct(depth=4) is None
    # the VCT search used to count black's four-making block as keeping the initiative
    st = hard.Stats()
    move = hard.choose(COUNTER_FOUR_GAME[:24], 15, "freestyle", 1.0, st)
    assert not (st.reason == "vct" and move == (6, 10))
