"""The display-free view models the terminal and Tk clients share."""

from __future__ import annotations

from gridhall.client.views import gomoku, linkmatch, minesweeper
from gridhall.client.views.common import error_text, player_lines, result_text
from gridhall.client.views.lobby import PRESETS, options_text, room_rows


def gomoku_state(moves: list[list[int]]) -> dict[str, object]:
    return {
        "game": "gomoku",
        "status": "playing",
        "turn": "b" if len(moves) % 2 else "a",
        "players": [
            {"player": "a", "name": "ann", "seat": 0, "connected": True},
            {"player": "b", "name": "bob", "seat": 1, "connected": False},
        ],
        "view": {"size": 15, "moves": moves, "next": "white" if len(moves) % 2 else "black",
                 "colors": {"a": "black", "b": "white"}},
    }  # fmt: skip


def test_gomoku_marks_stones_last_move_and_cursor() -> None:
    board = gomoku.GomokuBoard.from_view(gomoku_state([[7, 7], [8, 8]])["view"])  # type: ignore[arg-type]
    black, white = board.look(7, 7), board.look(8, 8)
    assert black.glyph == "●" and white.glyph == "◉"  # the last stone is marked
    assert black.fg != white.fg
    assert board.look(0, 0).glyph == "┌" and board.look(14, 14).glyph == "┘"
    assert board.look(3, 3, cursor=(3, 3)).bg == gomoku.CURSOR_BG
    assert board.coord(7, 7) == "H8"  # no letter I


def test_gomoku_status_names_whose_move_and_offers() -> None:
    state = gomoku_state([[7, 7]])
    assert gomoku.status_text(state, "b").startswith("Your move (white)")
    assert gomoku.status_text(state, "a").startswith("bob to move")
    state["view"]["pending"] = {"kind": "draw", "from": "a"}  # type: ignore[index]
    assert gomoku.offer_text(state, "b") == "ann asks for a draw."
    lines = player_lines(state, "a", {"a": "black", "b": "white"})
    assert [(p.name, p.to_move, p.connected) for p in lines] == [
        ("ann", False, True),
        ("bob", True, False),
    ]


def test_minesweeper_cells_keep_hidden_and_zero_apart() -> None:
    board = minesweeper.MinesBoard.from_view(
        {"width": 4, "height": 1, "mines": 1, "rows": ["#0F3"], "flags": 1}
    )
    hidden, zero, flag, three = (board.look(x, 0) for x in range(4))
    assert hidden.bg != zero.bg and hidden.glyph != zero.glyph
    assert flag.glyph == "⚑"
    assert three.glyph == "3" and three.fg == minesweeper.NUMBER_COLORS["3"]
    assert board.mines_left() == 0
    assert minesweeper.next_mark("#") == "flag" and minesweeper.next_mark("F") == "question"
    assert minesweeper.next_mark("?") == "none"


def test_minesweeper_after_a_loss_shows_mines_and_wrong_flags() -> None:
    board = minesweeper.MinesBoard.from_view({"width": 3, "height": 1, "mines": 2, "rows": ["*XW"]})
    mine, exploded, wrong = (board.look(x, 0) for x in range(3))
    assert mine.glyph == exploded.glyph and mine.bg != exploded.bg
    assert wrong.glyph == "✗"


def test_linkmatch_kinds_frames_and_paths() -> None:
    looks = {linkmatch.kind_look(k).glyph for k in range(1, 37)}
    assert len(looks) == 36  # every default kind has its own glyph
    view = {"width": 3, "height": 1, "rows": [[1, 0, 1]], "remaining": 2,
            "path": [[0, 0], [0, -1], [2, -1], [2, 0]]}  # fmt: skip
    board = linkmatch.LinkBoard.from_view(view)
    assert board.look(0, 0, selected=(0, 0)).glyph.startswith("[")
    assert board.look(1, -1, show_path=True).glyph == "───"
    assert board.look(0, -1, show_path=True).glyph.strip() == "┌─"
    assert board.look(1, -1).glyph == "   "  # no path once the moment is over


def test_status_lines_for_race_and_results() -> None:
    state = {"game": "linkmatch", "status": "playing", "options": {"time_limit": 600},
             "players": [{"player": "a", "name": "ann"}, {"player": "b", "name": "bob"}],
             "view": {"remaining": 40, "elapsed": 61, "progress": {"a": 40, "b": 38}}}  # fmt: skip
    line = linkmatch.status_text(state, "a")
    assert "40 tiles left" in line and "1:01 / 10:00" in line and "bob 38" in line
    state["result"] = {"winner": "b", "reason": "cleared"}
    assert result_text(state, "a") == "bob wins by board cleared."
    assert result_text(state, "b").startswith("You win")


def test_lobby_rows_and_presets() -> None:
    rows = room_rows([{"room": "AB12CD", "game": "minesweeper", "options": {"preset": "expert"},
                       "players": ["ann"], "spectators": 2, "status": "playing"}])  # fmt: skip
    assert rows[0].game == "Minesweeper" and rows[0].options == "expert"
    assert options_text("gomoku", {"size": 19, "rule": "renju"}) == "19×19 renju"
    assert all(PRESETS[g] for g in ("gomoku", "minesweeper", "linkmatch"))


def test_errors_always_have_a_sentence() -> None:
    assert error_text({"code": "room-full", "message": ""}).startswith("That room is full")
    assert error_text({"code": "x", "message": "Server words."}) == "Server words."


def test_minesweeper_click_on_a_number_chords_only_when_satisfied() -> None:
    board = minesweeper.MinesBoard.from_view(
        {"width": 3, "height": 2, "mines": 2, "rows": ["F2#", "#1#"]}
    )
    assert not board.satisfied(1, 0)  # one flag around a 2
    assert board.satisfied(1, 1)  # one flag around a 1
    assert not board.satisfied(0, 0)  # not a number
