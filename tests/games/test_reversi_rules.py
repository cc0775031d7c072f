"""Reversi's rules against a plain reference model written here: a random legal game
never makes the server's board and the model's differ, and a refused move changes
nothing."""

from __future__ import annotations

import copy
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gridhall.server.games.base import GameError
from gridhall.server.games.reversi import SPEC, Position, ReversiGame
from gridhall.server.games.reversi.notation import NotationError, read_moves, write_moves

DIRECTIONS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]


class Model:
    """Reversi the slow, obvious way: a grid of ``.``, ``b``, ``w``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.grid = [["."] * size for _ in range(size)]
        h = size // 2
        self.grid[h - 1][h - 1] = self.grid[h][h] = "w"
        self.grid[h - 1][h] = self.grid[h][h - 1] = "b"
        self.mover = "b"

    def flips(self, x: int, y: int, me: str) -> list[tuple[int, int]]:
        if self.grid[y][x] != ".":
            return []
        them = "w" if me == "b" else "b"
        out: list[tuple[int, int]] = []
        for dx, dy in DIRECTIONS:
            run, cx, cy = [], x + dx, y + dy
            while 0 <= cx < self.size and 0 <= cy < self.size and self.grid[cy][cx] == them:
                run.append((cx, cy))
                cx, cy = cx + dx, cy + dy
            if run and 0 <= cx < self.size and 0 <= cy < self.size and self.grid[cy][cx] == me:
                out += run
        return out

    def legal(self, me: str) -> list[tuple[int, int]]:
        n = self.size
        return [(x, y) for y in range(n) for x in range(n) if self.flips(x, y, me)]

    def play(self, x: int, y: int) -> bool:
        """Plays the mover's disc; True when the other side then has to pass."""
        me = self.mover
        for cx, cy in self.flips(x, y, me):
            self.grid[cy][cx] = me
        self.grid[y][x] = me
        other = "w" if me == "b" else "b"
        if self.legal(other):
            self.mover = other
            return False
        return bool(self.legal(me))

    def board(self) -> str:
        return "".join("".join(row) for row in self.grid)

    def count(self, colour: str) -> int:
        return self.board().count(colour)


def new_game(size: int, round_no: int = 0) -> ReversiGame:
    return SPEC.new_game(SPEC.parse_options({"size": size}), ["p", "q"], round_no, 0, 0.0)


def frozen(game: ReversiGame) -> tuple[object, ...]:
    return (
        copy.deepcopy(game.record()),
        game.view(None),
        game.view("p"),
        game.turn(),
        game.state(),
    )


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([6, 8, 10]), st.integers(0, 1), st.data())
def test_a_random_legal_game_never_desyncs_from_the_model(
    size: int, round_no: int, data: st.DataObject
) -> None:
    game, model = new_game(size, round_no), Model(size)
    colour_of = {v: k for k, v in game.colors.items()}
    for _ in range(size * size):
        view = game.view(None)
        assert view["board"] == model.board()
        assert view["counts"] == {"black": model.count("b"), "white": model.count("w")}
        legal = model.legal(model.mover)
        if game.result is not None:
            assert not legal and not model.legal("w" if model.mover == "b" else "b")
            break
        assert sorted(tuple(c) for c in view["legal"]) == sorted(legal)
        assert view["next"] == {"b": "black", "w": "white"}[model.mover]
        mover = colour_of["black" if model.mover == "b" else "white"]
        assert game.turn() == mover
        x, y = data.draw(st.sampled_from(legal))
        expected_flips = sorted(model.flips(x, y, model.mover))
        passes = model.play(x, y)
        played = game.apply(mover, {"x": x, "y": y}, 1.0)
        assert sorted(tuple(c) for c in played.move["flipped"]) == expected_flips
        assert ("pass" in played.move) == passes
        assert [n["type"] for n in played.notices] == (["pass"] if passes else [])
    assert game.result is not None
    black, white = model.count("b"), model.count("w")
    assert game.result["reason"] == "discs"
    assert game.result["discs"] == {"black": black, "white": white}
    winner = None if black == white else colour_of["black" if black > white else "white"]
    assert game.result["winner"] == winner


cell = st.integers(-1, 10)
junk = st.sampled_from([{}, {"x": "1", "y": 2}, {"x": True, "y": 0}, {"x": 1.0, "y": 2}])
any_move = st.one_of(st.fixed_dictionaries({"x": cell, "y": cell}), junk)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["p", "q", "z"]), any_move), max_size=40))
def test_refused_moves_change_nothing(steps: list[tuple[str, dict[str, object]]]) -> None:
    game = new_game(8)
    model = Model(8)
    for player, move in steps:
        before = frozen(game)
        try:
            game.apply(player, move, 2.0)
        except GameError as exc:
            assert frozen(game) == before
            assert not re.search(r"\(-?\d+, -?\d+\)", exc.message)  # cells by their names
            x, y = move.get("x"), move.get("y")
            legal = (
                player == game.turn()
                and isinstance(x, int)
                and isinstance(y, int)
                and not isinstance(x, bool)
                and (x, y) in model.legal(model.mover)
            )
            assert not legal
        else:
            assert isinstance(move["x"], int) and isinstance(move["y"], int)
            assert (move["x"], move["y"]) in model.legal(model.mover)
            model.play(move["x"], move["y"])
        assert game.view(None)["board"] == model.board()


def test_the_start_and_the_first_moves() -> None:
    game = new_game(8)
    view = game.view(None)
    assert view["board"][27:29] == "wb" and view["board"][35:37] == "bw"
    assert sorted(map(tuple, view["legal"])) == [(2, 3), (3, 2), (4, 5), (5, 4)]
    assert game.turn() == "p" and game.colors == {"p": "black", "q": "white"}
    with pytest.raises(GameError) as refused:
        game.apply("p", {"x": 0, "y": 0}, 1.0)
    assert refused.value.code == "illegal-move" and "A1" in refused.value.message
    game.apply("p", {"x": 5, "y": 4}, 1.0)  # F5
    assert game.view(None)["counts"] == {"black": 4, "white": 1}
    assert game.view(None)["flipped"] == [[4, 4]]
    assert game.turn() == "q"


def test_colours_swap_on_the_next_round() -> None:
    game = new_game(8, round_no=1)
    assert game.colors == {"q": "black", "p": "white"} and game.turn() == "q"


def test_a_pass_keeps_the_turn_and_says_so() -> None:
    # A 6x6 game where white runs out of moves after black's move (found by search).
    moves = _game_with_a_pass()
    game = new_game(6)
    for x, y in moves[:-1]:
        game.apply(game.turn() or "", {"x": x, "y": y}, 1.0)
    mover = game.turn()
    x, y = moves[-1]
    played = game.apply(mover or "", {"x": x, "y": y}, 1.0)
    assert played.move["pass"] != mover and played.notices[0]["player"] == played.move["pass"]
    if game.result is None:
        assert game.turn() == mover
        assert game.view(None)["passed"] == game.colors[played.move["pass"]]


def _game_with_a_pass() -> list[tuple[int, int]]:
    """The moves of a 6x6 game up to and including the first that makes a side pass."""
    import random

    rng = random.Random(5)
    for _ in range(500):
        pos, moves = Position.start(6), []
        while not pos.over():
            x, y = rng.choice(pos.legal_cells())
            after = pos.play(x, y)
            moves.append((x, y))
            if after.to_move == pos.to_move:
                return moves
            pos = after
    raise AssertionError("no game with a pass found")


def test_take_back_returns_to_before_the_requesters_last_disc() -> None:
    game = new_game(8)
    game.apply("p", {"x": 5, "y": 4}, 1.0)
    game.apply("q", {"x": 5, "y": 5}, 2.0)
    before = game.view(None)
    game.request("q", "takeback", 3.0)
    game.respond("p", "takeback", True, 3.0)
    after = game.view(None)
    assert after["moves"] == [[5, 4]] and game.turn() == "q"
    assert after["counts"] == {"black": 4, "white": 1} and after["flipped"] == [[4, 4]]
    assert before["moves"] == [[5, 4], [5, 5]]


def test_draw_offer_and_resign_keep_the_counts() -> None:
    game = new_game(8)
    game.request("p", "draw", 1.0)
    game.respond("q", "draw", True, 1.0)
    assert game.result == {
        "winner": None,
        "reason": "agreed-draw",
        "discs": {"black": 2, "white": 2},
    }
    other = new_game(8)
    other.resign("q", 1.0)
    assert other.result is not None and other.result["winner"] == "p"


def test_the_clock_runs_out() -> None:
    options = SPEC.parse_options({"size": 8, "clock": "1+0"})
    assert options["clock"] == "1+0"
    game = SPEC.new_game(options, ["p", "q"], 0, 0, 0.0)
    assert game.deadline() == 60.0
    game.tick(61.0)
    assert game.result is not None
    assert game.result["reason"] == "timeout" and game.result["winner"] == "q"


def test_state_makes_the_same_game_again() -> None:
    game = new_game(8)
    for x, y in [(5, 4), (5, 5), (4, 5)]:
        game.apply(game.turn() or "", {"x": x, "y": y}, 1.0)
    again = SPEC.restore_game(game.state())
    assert again.view("p") == game.view("p") and again.turn() == game.turn()


@pytest.mark.parametrize(
    "raw",
    [{"size": 7}, {"size": "8"}, {"colour": "red"}, {"clock": "2+1"}, {"ai": "genius"}, []],
)
def test_bad_options_are_refused(raw: object) -> None:
    from gridhall.server.games.base import OptionError

    with pytest.raises(OptionError):
        SPEC.parse_options(raw)  # type: ignore[arg-type]


def test_a_move_list_reads_back_as_written() -> None:
    moves = read_moves(8, "f5 D6\nc3,d3 # a comment\nc4")
    assert write_moves(8, moves) == "F5 D6 C3 D3 C4"
    assert read_moves(8, "f5d6c3d3c4") == moves


@pytest.mark.parametrize(
    ("text", "where"),
    [("F5 F5", 2), ("A1", 1), ("F5 Z9", 2), ("F5 ?", 2), ("x" * 5000, 0)],
)
def test_a_bad_move_list_says_where(text: str, where: int) -> None:
    with pytest.raises(NotationError) as bad:
        read_moves(8, text)
    assert bad.value.move == where


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([6, 8, 10]), st.randoms(use_true_random=False))
def test_any_legal_game_reads_back_from_its_move_list(size: int, rng: random.Random) -> None:
    pos, moves = Position.start(size), []
    while not pos.over():
        x, y = rng.choice(pos.legal_cells())
        pos = pos.play(x, y)
        moves.append((x, y))
    text = write_moves(size, moves)
    assert read_moves(size, text) == moves
    assert read_moves(size, text.lower().replace(" ", "")) == moves
