"""Cell names people read: the server's sentences and the clients' labels agree."""

from __future__ import annotations

import pytest

from gridhall.client.views.gomoku import GomokuBoard
from gridhall.client.views.minesweeper import MinesBoard
from gridhall.protocol.cells import board_span, cell_name, column_name, row_name
from gridhall.server.games.base import GameError
from gridhall.server.games.gomoku.game import GomokuGame
from gridhall.server.games.gomoku.spec import SPEC as GOMOKU
from gridhall.server.games.linkmatch.moves import why_no_link
from gridhall.server.games.minesweeper.game import MinesweeperGame
from gridhall.server.games.minesweeper.options import parse_options


def test_columns_are_letters_without_i_and_rows_count_from_one() -> None:
    assert [column_name(x) for x in range(10)] == list("ABCDEFGHJK")
    assert (column_name(24), column_name(25), column_name(26)) == ("Z", "AA", "AB")
    assert column_name(25 + 25 * 25 - 1) == "ZZ" and column_name(25 + 25 * 25) == "AAA"
    assert (row_name(0), cell_name(7, 7), cell_name(0, 14)) == ("1", "H8", "A15")
    assert board_span(15, 15) == "columns A-P, rows 1-15"
    with pytest.raises(ValueError):
        column_name(-1)


def test_every_column_of_the_widest_board_has_its_own_name() -> None:
    names = [column_name(x) for x in range(200)]
    assert len(set(names)) == 200 and all("I" not in n for n in names)


def test_the_clients_name_cells_as_the_boards_are_labelled() -> None:
    # the boards' labels are protocol.cells' column_name and row_name themselves
    assert GomokuBoard(size=15).coord(7, 7) == "H8" == MinesBoard.coord(7, 7)
    assert MinesBoard.coord(8, 8) == column_name(8) + row_name(8) == "J9"


def _refusal(fn: object, *args: object) -> str:
    with pytest.raises(GameError) as refused:
        fn(*args)  # type: ignore[operator]
    return refused.value.message


def test_gomoku_refusals_name_points_as_the_board_labels_them() -> None:
    game = GomokuGame(GOMOKU.parse_options({}), ["a", "b"], 0, 0.0)
    game.apply("a", {"x": 7, "y": 8}, 1.0)
    assert _refusal(game.apply, "b", {"x": 7, "y": 8}, 2.0) == "H9 already holds a stone."
    off = _refusal(game.apply, "b", {"x": 15, "y": 0}, 2.0)
    assert off == "That point is off the 15×15 board (columns A-P, rows 1-15)."


def test_renju_fouls_name_the_point() -> None:
    game = GomokuGame(GOMOKU.parse_options({"rule": "renju"}), ["a", "b"], 0, 0.0)
    # Black builds a double three at H8 (x=7, y=7): stones at F8, G8 and H6, H7.
    black = [(5, 7), (6, 7), (7, 5), (7, 6)]
    white = [(0, 0), (0, 2), (0, 4), (0, 6)]
    for (bx, by), (wx, wy) in zip(black, white):
        game.apply("a", {"x": bx, "y": by}, 1.0)
        game.apply("b", {"x": wx, "y": wy}, 1.0)
    refused = _refusal(game.apply, "a", {"x": 7, "y": 7}, 2.0)
    assert refused.startswith("H8 is forbidden for black under renju")


def test_minesweeper_and_linkmatch_refusals_use_the_same_names() -> None:
    game = MinesweeperGame(parse_options({"preset": "beginner"}), ["a"], 0, 0.0)
    off = _refusal(game.apply, "a", {"action": "reveal", "x": 9, "y": 0}, 1.0)
    assert off == "That cell is off the 9×9 board (columns A-J, rows 1-9)."
    rows = [[1, 0], [2, 1]]
    assert why_no_link(rows, (1, 0), (0, 1)) == "There is no tile at B1."
    assert why_no_link(rows, (2, 0), (0, 0)).startswith("That tile is off the 2×2 board")
