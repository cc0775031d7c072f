"""The Python clients' display-free history, replay and ratings logic (no server)."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from gridhall.client.cli import game_id, opening, parse_args
from gridhall.client.history import (
    Filters,
    GamePages,
    Opening,
    features,
    game_row,
    replay_link,
)
from gridhall.client.ratings import (
    board_request,
    my_rank,
    profile_records,
    rank_rows,
    rating_change,
    rating_lines,
    recent_rows,
    record_rows,
    sparkline,
)
from gridhall.client.replays import ReplayError, ReplayFrame, ReplayPlayer
from gridhall.client.tui.boards import gomoku as tui_gomoku
from gridhall.client.tui.boards import minesweeper as tui_mines
from gridhall.client.views import view_for
from gridhall.client.views.gomoku import GomokuBoard
from gridhall.client.views.gomoku import replay_marks as gomoku_frame
from gridhall.client.views.linkmatch import LinkBoard
from gridhall.client.views.minesweeper import MinesBoard
from gridhall.client.views.minesweeper import replay_owners as mines_frame


def link_frames(player: ReplayPlayer) -> list[ReplayFrame]:
    """Every racer's board in a Link-match replay, as the game's view gives them."""
    return view_for("linkmatch").replay_frames(player)


ANN = {"player": "a", "name": "ann", "seat": 0, "color": "#ff0000"}
BOB = {"player": "b", "name": "bob", "seat": 1, "color": "#0000ff"}


def summary(game_id: int, **extra: Any) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "game": "gomoku",
        "options": {"size": 15},
        "players": [ANN, BOB],
        "result": {"winner": "a", "reason": "five"},
        "started_at": 1.0,
        "ended_at": 2.0,
        "moves": 9,
        "rated": False,
        **extra,
    }


def test_pages_take_only_the_latest_answer_and_follow_the_cursor() -> None:
    pages = GamePages()
    first = pages.first(Filters(game="gomoku", name="  Ann  "))
    assert first == {"type": "list-games", "game": "gomoku", "name": "Ann", "limit": 20}
    pages.sent(7)
    assert pages.more() is None  # one request at a time
    assert pages.take({"games": [summary(3)], "next": None, "re": 6}) is None  # an older ask
    assert pages.take({"games": [summary(9), summary(8)], "next": 8, "re": 7}) is not None
    assert [g["game_id"] for g in pages.games] == [9, 8] and pages.more_left
    more = pages.more()
    assert more is not None and more["before"] == 8 and more["name"] == "Ann"
    pages.sent(8)
    assert pages.take({"games": [summary(5)], "next": None, "re": 8}) == [summary(5)]
    assert not pages.more_left and pages.more() is None


def test_a_refused_page_can_be_asked_again() -> None:
    pages = GamePages()
    pages.first(Filters())
    pages.sent(None)  # refused before leaving (offline)
    assert not pages.loading


def test_summary_row_words_and_the_share_link() -> None:
    row = game_row(
        summary(42, rated=True, players=[ANN, {**BOB, "name": "[b]x[/b]", "bot": True}]), "a"
    )
    assert row.game_id == 42 and "ann" in row.players and "[b]x[/b]" in row.players
    assert row.result and row.tags
    assert replay_link("ws://10.0.0.5:8765/", 42) == "http://10.0.0.5:8765/#replay/42"
    assert replay_link("wss://games.lan/", 7) == "https://games.lan/#replay/7"


def test_features_of_an_older_welcome_are_none() -> None:
    assert features(object()) == frozenset()
    assert features(argparse.Namespace(features=["history", "ratings"])) == {"history", "ratings"}


def test_replay_option_takes_a_game_id_only() -> None:
    assert game_id("42") == 42
    for bad in ("0", "-3", "x", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            game_id(bad)


def gomoku_replay(moves: list[list[int]], line: list[list[int]] | None = None) -> dict[str, Any]:
    steps = []
    for k in range(1, len(moves) + 1):
        view: dict[str, Any] = {"size": 15, "moves": moves[:k]}
        if k == len(moves) and line:
            view["line"] = line
        steps.append({"t": float(k), "by": "a" if k % 2 else "b", "view": view, "delta": {}})
    return {
        "type": "replay",
        "game_id": 4,
        "game": "gomoku",
        "options": {"size": 15},
        "players": [ANN, BOB],
        "result": {"winner": "a"},
        "started_at": 0.0,
        "ended_at": 9.0,
        "rated": False,
        "start": {"size": 15, "moves": []},
        "steps": steps,
    }


def test_replay_steps_numbers_the_stones_and_shows_the_five_at_the_end() -> None:
    moves = [[3, 7], [3, 8], [4, 7], [4, 8], [5, 7], [5, 8], [6, 7], [6, 8], [7, 7]]
    five = [[x, 7] for x in range(3, 8)]
    player = ReplayPlayer(gomoku_replay(moves, five))
    assert player.count == 9 and player.counter() == "0 / 9"
    assert gomoku_frame(player).numbers == {}
    player.forward()
    player.forward()
    frame = gomoku_frame(player)
    assert frame.numbers == {(3, 7): 1, (3, 8): 2} and not frame.line
    assert player.counter() == "2 / 9" and player.by_name() == "bob"
    assert player.go(-5) and player.index == 0  # clamped at the start
    assert not player.back() and player.index == 0
    player.go(99)
    assert player.counter() == "9 / 9"
    frame = gomoku_frame(player)
    assert frame.line == {(x, 7) for x in range(3, 8)} and frame.numbers[(7, 7)] == 9
    assert "9" in tui_gomoku.replay_text(GomokuBoard.from_view(player.view()), frame).plain
    player.go(4)  # jumping back folds from the start again
    assert gomoku_frame(player).numbers == {(3, 7): 1, (3, 8): 2, (4, 7): 3, (4, 8): 4}


def test_analysis_marks_a_move_and_shows_the_best_point() -> None:
    moves = [[3, 7], [3, 8], [4, 7], [4, 8]]
    player = ReplayPlayer(gomoku_replay(moves))
    assert not player.take_analysis({"game_id": 5, "status": "done", "moves": []})
    player.take_analysis(
        {
            "game_id": 4,
            "status": "done",
            "moves": [
                {"n": 3, "eval": 20, "best": [4, 7]},
                {"n": 4, "eval": -1000, "best": [5, 7], "mark": "missed-vcf"},
            ],
        }
    )
    assert player.marked() == [4]
    assert player.next_marked() and player.index == 4
    assert not player.next_marked() and player.index == 4  # round to the only one
    player.go(4)
    frame = gomoku_frame(player)
    assert frame.marked and frame.best == (5, 7)
    assert "F8" in player.note_text() and "4" in player.note_text()
    player.go(3)
    assert gomoku_frame(player).best is None  # the move played was the best one


def test_a_blunder_says_the_move_that_would_have_stopped_the_win() -> None:
    player = ReplayPlayer(gomoku_replay([[3, 7], [3, 8], [4, 7], [14, 14]]))
    player.take_analysis(
        {
            "game_id": 4,
            "status": "done",
            "moves": [{"n": 4, "eval": -300, "best": [5, 7], "mark": "blunder"}],
        }
    )
    assert player.marked() == [4]
    player.go(4)
    assert gomoku_frame(player).best == (5, 7)
    assert player.note_text().startswith(
        "Move 4 let the opponent force a win; F8 would have stopped it."
    )


def test_autoplay_stops_at_the_end_and_restarts_from_the_start() -> None:
    player = ReplayPlayer(gomoku_replay([[1, 1], [2, 2]]))
    assert player.toggle() and player.playing
    player.forward()
    player.forward()
    assert not player.playing and player.index == 2
    assert player.toggle() and player.index == 0
    assert player.faster(True) > player.faster(False) / 2 and player.interval > 0


def test_a_board_beyond_the_protocol_is_refused() -> None:
    answer = gomoku_replay([])
    answer["start"] = {"size": 100000, "moves": []}
    with pytest.raises(ReplayError):
        ReplayPlayer(answer)
    answer = gomoku_replay([[1, 1]])
    answer["steps"][0]["view"]["size"] = 100000  # a later frame: refused when shown
    player = ReplayPlayer(answer)
    player.go(1)
    with pytest.raises(ReplayError):
        gomoku_frame(player)


def test_minesweeper_cells_take_the_colour_of_who_opened_them_and_hits_show() -> None:
    start = {"width": 4, "height": 2, "mines": 1, "rows": ["####", "####"]}
    steps = [
        {"t": 1.0, "by": "a", "view": {**start, "rows": ["0011", "01##"]}, "delta": {}},
        {"t": 2.0, "by": "b", "view": {**start, "rows": ["0011", "01#F"]}, "delta": {}},
        {
            "t": 3.0,
            "by": "b",
            "view": {**start, "rows": ["0011", "01*X"], "hit": [[3, 1, "b"]]},
            "delta": {},
        },
    ]
    answer = {
        "game_id": 2,
        "game": "minesweeper",
        "options": {},
        "players": [ANN, BOB],
        "result": {},
        "start": start,
        "steps": steps,
    }
    player = ReplayPlayer(answer)
    player.go(2)
    frame = mines_frame(player)
    assert frame.owners[(0, 0)] == "#ff0000" and frame.owners[(3, 1)] == "#0000ff"
    assert not frame.hits
    player.go(3)
    frame = mines_frame(player)
    assert frame.hits == {(3, 1): "#0000ff"}
    assert (2, 1) not in frame.owners  # a mine the end shows is nobody's
    assert "✱" in tui_mines.replay_text(MinesBoard.from_view(player.view()), frame).plain


def test_linkmatch_shows_every_racer_and_the_path_on_the_linker_board() -> None:
    rows = [[1, 2], [2, 1]]
    start = {"width": 2, "height": 2, "boards": {"a": rows, "b": rows}}
    after = {"width": 2, "height": 2, "boards": {"a": [[0, 2], [2, 0]], "b": rows}}
    answer = {
        "game_id": 3,
        "game": "linkmatch",
        "options": {},
        "players": [ANN, BOB],
        "result": {},
        "start": start,
        "steps": [
            {
                "t": 1.0,
                "by": "a",
                "view": after,
                "delta": {},
                "path": [[0, 0], [-1, 0], [-1, 1], [1, 1]],
            }
        ],
    }
    player = ReplayPlayer(answer)
    assert [f.title for f in link_frames(player)] == ["ann", "bob"]
    player.forward()
    frames = link_frames(player)
    boards = [LinkBoard.from_view(f.view) for f in frames]
    assert frames[0].active and boards[0].path and not frames[1].active and not boards[1].path
    assert boards[0].kind(0, 0) == 0 and boards[1].kind(0, 0) == 1


def test_leaderboard_rows_mark_me_provisional_and_computers() -> None:
    answer = {
        "game": "gomoku",
        "total": 12,
        "offset": 0,
        "rows": [
            {
                "rank": 1,
                "player": "x",
                "name": "cpu",
                "rating": 1500,
                "games": 0,
                "bot": True,
                "provisional": False,
            },
            {
                "rank": 2,
                "player": "a",
                "name": "ann",
                "rating": 1210.4,
                "games": 3,
                "provisional": True,
            },
        ],
    }
    rows = rank_rows(answer, "a")
    assert rows[1].me and rows[1].rating == "1210?" and "cpu" in rows[0].name
    assert rows[0].bot and not rows[1].bot
    assert "2" in my_rank(answer, "a") and "12" in my_rank(answer, "a")
    assert board_request("gomoku", around="a") == {
        "type": "leaderboard",
        "game": "gomoku",
        "limit": 20,
        "around": "a",
    }
    assert board_request("minesweeper")["type"] == "records"


def test_profile_ratings_draw_their_history_as_a_sparkline() -> None:
    profile = {
        "ratings": {
            "gomoku": {
                "rating": 1300,
                "games": 4,
                "wins": 3,
                "provisional": True,
                "history": [[1.0, 1000, 1], [2.0, 1200, 2], [3.0, 1300, 3]],
            }
        }
    }
    (line,) = rating_lines(profile)
    assert line.trend == "▁▆█" and line.last_change == "+100" and line.rating == "1300?"
    assert sparkline([]) == ""


def test_team_records_show_the_best_time_with_its_team() -> None:
    (row,) = record_rows(
        [
            {
                "board": "beginner",
                "no_guess": True,
                "lives": 3,
                "games": 4,
                "wins": 2,
                "win_rate": 0.5,
                "best": [
                    {"time": 31.25, "game_id": 8, "names": ["ann", "bob"]},
                    {"time": 40.0, "game_id": 9, "names": ["ann"]},
                ],
            }
        ]
    )
    assert (row.best, row.team, row.game_id, row.win_rate) == ("31.2 s", "ann, bob", 8, "50%")
    assert "beginner" in row.preset and "3" in row.preset
    (mine,) = record_rows(
        [
            {
                "board": "expert",
                "no_guess": False,
                "lives": 1,
                "games": 1,
                "wins": 1,
                "win_rate": 1.0,
                "best": 99.0,
                "best_game": 3,
            }
        ]
    )
    assert (mine.best, mine.game_id, mine.preset) == ("99.0 s", 3, "expert")


def test_a_rated_game_over_tells_my_rating_change() -> None:
    ratings = {"a": {"before": 1000, "after": 1032.4}, "b": {"before": 990, "after": 960}}
    assert rating_change(ratings, "a") == "Your rating: 1000 → 1032 (+32)"
    assert rating_change(ratings, "c") is None and rating_change(None, "a") is None


def test_a_replay_whose_steps_do_not_fold_says_so() -> None:
    answer = gomoku_replay([[1, 1]])
    answer["steps"][0]["delta"] = {"moves": {"at": 5, "append": [[2, 2]]}}
    player = ReplayPlayer(answer)
    player.go(1)
    with pytest.raises(ReplayError):
        gomoku_frame(player)


def test_history_and_replay_options_open_their_screen(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path))
    assert opening(parse_args(["--replay", "42"])) == Opening(replay=42)
    assert opening(parse_args(["--history"])) == Opening(history=True)
    assert not opening(parse_args([]))


def test_a_long_replay_grows_page_by_page() -> None:
    moves = [[x, y] for y in range(4) for x in range(15)][:50]
    answer = gomoku_replay(moves)
    later = answer["steps"][30:]
    answer["steps"] = answer["steps"][:30]
    player = ReplayPlayer(answer)
    player.go(30)
    assert player.count == 30 and gomoku_frame(player).numbers[(14, 1)] == 30
    player.extend({"steps": later})
    assert player.count == 50 and player.go(50)
    assert len(gomoku_frame(player).numbers) == 50 and player.by_name() == "bob"


@pytest.mark.parametrize(
    "bad",
    [
        {"game_id": "x", "game": 5, "players": "ann", "result": "won", "options": [1]},
        {
            "game_id": 3,
            "game": "gomoku",
            "players": [1, None, {"name": {}}],
            "result": {"winner": [], "reason": {}},
            "ended_at": "soon",
            "moves": None,
        },
        {"game_id": 4, "game": "minesweeper", "result": {"reason": "meteor"}, "rated": "yes"},
    ],
)
def test_a_summary_of_any_shape_is_a_row_never_a_crash(bad: dict[str, Any]) -> None:
    row = game_row(bad, "a")
    assert isinstance(row.result, str) and isinstance(row.players, str)


@pytest.mark.parametrize(
    "bad",
    [
        {"rows": [{"rank": "1", "rating": "x"}, 5], "total": "many"},
        {
            "ratings": {"gomoku": {"history": 5, "rating": None}, "x": 3},
            "recent": [{"game_id": 2}],
            "records": {"minesweeper": [{"best": [{"time": "x", "names": 5}], "win_rate": "half"}]},
        },
        {"ratings": {"gomoku": {"history": [[1, "x"], 7, [2.0, 1100]]}}, "records": [1]},
    ],
)
def test_leaderboards_and_profiles_of_any_shape_are_rows_never_a_crash(bad: Any) -> None:
    rank_rows(bad, "a")
    my_rank(bad, "a")
    rating_lines(bad)
    recent_rows(bad, "a")
    profile_records(bad)
    record_rows([bad])
