"""Rules of co-op Minesweeper: options, first click, reveal, marks, chord, end states."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from gridhall.server.games.base import GameError, OptionError
from gridhall.server.games.minesweeper import SPEC, MinesweeperGame, from_layout, replay
from gridhall.server.games.minesweeper.board import Board, neighbour_table
from gridhall.server.games.minesweeper.generate import no_guess_layout, random_layout
from gridhall.server.games.minesweeper.solver import logic_solve


def art_layout(art: list[str]) -> list[tuple[int, int]]:
    """Mines drawn as ``*`` in rows of text."""
    return [(x, y) for y, row in enumerate(art) for x, ch in enumerate(row) if ch == "*"]


def art_game(
    art: list[str],
    first: tuple[int, int] | None = None,
    players: tuple[str, ...] = ("a",),
    **options: Any,
) -> MinesweeperGame:
    return from_layout(
        art_layout(art),
        first,
        width=len(art[0]),
        height=len(art),
        players=list(players),
        options=options,
    )


def act(
    game: MinesweeperGame,
    player: str,
    action: str,
    x: int,
    y: int,
    mark: str | None = None,
    now: float = 0.0,
) -> None:
    move: dict[str, Any] = {"action": action, "x": x, "y": y}
    if mark is not None:
        move["mark"] = mark
    game.apply(player, move, now)


def rows(game: MinesweeperGame) -> list[str]:
    return list(game.view("a")["rows"])


def new_game(seed: int = 1, players: tuple[str, ...] = ("a",), **raw: Any) -> MinesweeperGame:
    return SPEC.new_game(SPEC.parse_options(raw), list(players), 0, seed, 100.0)


# -- options -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("preset", "size"),
    [("beginner", (9, 9, 10)), ("intermediate", (16, 16, 40)), ("expert", (30, 16, 99))],
)
def test_presets_set_board_size(preset: str, size: tuple[int, int, int]) -> None:
    opts = SPEC.parse_options({"preset": preset})
    assert (opts["width"], opts["height"], opts["mines"]) == size


def test_defaults_are_intermediate_opening_one_life_eight_players() -> None:
    opts = SPEC.parse_options({})
    assert (opts["width"], opts["height"], opts["mines"]) == (16, 16, 40)
    assert opts["first_click"] == "opening" and opts["lives"] == 1
    assert SPEC.max_players(opts) == 8 and opts["hint_penalty"] == 20
    assert SPEC.parse_options(opts) == opts  # parsing is idempotent


def test_custom_size_limits() -> None:
    assert SPEC.parse_options({"width": 200, "height": 200, "mines": 39991})["mines"] == 39991
    for bad in (
        {"width": 201},
        {"width": 10, "height": 10, "mines": 92},
        {"mines": 0},
        {"width": 3, "height": 3},
    ):
        with pytest.raises(OptionError):
            SPEC.parse_options(bad)


@pytest.mark.parametrize(
    "raw",
    [
        {"width": True},
        {"mines": 10.0},
        {"lives": 0},
        {"lives": True},
        {"max_players": 9},
        {"first_click": "lucky"},
        {"no_guess": 1},
        {"max_adjacent": 0},
        {"hint_penalty": -1},
        {"hint_penalty": False},
        {"preset": "expert", "width": 9},
        {"preset": "huge"},
        {"colour": "red"},
        {"no_guess": True, "width": 200, "height": 200, "mines": 10},
        {"no_guess": True, "width": 16, "height": 16, "mines": 100},
        {"max_adjacent": 1, "width": 16, "height": 16, "mines": 40},
    ],
)
def test_bad_options_are_refused_with_a_sentence(raw: dict[str, Any]) -> None:
    with pytest.raises(OptionError) as err:
        SPEC.parse_options(raw)
    assert str(err.value).endswith(".")


def test_spec_shape() -> None:
    assert (SPEC.name, SPEC.start, SPEC.min_players) == ("minesweeper", "immediate", 1)
    assert SPEC.max_players(SPEC.parse_options({"max_players": 3})) == 3


# -- first click and layout ----------------------------------------------------
def test_mines_are_placed_at_first_reveal_from_the_seed() -> None:
    g1, g2 = new_game(seed=7), new_game(seed=7)
    assert g1.board is None
    act(g1, "a", "reveal", 3, 4)
    act(g2, "a", "reveal", 3, 4)
    assert g1.board is not None and g2.board is not None
    assert g1.board.mines == g2.board.mines and len(g1.board.mines) == 40
    rec = g1.record()
    assert rec["seed"] == 7 and rec["first_click"] == [3, 4]
    assert sorted(map(tuple, rec["layout"])) == sorted((m % 16, m // 16) for m in g1.board.mines)


def test_opening_first_click_clears_the_cell_and_its_neighbours() -> None:
    for seed in range(30):
        g = new_game(seed=seed, width=9, height=9, mines=72)
        act(g, "a", "reveal", seed % 9, 4)
        assert g.board is not None
        cell = 4 * 9 + seed % 9
        assert all(not g.board.is_mine(c) for c in (cell, *neighbour_table(9, 9)[cell]))
        assert rows(g)[4][seed % 9] == "0" and g.stats["a"]["mines_hit"] == 0


def test_safe_first_click_clears_only_that_cell() -> None:
    neighbour_mines = 0
    for seed in range(10):
        g = new_game(seed=seed, width=5, height=5, mines=16, first_click="safe")
        act(g, "a", "reveal", 2, 2)
        assert g.board is not None and not g.board.is_mine(12)
        neighbour_mines += sum(g.board.is_mine(c) for c in neighbour_table(5, 5)[12])
        assert g.result is None
    assert neighbour_mines > 0


def test_random_placement_is_roughly_uniform() -> None:
    hits = [0] * 81
    for seed in range(1500):
        board = random_layout(9, 9, 10, 0, "safe", random.Random(seed))
        for m in board.mines:
            hits[m] += 1
    expected = 1500 * 10 / 80
    assert hits[0] == 0
    assert all(0.75 * expected < h < 1.25 * expected for h in hits[1:])


@pytest.mark.parametrize("first_click", ["opening", "safe"])
def test_max_adjacent_limits_mines_around_every_cell(first_click: str) -> None:
    for seed in range(20):
        board = random_layout(30, 16, 99, 100, first_click, random.Random(seed), 3)
        assert len(board.mines) == 99
        nb = neighbour_table(30, 16)
        assert max(sum(board.is_mine(n) for n in nb[c]) for c in range(480)) <= 3


@pytest.mark.parametrize(
    ("first_click", "max_adjacent"), [("opening", None), ("safe", None), ("opening", 4)]
)
def test_no_guess_boards_are_solved_by_logic_from_the_first_click(
    first_click: str, max_adjacent: int | None
) -> None:
    for seed in range(6):
        first = 8 * 30 + 15
        board = no_guess_layout(30, 16, 99, first, first_click, random.Random(seed), max_adjacent)
        assert len(board.mines) == 99 and not board.is_mine(first)
        assert logic_solve(board, first).solved()
        if max_adjacent is not None:
            nb = neighbour_table(30, 16)
            assert max(sum(board.is_mine(n) for n in nb[c]) for c in range(480)) <= 4


def test_no_guess_option_reaches_the_generator() -> None:
    g = new_game(seed=3, preset="expert", no_guess=True)
    act(g, "a", "reveal", 10, 10)
    assert g.board is not None and logic_solve(g.board, 10 * 30 + 10).solved()


# -- reveal ----------------------------------------------------------------------
ART = [
    ".*...",
    ".....",
    ".....",
    ".....",
    "....*",
]


def test_number_shows_and_only_that_cell_opens() -> None:
    g = art_game(ART)
    act(g, "a", "reveal", 1, 1)
    assert rows(g)[1] == "#1###" and g.view("a")["revealed"] == 1


def test_zero_opens_its_whole_region() -> None:
    g = art_game(ART, first=(0, 4))
    assert rows(g) == ["##100", "11100", "00000", "00011", "0001#"]
    assert g.view(None)["revealed"] == 22


def test_large_zero_region_opens_in_one_click_without_recursion() -> None:
    layout = [(199, y) for y in range(10)]
    t = time.process_time()  # CPU time: a loaded machine's waits are not the code's
    g = from_layout(layout, (0, 199), width=200, height=200, players=["a"])
    assert time.process_time() - t < 2.0
    assert g.safe_left == 0 and g.result is not None
    assert g.result["reason"] == "cleared"


def test_revealing_a_mine_ends_the_game_naming_the_player() -> None:
    g = art_game(ART, players=("a", "b"))
    act(g, "a", "reveal", 0, 0)
    act(g, "b", "reveal", 1, 0, now=5.0)
    assert g.result is not None
    assert (g.result["reason"], g.result["by"], g.result["winner"]) == ("mine", "b", None)
    assert g.result["stats"]["b"]["mines_hit"] == 1
    assert g.result["stats"]["a"] == {"revealed": 1, "flags": 0, "mines_hit": 0}
    with pytest.raises(GameError) as err:
        act(g, "a", "reveal", 2, 2)
    assert err.value.code == "not-playing"


def test_revealing_a_revealed_cell_is_a_no_op() -> None:
    g = art_game(ART, first=(0, 4))
    before = g.view("a")
    act(g, "a", "reveal", 0, 4)
    assert g.view("a")["rows"] == before["rows"] and g.stats["a"]["revealed"] == 22


# -- marks -----------------------------------------------------------------------
def test_marks_set_flag_question_and_none() -> None:
    g = art_game(ART)
    for mark, ch in (("flag", "F"), ("question", "?"), ("none", "#"), ("flag", "F")):
        act(g, "a", "mark", 1, 0, mark)
        assert rows(g)[0][1] == ch
    assert g.view("a")["flags"] == 1


def test_flagged_cell_cannot_be_revealed_but_question_can() -> None:
    g = art_game(ART)
    act(g, "a", "mark", 2, 2, "flag")
    with pytest.raises(GameError) as err:
        act(g, "a", "reveal", 2, 2)
    assert err.value.code == "illegal-move"
    act(g, "a", "mark", 0, 1, "question")
    act(g, "a", "reveal", 0, 1)
    assert rows(g)[1][0] == "1"


def test_flags_block_the_flood() -> None:
    g = art_game(ART)
    act(g, "a", "mark", 0, 3, "flag")
    act(g, "a", "reveal", 0, 4)
    assert rows(g)[3][0] == "F" and rows(g)[2][0] == "0"


def test_revealed_cells_cannot_be_marked() -> None:
    g = art_game(ART, first=(0, 4))
    with pytest.raises(GameError) as err:
        act(g, "a", "mark", 0, 4, "flag")
    assert err.value.code == "illegal-move"


# -- chord and quick flag -------------------------------------------------------
ART2 = [
    "*.*..",
    ".....",
    ".....",
    "...**",
    "...*.",
]


def test_chord_reveals_the_other_neighbours() -> None:
    g = art_game(ART2)
    act(g, "a", "reveal", 1, 0)
    act(g, "a", "mark", 0, 0, "flag")
    act(g, "a", "mark", 2, 0, "flag")
    act(g, "a", "chord", 1, 0)
    assert g.result is None
    assert rows(g)[:3] == ["F2F##", "121##", "#####"]


def test_chord_with_wrong_flag_explodes() -> None:
    g = art_game(ART, players=("a", "b"))
    act(g, "a", "reveal", 1, 1)
    act(g, "a", "mark", 0, 0, "flag")
    act(g, "b", "chord", 1, 1)
    assert g.result is not None and g.result["reason"] == "mine" and g.result["by"] == "b"
    view = rows(g)
    assert view[0][1] == "X" and view[0][0] == "W" and view[4][4] == "*"


def test_chord_needs_matching_flags() -> None:
    g = art_game(ART)
    act(g, "a", "reveal", 1, 1)
    for x, y in ((1, 1), (3, 3)):
        with pytest.raises(GameError) as err:
            act(g, "a", "chord", x, y)
        assert err.value.code == "illegal-move"


def test_flag_around_flags_all_hidden_neighbours() -> None:
    g = art_game(ART2)
    act(g, "a", "reveal", 0, 2)
    act(g, "a", "reveal", 1, 0)
    act(g, "a", "flag-around", 1, 1)
    assert g.result is None and rows(g)[0][:3] == "F2F"
    assert g.view(None)["stats"]["a"]["flagged"] == 2


def test_flag_around_needs_matching_hidden_count() -> None:
    g = art_game(ART)
    act(g, "a", "reveal", 1, 1)
    with pytest.raises(GameError) as err:
        act(g, "a", "flag-around", 1, 1)
    assert err.value.code == "illegal-move"
    assert "F" not in "".join(rows(g))


# -- end states -----------------------------------------------------------------
def test_win_when_every_safe_cell_is_open_shows_mines_flagged() -> None:
    g = art_game(ART, players=("a", "b"))
    act(g, "b", "mark", 1, 0, "flag")
    act(g, "a", "reveal", 0, 4, now=3.0)
    assert g.result is None
    act(g, "a", "reveal", 0, 0, now=9.0)
    assert g.result is not None and g.result["reason"] == "cleared"
    assert "by" not in g.result and g.result["stats"]["b"]["flags"] == 1
    assert rows(g)[0][1] == "F" and rows(g)[4][4] == "F"
    assert g.view(None)["elapsed"] == 6.0


def test_loss_view_shows_mines_exploded_and_wrong_flags() -> None:
    g = art_game(ART)
    act(g, "a", "mark", 4, 4, "flag")
    act(g, "a", "mark", 3, 3, "flag")
    act(g, "a", "reveal", 1, 0)
    assert rows(g) == ["#X###", "#####", "#####", "###W#", "####F"]


def test_lives_let_play_go_on_after_a_mine() -> None:
    g = art_game(ART, players=("a", "b"), lives=2)
    act(g, "a", "reveal", 1, 0)
    view = g.view("b")
    assert g.result is None and view["lives_left"] == 1 and view["rows"][0][1] == "X"
    assert view["exploded"] == [[1, 0]] and view["stats"]["a"]["mines_hit"] == 1
    act(g, "b", "reveal", 4, 4)
    assert g.result is not None and g.result["by"] == "b"
    assert g.result["stats"]["a"]["mines_hit"] == 1


def test_exploded_mine_counts_as_flag_for_chord() -> None:
    g = art_game(ART, lives=2)
    act(g, "a", "reveal", 1, 0)
    act(g, "a", "reveal", 1, 1)
    act(g, "a", "chord", 1, 1)
    assert g.result is not None and g.result["reason"] == "cleared"
    assert rows(g)[0][:2] == "1X" and rows(g)[4][4] == "F"


# -- co-op room side ------------------------------------------------------------
def test_players_share_one_board_and_get_their_own_stats() -> None:
    g = art_game(ART, players=("a", "b"))
    act(g, "a", "reveal", 1, 1)
    act(g, "b", "reveal", 0, 4)
    assert g.view("a") == g.view("b")
    stats = g.view(None)["stats"]
    assert stats["a"]["revealed"] == 1 and stats["b"]["revealed"] == 21
    assert g.view(None)["last"]["b"] == {"action": "reveal", "x": 0, "y": 4}


def test_late_joiners_take_seats_up_to_max_players() -> None:
    g = new_game(players=("a",), max_players=2)
    assert g.add_player("b", 1.0) is True and g.players == ["a", "b"]
    assert g.add_player("c", 1.0) is False
    act(g, "b", "reveal", 0, 0)
    with pytest.raises(GameError) as err:
        act(g, "c", "reveal", 1, 1)
    assert err.value.code == "not-a-player"


def test_resigned_player_cannot_act_and_last_one_out_ends_the_game() -> None:
    g = art_game(ART, players=("a", "b"))
    g.resign("a", 1.0)
    with pytest.raises(GameError):
        act(g, "a", "reveal", 2, 2)
    assert g.result is None and g.view(None)["left"] == ["a"]
    g.resign("b", 2.0)
    assert g.result is not None and g.result["reason"] == "resign"
    assert rows(g)[0][1] == "*"


def test_requests_are_refused_and_there_is_no_clock() -> None:
    g = new_game()
    for call in (lambda: g.request("a", "draw", 0.0), lambda: g.respond("a", "draw", True, 0)):
        with pytest.raises(GameError) as err:
            call()
        assert err.value.code == "illegal-move"
    assert g.deadline() is None and g.tick(1e9) == [] and g.turn() is None


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("reveal", "bad-message"),
        ({"action": "dig", "x": 0, "y": 0}, "bad-message"),
        ({"action": "reveal", "x": "1", "y": 0}, "bad-message"),
        ({"action": "reveal", "x": True, "y": 0}, "bad-message"),
        ({"action": "mark", "x": 0, "y": 0, "mark": "star"}, "bad-message"),
        ({"action": "reveal", "x": 5, "y": 0}, "illegal-move"),
        ({"action": "reveal", "x": 0, "y": -1}, "illegal-move"),
    ],
)
def test_wrong_moves_are_refused_without_change(move: Any, code: str) -> None:
    g = art_game(ART, first=(0, 4))
    before = g.view("a")
    with pytest.raises(GameError) as err:
        g.apply("a", move, 50.0)
    assert err.value.code == code and g.view("a") == before and len(g.actions) == 1


def test_elapsed_runs_from_the_first_reveal_and_hints_add_the_penalty() -> None:
    g = new_game(hint_penalty=15)
    g.apply("a", {"action": "hint"}, 105.0)
    hint = g.view(None)["hint"]
    assert hint == {"x": 8, "y": 8, "safe": True, "risk": 0.0}
    assert g.view(None)["elapsed"] == 15.0
    act(g, "a", "reveal", hint["x"], hint["y"], now=110.0)
    act(g, "a", "reveal", hint["x"], hint["y"], now=112.5)
    view = g.view(None)
    assert view["hint"] is None and view["elapsed"] == 17.5


def test_hint_points_to_a_proven_safe_cell() -> None:
    g = art_game(ART)
    act(g, "a", "reveal", 1, 1)
    act(g, "a", "reveal", 0, 1)
    act(g, "a", "reveal", 2, 1)
    act(g, "a", "reveal", 0, 2)
    g.apply("a", {"action": "hint"}, 1.0)
    hint = g.view("a")["hint"]
    assert hint["safe"] is True and g.board is not None
    assert not g.board.is_mine(hint["y"] * 5 + hint["x"])


def test_hint_without_a_safe_cell_is_a_labelled_guess() -> None:
    g = art_game(["*.", "..", "..", "..", "..", ".*"])
    act(g, "a", "reveal", 1, 1)
    g.apply("a", {"action": "hint"}, 1.0)
    hint = g.view("a")["hint"]
    assert hint["safe"] is False and 0 < hint["risk"] < 1


def test_record_replays_to_the_same_end() -> None:
    g = new_game(seed=11, players=("a", "b"), preset="beginner")
    rng = random.Random(5)
    t = 100.0
    while g.result is None:
        t += 1
        player = rng.choice("ab")
        try:
            act(g, player, "reveal", rng.randrange(9), rng.randrange(9), now=t)
        except GameError:
            pass
    again = replay(g.record())
    assert again.result == g.result and again.view("a") == g.view("a")


def test_board_flood_reveals_in_plain_loop() -> None:
    board = Board(3, 3, [8])
    revealed, flags = bytearray(9), bytearray(9)
    assert sorted(board.flood(0, revealed, flags)) == [0, 1, 2, 3, 4, 5, 6, 7]
