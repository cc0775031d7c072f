"""Gomoku rules: fives, overlines, full-board draws, offers, colours and clocks."""

from __future__ import annotations

import pytest

from gridhall.server.games.base import GameError, OptionError
from gridhall.server.games.gomoku import SPEC, Board, GomokuGame

A, B = "alice", "bob"


def game(rule: str = "freestyle", size: int = 15, round_no: int = 0, **extra: object) -> GomokuGame:
    return GomokuGame(
        SPEC.parse_options({"rule": rule, "size": size, **extra}), [A, B], round_no, now=0.0
    )


def play(g: GomokuGame, black: list[tuple[int, int]], white: list[tuple[int, int]]) -> None:
    """Alternate the given stones, black first (white may have one stone fewer)."""
    by_colour = {colour: player for player, colour in g.colors.items()}
    for n, (x, y) in enumerate(black):
        g.apply(by_colour["black"], {"x": x, "y": y}, now=float(n))
        if n < len(white) and g.result is None:
            g.apply(by_colour["white"], {"x": white[n][0], "y": white[n][1]}, now=float(n))


FAR_WHITE = [(14, 14), (14, 12), (12, 14), (12, 12), (14, 10), (10, 14)]


@pytest.mark.parametrize(
    "line",
    [
        [(3, 7), (4, 7), (5, 7), (6, 7), (7, 7)],  # horizontal
        [(7, 2), (7, 3), (7, 4), (7, 5), (7, 6)],  # vertical
        [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6)],  # diagonal
        [(2, 9), (3, 8), (4, 7), (5, 6), (6, 5)],  # anti-diagonal
        [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],  # top edge, corner
        [(14, 10), (14, 11), (14, 12), (14, 13), (14, 9)],  # right edge, last stone at the end
        [(10, 14), (11, 13), (12, 12), (13, 11), (14, 10)],  # anti-diagonal into a corner
    ],
)
def test_five_in_every_direction_wins_for_the_last_stone(line: list[tuple[int, int]]) -> None:
    g = game()
    white = [(0, 14), (0, 12), (2, 14), (0, 10)]
    # the completing stone is in the middle of the line for the first few cases
    order = line[:2] + line[3:] + [line[2]]
    play(g, order[:4], white)
    assert g.result is None
    g.apply(A, {"x": order[4][0], "y": order[4][1]}, now=9.0)
    assert g.result is not None
    assert g.result["winner"] == A and g.result["reason"] == "five"
    assert sorted(map(tuple, g.result["line"])) == sorted(line)
    assert g.turn() is None


def test_white_wins_too_and_the_result_names_white() -> None:
    g = game()
    play(g, [(0, 0), (0, 2), (0, 4), (0, 6), (0, 8)], [(5, 5), (6, 5), (7, 5), (8, 5), (9, 5)])
    assert g.result is not None and g.result["winner"] == B


def test_four_with_a_gap_is_not_five() -> None:
    g = game()
    play(g, [(0, 7), (1, 7), (2, 7), (4, 7), (5, 7)], FAR_WHITE[:5])
    assert g.result is None
    assert g.board.run_length(5, 7, 1, 0) == 2


def test_overline_wins_in_freestyle() -> None:
    g = game("freestyle")
    play(g, [(0, 7), (1, 7), (2, 7), (4, 7), (5, 7), (3, 7)], FAR_WHITE)
    assert g.result is not None and g.result["winner"] == A


def test_overline_does_not_win_in_standard() -> None:
    g = game("standard")
    play(g, [(0, 7), (1, 7), (2, 7), (4, 7), (5, 7), (3, 7)], FAR_WHITE[:5])
    assert g.result is None
    assert g.board.run_length(3, 7, 1, 0) == 6
    assert g.turn() == B


def test_exactly_five_wins_in_standard() -> None:
    g = game("standard")
    play(g, [(0, 7), (1, 7), (2, 7), (4, 7), (3, 7)], FAR_WHITE[:4])
    assert g.result is not None and g.result["reason"] == "five"


def test_full_board_without_five_is_a_draw() -> None:
    g = game()
    black = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
    white = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]
    assert len(black) == 113 and len(white) == 112
    play(g, black, white)
    assert g.board.full()
    assert g.result == {"winner": None, "reason": "draw"}


def test_19x19_board_accepts_the_far_corner() -> None:
    g = game(size=19)
    g.apply(A, {"x": 18, "y": 18}, now=0.0)
    assert g.view(None)["moves"] == [(18, 18)]
    with pytest.raises(GameError) as info:
        g.apply(B, {"x": 19, "y": 0}, now=0.0)
    assert info.value.code == "illegal-move"


def test_moves_out_of_turn_off_board_or_on_a_stone_are_refused_and_change_nothing() -> None:
    g = game()
    g.apply(A, {"x": 7, "y": 7}, now=0.0)
    before = g.view(None)
    for player, move, code in [
        (A, {"x": 1, "y": 1}, "not-your-turn"),
        (B, {"x": 7, "y": 7}, "illegal-move"),
        (B, {"x": -1, "y": 0}, "illegal-move"),
        (B, {"x": 1.0, "y": 0}, "bad-message"),
        (B, {"x": True, "y": 0}, "bad-message"),
        (B, {"y": 0}, "bad-message"),
        ("carol", {"x": 1, "y": 1}, "not-a-player"),
    ]:
        with pytest.raises(GameError) as info:
            g.apply(player, move, now=1.0)
        assert info.value.code == code
    assert g.view(None) == before


def test_colours_swap_every_round() -> None:
    assert game(round_no=0).colors == {A: "black", B: "white"}
    assert game(round_no=1).colors == {A: "white", B: "black"}
    assert game(round_no=1).turn() == B


def test_takeback_after_the_reply_removes_both_stones() -> None:
    g = game()
    play(g, [(7, 7), (8, 8)], [(7, 8)])
    g.apply(B, {"x": 9, "y": 9}, now=2.0)
    g.request(A, "takeback", now=3.0)
    assert g.view(None)["pending"] == {"kind": "takeback", "from": A}
    g.respond(B, "takeback", True, now=4.0)
    assert g.view(None)["moves"] == [(7, 7), (7, 8)]
    assert g.turn() == A and "pending" not in g.view(None)


def test_takeback_before_the_reply_removes_one_stone() -> None:
    g = game()
    play(g, [(7, 7), (8, 8)], [(7, 8)])
    g.request(A, "takeback", now=3.0)
    g.respond(B, "takeback", True, now=4.0)
    assert g.view(None)["moves"] == [(7, 7), (7, 8)]
    assert g.turn() == A


def test_declined_takeback_changes_nothing() -> None:
    g = game()
    play(g, [(7, 7)], [(7, 8)])
    g.request(B, "takeback", now=3.0)
    g.respond(A, "takeback", False, now=4.0)
    assert g.view(None)["moves"] == [(7, 7), (7, 8)] and g.turn() == A


def test_takeback_needs_an_own_stone_and_an_answer_needs_an_offer() -> None:
    g = game()
    g.apply(A, {"x": 7, "y": 7}, now=0.0)
    with pytest.raises(GameError) as info:
        g.request(B, "takeback", now=1.0)
    assert info.value.code == "illegal-move"
    with pytest.raises(GameError) as info:
        g.respond(A, "draw", True, now=1.0)
    assert info.value.code == "no-pending-request"
    g.request(A, "draw", now=1.0)
    with pytest.raises(GameError) as info:  # one cannot accept one's own offer
        g.respond(A, "draw", True, now=1.0)
    assert info.value.code == "no-pending-request"
    with pytest.raises(GameError) as info:
        g.request(B, "takeback", now=1.0)
    assert info.value.code == "illegal-move"


def test_accepted_draw_ends_the_game_without_winner() -> None:
    g = game()
    play(g, [(7, 7)], [(7, 8)])
    g.request(A, "draw", now=1.0)
    g.respond(B, "draw", True, now=2.0)
    assert g.result == {"winner": None, "reason": "agreed-draw"}


def test_a_move_lets_a_pending_offer_lapse() -> None:
    g = game()
    play(g, [(7, 7)], [])
    g.request(A, "draw", now=1.0)
    g.apply(B, {"x": 1, "y": 1}, now=2.0)
    with pytest.raises(GameError):
        g.respond(B, "draw", True, now=3.0)
    assert g.result is None


def test_resign_gives_the_other_player_the_win() -> None:
    g = game()
    g.resign(B, now=1.0)
    assert g.result == {"winner": A, "reason": "resign", "loser": B}


def test_clock_runs_out_for_the_side_to_move() -> None:
    g = game(clock="1+2")
    assert g.deadline() == 60.0
    g.apply(A, {"x": 7, "y": 7}, now=10.0)
    assert g.remaining == {A: 52.0, B: 60.0}  # 60 - 10 + 2 increment
    assert g.deadline() == 70.0
    g.tick(69.0)
    assert g.result is None
    g.tick(70.5)
    assert g.result == {"winner": A, "reason": "timeout", "loser": B}


def test_move_limit_draws() -> None:
    g = game("standard", move_limit=10)
    play(g, [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0)], [(0, 2), (2, 2), (4, 2), (6, 2), (8, 2)])
    assert g.result == {"winner": None, "reason": "draw"}


@pytest.mark.parametrize(
    "options,match",
    [
        ({"size": 17}, "size"),
        ({"size": True}, "size"),
        ({"rule": "pente"}, "rule"),
        ({"rule": "renju", "size": 19}, "renju"),
        ({"clock": "ten"}, "clock"),
        ({"clock": {"minutes": 0}}, "clock"),
        ({"ai": "godlike"}, "ai"),
        ({"move_limit": 3}, "move_limit"),
    ],
)
def test_bad_options_are_refused_with_a_reason(options: dict[str, object], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        SPEC.parse_options(options)


def test_board_replays_moves_and_undoes() -> None:
    b = Board(15, [(1, 1), (2, 2)])
    assert b.at(1, 1) == 1 and b.at(2, 2) == 2
    assert b.undo() == (2, 2) and b.at(2, 2) == 0
