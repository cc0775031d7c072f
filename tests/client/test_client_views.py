"""The display-free view classes the terminal and Tk clients share: board models,
status lines (with clocks at an injected ``now``), roles, actions, event texts,
results, bars and the lobby. No display needed."""

from __future__ import annotations

import importlib
from dataclasses import replace
from enum import StrEnum

import pytest

from gridhall import protocol as p
from gridhall.client.messages import Refused
from gridhall.client.room import apply
from gridhall.client.views import VIEWS, view_for
from gridhall.client.views.base import (
    REASONS,
    action_request,
    action_states,
    answer_request,
    banner,
    offer_bar,
    status_line,
    yes_no_request,
)
from gridhall.client.views.common import error_text, error_title, player_lines
from gridhall.client.views.gomoku import CURSOR_BG, GomokuBoard, GomokuView
from gridhall.client.views.linkmatch import LinkBoard, LinkMatchView, LinkSelection, kind_look
from gridhall.client.views.lobby import room_rows
from gridhall.client.views.minesweeper import NUMBER_COLORS, MinesBoard, MinesweeperView, next_mark
from gridhall.protocol import Termination
from gridhall.protocol.games import GAMES
from tests.client.helpers import make_state, room_of

NOW = 1_800_000_000.0
"""An injected wall-clock time: every clock below is computed against it."""


def gomoku_state(moves: list[list[int]], **fields: object) -> p.State:
    players = [
        {"player": "a", "name": "ann", "seat": 0, "connected": True},
        {"player": "b", "name": "bob", "seat": 1, "connected": False},
    ]
    view = {
        "size": 15,
        "moves": moves,
        "next": "white" if len(moves) % 2 else "black",
        "colors": {"a": "black", "b": "white"},
    }
    return make_state(
        "gomoku", players=players, view=view, turn="b" if len(moves) % 2 else "a", **fields
    )


# ---- Gomoku ----------------------------------------------------------------------------


def test_gomoku_marks_stones_last_move_and_cursor() -> None:
    board = GomokuBoard.from_view(gomoku_state([[7, 7], [8, 8]]).view)
    black, white = board.look(7, 7), board.look(8, 8)
    assert black.glyph == "●" and white.glyph == "◎"  # white is hollow; the last is ringed
    assert black.fg != white.fg
    later = GomokuBoard.from_view(gomoku_state([[7, 7], [8, 8], [6, 6]]).view)
    # Black and white differ in shape, not only in colour (monochrome terminals, colour
    # blindness), and so do the last stones of each.
    assert (later.look(8, 8).glyph, later.look(6, 6).glyph) == ("○", "◉")
    assert board.look(0, 0).glyph == "┌" and board.look(14, 14).glyph == "┘"
    assert board.look(3, 3, cursor=(3, 3)).bg == CURSOR_BG
    assert board.coord(7, 7) == "H8"  # no letter I


def test_gomoku_status_names_whose_move_and_offers() -> None:
    view = GomokuView()
    state = gomoku_state([[7, 7]])
    assert view.status(room_of(state), "b", NOW).startswith("Your move (white)")
    assert view.status(room_of(state), "a", NOW).startswith("bob to move")
    offered = replace(state, view={**state.view, "pending": {"kind": "draw", "from": "a"}})
    assert view.offer_text(offered, "b") == "ann asks for a draw."
    assert view.offer_text(offered, "a") == "You asked for a draw; waiting for an answer."
    lines = player_lines(state, "a", view.roles(state))
    assert [(pl.name, pl.role, pl.to_move, pl.connected) for pl in lines] == [
        ("ann", "black", False, True),
        ("bob", "white", True, False),
    ]


def test_gomoku_turn_is_the_servers_not_worked_out_from_the_view() -> None:
    state = replace(gomoku_state([[7, 7]]), turn=None)  # e.g. a server that did not say
    assert not any(line.to_move for line in player_lines(state, "a", {}))
    assert GomokuView().click(room_of(state), "b", 8, 8) is None


def test_gomoku_clock_counts_down_for_the_player_to_move_only() -> None:
    view = GomokuView()
    clock = {
        "remaining": {"a": 600.0, "b": 587.5},
        "increment": 5.0,
        "running": "b",
        "since": NOW - 42.0,
    }
    state = gomoku_state([[7, 7]], options={"clock": {"minutes": 10, "increment": 5}})
    state = replace(state, view={**state.view, "clock": clock})
    assert view.clocks(state, NOW) == {"a": 600.0, "b": 545.5}
    assert view.clocks(state, NOW + 60) == {"a": 600.0, "b": 485.5}
    assert view.clocks(state, NOW + 10_000)["b"] == 0.0  # never below zero
    assert view.status(room_of(state), "a", NOW).endswith("ann 10:00, bob 9:05")
    assert view.status(room_of(state), "a", NOW + 60).endswith("ann 10:00, bob 8:05")
    assert state.view["clock"]["remaining"]["b"] == 587.5  # the copy is never touched
    over = replace(state, status="over")
    assert view.clocks(over, NOW + 60)["b"] == 587.5  # a finished game's clocks stand


def test_gomoku_clocks_follow_the_servers_time_on_a_machine_whose_clock_is_off() -> None:
    """Our clock is an hour ahead of the server's: the move's clock ``since`` says so, and
    bob's clock reads its full time right after ann's move, not an hour less."""
    view = GomokuView()
    state = gomoku_state([], options={"clock": {"minutes": 10, "increment": 5}})
    state = replace(
        state,
        view={
            **state.view,
            "clock": {
                "remaining": {"a": 600.0, "b": 600.0},
                "increment": 5.0,
                "running": "a",
                "since": NOW - 3600.0,
            },
        },
    )
    server_now = NOW - 3600.0
    clock = {
        "remaining": {"a": 605.0, "b": 600.0},
        "increment": 5.0,
        "running": "b",
        "since": server_now,
    }
    moved = p.Moved(
        room=state.room,
        seq=state.seq + 1,
        by="a",
        move={"x": 7, "y": 7},
        view={**gomoku_state([[7, 7]]).view, "clock": clock},
        turn="b",
    )
    room = apply(room_of(state), moved, "a", NOW).room
    assert room is not None
    assert view.status(room, "a", NOW).endswith("ann 10:05, bob 10:00")
    assert view.status(room, "a", NOW + 61).endswith("ann 10:05, bob 8:59")


def test_gomoku_click_only_on_our_turn_and_empty_points() -> None:
    view = GomokuView()
    room = room_of(gomoku_state([[7, 7]]))  # bob (white) to move
    assert view.click(room, "b", 8, 8) == p.Move(move={"x": 8, "y": 8})
    assert view.click(room, "b", 7, 7) is None  # a stone is there
    assert view.click(room, "b", 15, 0) is None  # off the board
    assert view.click(room, "a", 8, 8) is None  # not ann's turn
    assert view.click(room_of(replace(room.state, status="over")), "b", 8, 8) is None


# ---- Minesweeper -----------------------------------------------------------------------


def test_minesweeper_cells_keep_hidden_and_zero_apart() -> None:
    board = MinesBoard.from_view(
        {"width": 4, "height": 1, "mines": 1, "rows": ["#0F3"], "flags": 1}
    )
    hidden, zero, flag, three = (board.look(x, 0) for x in range(4))
    assert hidden.bg != zero.bg and hidden.glyph != zero.glyph
    assert flag.glyph == "⚑"
    assert three.glyph == "3" and three.fg == NUMBER_COLORS["3"]
    assert board.mines_left() == 0
    assert next_mark("#") == "flag" and next_mark("F") == "question"
    assert next_mark("?") == "none"


def test_minesweeper_after_a_loss_shows_mines_and_wrong_flags() -> None:
    board = MinesBoard.from_view({"width": 3, "height": 1, "mines": 2, "rows": ["*XW"]})
    mine, exploded, wrong = (board.look(x, 0) for x in range(3))
    assert mine.glyph == exploded.glyph and mine.bg != exploded.bg
    assert wrong.glyph == "✗"


def test_minesweeper_buttons_reveal_mark_and_chord() -> None:
    board = MinesBoard.from_view(
        {"width": 3, "height": 3, "mines": 1, "rows": ["#F#", "?1#", "###"]}
    )

    def move(x: int, y: int, button: str) -> dict[str, object] | None:
        request = board.click(x, y, button)  # type: ignore[arg-type]
        assert request is None or isinstance(request, p.Move)
        return request.move if request else None

    assert move(0, 0, "primary") == {"action": "reveal", "x": 0, "y": 0}
    assert move(0, 0, "secondary") == {"action": "mark", "x": 0, "y": 0, "mark": "flag"}
    assert move(1, 0, "secondary") == {"action": "mark", "x": 1, "y": 0, "mark": "question"}
    assert move(0, 1, "secondary") == {"action": "mark", "x": 0, "y": 1, "mark": "none"}
    assert move(1, 1, "primary") == {"action": "chord", "x": 1, "y": 1}  # 1 flag around a 1
    assert move(1, 1, "secondary") == {"action": "flag-around", "x": 1, "y": 1}
    assert move(1, 1, "chord") == {"action": "chord", "x": 1, "y": 1}
    assert move(1, 0, "primary") is None  # a flagged cell does not open
    assert move(0, 0, "chord") is None  # chording a hidden cell would be refused
    assert move(3, 0, "primary") is None  # off the board
    assert board.flag_around(1, 1) == p.Move(move={"action": "flag-around", "x": 1, "y": 1})
    assert board.flag_around(0, 0) is None


def test_minesweeper_click_on_a_number_chords_only_when_satisfied() -> None:
    board = MinesBoard.from_view({"width": 3, "height": 2, "mines": 2, "rows": ["F2#", "#1#"]})
    assert not board.satisfied(1, 0)  # one flag around a 2
    assert board.satisfied(1, 1)  # one flag around a 1
    assert not board.satisfied(0, 0)  # not a number
    assert board.click(1, 0, "primary") is None


def test_minesweeper_clicks_only_while_the_game_runs() -> None:
    view = MinesweeperView()
    state = make_state(
        "minesweeper", view={"width": 9, "height": 9, "mines": 10, "rows": ["#" * 9] * 9}
    )
    assert view.click(room_of(state), "a", 4, 4, "primary") == p.Move(
        move={"action": "reveal", "x": 4, "y": 4}
    )
    assert view.click(room_of(replace(state, status="over")), "a", 4, 4, "primary") is None


def test_minesweeper_clock_runs_from_the_first_reveal_between_events() -> None:
    view = MinesweeperView()
    base = {"width": 9, "height": 9, "mines": 10, "rows": ["#" * 9] * 9, "elapsed": 12.5}
    started = room_of(make_state("minesweeper", view={**base, "revealed": 20}), view_at=NOW)
    assert view.live_view(started, "a", NOW + 3)["elapsed"] == 15.5
    assert "⏱ 0:15" in view.status(started, "a", NOW + 3)
    assert started.state is not None and started.state.view["elapsed"] == 12.5  # untouched
    unopened = room_of(make_state("minesweeper", view={**base, "revealed": 0}), view_at=NOW)
    assert view.live_view(unopened, "a", NOW + 5)["elapsed"] == 12.5
    over = room_of(
        make_state("minesweeper", status="over", view={**base, "revealed": 20}), view_at=NOW
    )
    assert view.live_view(over, "a", NOW + 5)["elapsed"] == 12.5


def test_minesweeper_status_roles_and_co_op_results() -> None:
    view = MinesweeperView()
    stats = {"a": {"revealed": 23, "flagged": 1, "mines_hit": 1}, "b": {"revealed": 4}}
    state = make_state(
        "minesweeper",
        view={
            "width": 9,
            "height": 9,
            "mines": 10,
            "rows": ["#" * 9] * 9,
            "flags": 3,
            "revealed": 27,
            "elapsed": 61,
            "lives": 2,
            "lives_left": 1,
            "stats": stats,
            "left": ["b"],
            "hint": {"x": 0, "y": 8, "safe": True},
            "last": {"b": {"action": "reveal", "x": 2, "y": 3}},
        },
    )
    line = view.status(room_of(state, view_at=NOW), "a", NOW)
    assert line.split(" · ") == [
        "⚑ 7 mines left",
        "⏱ 1:01",
        "27/71 open",
        "♥ 1/2",
        "hint: A9 is safe",
        "bob opened C4",
    ]
    assert view.roles(state) == {"a": "23 opened, 1 hit", "b": "left the game"}
    won = replace(state, status="over", result={"winner": None, "reason": "cleared"})
    assert view.result_text(won, "a") == "Board cleared — everyone wins!"
    lost = replace(won, result={"winner": None, "reason": "mine", "by": "b"})
    assert view.result_text(lost, "a") == "Boom! bob hit a mine."
    assert view.result_text(replace(won, result={"reason": "resign"}), "a") == (
        "Everyone left the game."
    )


# ---- Link-match ------------------------------------------------------------------------


def test_linkmatch_kinds_frames_and_paths() -> None:
    looks = {kind_look(k).glyph for k in range(1, 37)}
    assert len(looks) == 36  # every default kind has its own glyph
    board = LinkBoard.from_view(
        {
            "width": 3,
            "height": 1,
            "rows": [[1, 0, 1]],
            "remaining": 2,
            "path": [[0, 0], [0, -1], [2, -1], [2, 0]],
        }
    )
    assert board.look(0, 0, selected=(0, 0)).glyph.startswith("[")
    assert board.look(1, -1, show_path=True).glyph == "───"
    assert board.look(0, -1, show_path=True).glyph.strip() == "┌─"
    assert board.look(1, -1).glyph == "   "  # no path once the moment is over


def test_link_selection_needs_two_tiles() -> None:
    board = LinkBoard.from_view({"width": 2, "height": 2, "rows": [[1, 0], [0, 1]]})
    sel = LinkSelection()
    assert sel.click(board, 0, 0) is None and sel.selected == (0, 0)
    assert sel.click(board, 0, 0) is None and sel.selected is None  # a second click deselects
    sel.click(board, 0, 0)
    assert sel.click(board, 1, 1) == p.Move(move={"action": "link", "a": [0, 0], "b": [1, 1]})
    assert sel.click(board, 1, 0) is None and sel.selected is None  # empty cell
    sel.click(board, 0, 0)
    sel.forget_if_gone(LinkBoard.from_view({"width": 2, "height": 2, "rows": [[0, 0], [0, 1]]}))
    assert sel.selected is None  # the tile was linked away


def test_linkmatch_clicks_need_our_own_tiles_in_a_running_race() -> None:
    view, sel = LinkMatchView(), LinkSelection()
    rows = {"width": 2, "height": 1, "rows": [[1, 1]]}
    watching = room_of(make_state("linkmatch", view={"width": 2, "height": 1}))
    assert view.click(watching, "a", sel, 0, 0, NOW) is None and sel.selected is None
    racing = room_of(make_state("linkmatch", view=rows))
    assert view.click(racing, "a", sel, 0, 0, NOW) is None and sel.selected == (0, 0)
    assert view.click(racing, "a", sel, 1, 0, NOW) == p.Move(
        move={"action": "link", "a": [0, 0], "b": [1, 0]}
    )


def test_status_lines_for_race_and_results() -> None:
    view = LinkMatchView()
    state = make_state(
        "linkmatch",
        options={"time_limit": 600},
        view={
            "remaining": 40,
            "elapsed": 61,
            "progress": {"a": 40, "b": 38},
            "standing": {"a": "racing", "b": "racing"},
        },
    )
    line = view.status(room_of(state, view_at=NOW), "a", NOW)
    assert "40 tiles left" in line and "1:01 / 10:00" in line and "bob 38" in line
    state = replace(state, status="over", result={"winner": "b", "reason": "cleared"})
    # a race result says who cleared first, not "wins by board cleared" (issue 23)
    assert view.result_text(state, "a") == "bob cleared the board first and wins the race."
    assert view.result_text(state, "b") == "You cleared the board first and win the race!"


def test_linkmatch_countdown_then_clock_runs_on_between_events() -> None:
    view = LinkMatchView()
    counting = room_of(
        make_state("linkmatch", view={"elapsed": 0.0, "starts_in": 3.0}), view_at=NOW
    )
    assert view.live_view(counting, "a", NOW + 1)["starts_in"] == 2.0
    assert view.live_view(counting, "a", NOW + 1)["elapsed"] == 0.0
    assert view.status(counting, "a", NOW + 1).startswith("Starting in 2…")
    assert view.live_view(counting, "a", NOW + 5.5) == {"elapsed": 2.5, "starts_in": 0.0}
    racing = room_of(make_state("linkmatch", view={"elapsed": 10.0}), view_at=NOW)
    assert view.live_view(racing, "a", NOW + 2.5)["elapsed"] == 12.5
    cleared = room_of(
        make_state("linkmatch", view={"elapsed": 41.7, "standing": {"a": "cleared"}}), view_at=NOW
    )
    assert view.live_view(cleared, "a", NOW + 30)["elapsed"] == 41.7  # a finished racer's stands


def test_linkmatch_roles_and_notices() -> None:
    view = LinkMatchView()
    state = make_state(
        "linkmatch",
        view={"progress": {"a": 40, "b": 0}, "standing": {"a": "racing", "b": "cleared"}},
    )
    assert view.roles(state) == {"a": "40 left", "b": "0 left (cleared)"}
    room = room_of(state)
    said = [
        view.event_text(p.Notice(room="AB12CD", seq=6, event=event, data=data), room, "a")
        for event, data in (
            ("race-start", {}),
            ("time-up", {"player": "b"}),
            ("cleared", {"player": "b", "time": 41.7}),
            ("shuffled", {"player": "a"}),
            ("new-thing", {}),
        )
    ]
    assert said == [
        "Go! The race is on.",
        "bob ran out of time.",
        "bob cleared the board in 0:41.",
        "No moves were left for ann: the board was shuffled.",
        "New thing.",
    ]


# ---- what every game shares ------------------------------------------------------------


def test_event_texts_name_who_did_what_and_skip_our_own() -> None:
    view = view_for("gomoku")
    room = room_of(gomoku_state([[7, 7]]))

    def said(msg: object, me: str = "a") -> str | None:
        return view.event_text(msg, room, me)  # type: ignore[arg-type]

    ev = {"room": "AB12CD", "seq": 6}
    assert (
        said(p.Joined(**ev, role="spectator", player="c", name="cy")) == "cy joined as a spectator."
    )
    assert said(p.Left(**ev, player="b")) == "bob left the room."
    assert said(p.Resigned(**ev, player="b")) == "bob resigned."
    assert said(p.Resigned(**ev, player="a")) is None  # we know what we did
    assert said(p.PlayAgainEvent(**ev, sender="b")) == (
        "bob wants another game: Agree (y) or Decline (n)."
    )
    assert said(p.AgreeAgainEvent(**ev, sender="b")) == "bob agreed to another game."
    assert said(p.DeclineAgainEvent(**ev, sender="b")) == "bob declined another game."
    assert said(p.AnswerEvent(**ev, sender="b", kind="takeback", accept=False)) == (
        "bob declined the take-back request."
    )
    assert said(p.AnswerEvent(**ev, sender="b", kind="draw", accept=True)) == (
        "bob accepted the draw offer."
    )
    offered = room_of(
        replace(
            room.state,
            view={
                **room.state.view,  # type: ignore[union-attr]
                "pending": {"kind": "draw", "from": "b"},
            },
        )
    )
    assert view.event_text(p.OfferEvent(**ev, sender="b", kind="draw"), offered, "a") == (
        "bob asks for a draw."
    )
    assert said(p.Moved(**ev, by="b", move={"x": 1, "y": 1}, view={})) is None
    assert said(p.ChatEvent(**ev, sender="b", name="bob", text="hi", ts=0.0)) is None
    over = room_of(
        replace(
            room.state,
            status="over",  # type: ignore[arg-type]
            result={"winner": "a", "reason": "five"},
        )
    )
    assert (
        view.event_text(p.GameOver(**ev, result={"winner": "a", "reason": "five"}), over, "a")
        == "You win by five in a row!"
    )


def test_every_termination_reads_as_a_sentence() -> None:
    view = view_for("gomoku")
    for termination in Termination:
        for winner in ("a", "b", None):
            state = make_state(
                "gomoku", status="over", result={"winner": winner, "reason": termination.value}
            )
            text = view.result_text(state, "a")
            assert text.endswith((".", "!")) and REASONS[termination] in text


@pytest.mark.parametrize("game", list(GAMES))
def test_each_games_own_ways_to_end_have_words(game: str) -> None:
    """A game declares its terminations (a StrEnum beside its description) and words
    each of them; a result by any of them reads as a sentence."""
    module = importlib.import_module(f"gridhall.protocol.games.{game}")
    own = [
        value
        for thing in vars(module).values()
        if isinstance(thing, type) and issubclass(thing, StrEnum) and thing is not StrEnum
        for value in thing
    ]
    assert own, f"{game} declares no terminations"
    words = GAMES[game].words.get("reasons", {})
    view = view_for(game)
    for reason in own:
        assert reason.value in words, (game, reason)
        state = make_state(game, status="over", result={"winner": None, "reason": reason.value})
        assert view.result_text(state, "a").endswith((".", "!"))
    unknown = make_state("gomoku", status="over", result={"winner": None, "reason": "meteor"})
    assert view.result_text(unknown, "a") == "Game over."
    agreed = make_state("gomoku", status="over", result={"winner": None, "reason": "agreed-draw"})
    assert view.result_text(agreed, "a") == "Draw by agreement."


def test_actions_show_and_send_by_their_rules() -> None:
    gomoku = view_for("gomoku")
    state = gomoku_state([[7, 7]])
    shown = {a.action.key: (a.shown, a.enabled) for a in action_states(gomoku, state, "a")}
    assert shown == {
        "draw": (True, True),
        "takeback": (True, True),
        "resign": (True, True),
        "leave": (True, True),
    }
    spectator = {a.action.key: a.shown for a in action_states(gomoku, state, "c")}
    assert spectator == {"draw": False, "takeback": False, "resign": False, "leave": True}
    assert action_request(gomoku, "draw", state, "a") == p.Offer(kind="draw")
    assert action_request(gomoku, "takeback", state, "a") == p.Offer(kind="takeback")
    assert action_request(gomoku, "draw", replace(state, status="over"), "a") is None
    assert action_request(gomoku, "leave", replace(state, status="over"), "a") == p.LeaveRoom()
    assert action_request(gomoku, "no-such-action", state, "a") is None

    link = view_for("linkmatch")
    waiting = make_state("linkmatch", status="waiting", creator="a")
    assert action_request(link, "start", waiting, "a") == p.Start()
    assert action_request(link, "start", waiting, "b") is None  # only the creator starts
    counting = make_state("linkmatch", view={"starts_in": 2.0, "rows": [[1, 1]]})
    assert action_request(link, "hint", counting, "a") is None  # not before the start
    racing = make_state("linkmatch", view={"rows": [[1, 1]]})
    assert action_request(link, "hint", racing, "a") == p.Move(move={"action": "hint"})
    assert action_request(link, "shuffle", racing, "a") == p.Move(move={"action": "shuffle"})
    assert action_request(view_for("minesweeper"), "hint", racing, "a") == p.Move(
        move={"action": "hint"}
    )


def test_banner_offers_play_again_then_agree() -> None:
    view = view_for("gomoku")
    state = make_state(
        "gomoku",
        status="over",
        result={"winner": "a", "reason": "five"},
        players=[{"player": "a", "name": "Ann"}, {"player": "b", "name": "Bob"}],
    )
    room = room_of(state)
    bar = banner(view, room, "a")
    assert bar is not None and bar.again and not bar.agree and "You win" in bar.text
    bar = banner(view, replace(room, again=("b",)), "a")
    assert (
        bar is not None and bar.agree and bar.decline and not bar.again and "Bob wants" in bar.text
    )
    bar = banner(view, replace(room, again=("a",)), "a")
    assert bar is not None and not (bar.again or bar.agree) and "Waiting for the others" in bar.text
    bar = banner(view, replace(room, declined=("b",)), "a")
    assert bar is not None and bar.text.endswith("Bob declined.")
    assert banner(view, room_of(make_state("gomoku")), "a") is None


def test_offer_bar_lets_only_the_other_player_answer() -> None:
    view = view_for("gomoku")
    state = make_state("gomoku", view={"pending": {"kind": "takeback", "from": "b"}})
    bar = offer_bar(view, state, "a")
    assert bar is not None and bar.can_answer
    theirs = offer_bar(view, state, "b")
    assert theirs is not None and not theirs.can_answer and "You asked" in theirs.text
    assert answer_request(bar, accept=True) == p.Answer(kind="takeback", accept=True)
    assert answer_request(theirs, accept=True) is None
    assert offer_bar(view, replace(state, status="over"), "a") is None
    assert offer_bar(view, make_state("gomoku"), "a") is None


def test_y_and_n_answer_the_pending_offer_before_the_question_of_another_game() -> None:
    view = view_for("gomoku")
    offered = make_state("gomoku", view={"pending": {"kind": "draw", "from": "b"}})
    bar = offer_bar(view, offered, "a")
    assert bar is not None and bar.text.endswith("Accept (y) or Decline (n).")
    assert yes_no_request(view, room_of(offered), "a", True) == p.Answer(kind="draw", accept=True)
    assert yes_no_request(view, room_of(offered), "a", False) == p.Answer(kind="draw", accept=False)
    assert yes_no_request(view, room_of(offered), "b", True) is None  # our own offer
    over = make_state("gomoku", status="over", result={"winner": "a", "reason": "five"})
    asked = replace(room_of(over), again=("b",))
    assert yes_no_request(view, asked, "a", True) == p.AgreeAgain()
    assert yes_no_request(view, asked, "a", False) == p.DeclineAgain()
    # Nothing waits for an answer: nothing is sent (no "Nobody has asked" refusal).
    assert yes_no_request(view, room_of(over), "a", True) is None
    assert yes_no_request(view, room_of(make_state("gomoku")), "a", True) is None


def test_a_race_won_on_time_says_what_broke_the_tie() -> None:
    view = view_for("linkmatch")

    def said(decided: str, me: str = "a") -> str:
        result = {
            "winner": "b",
            "reason": "time",
            "ranking": ["b", "a"],
            "remaining": {"a": 12, "b": 8 if decided == "tiles" else 12},
            "decided_by": decided,
        }
        return view.result_text(make_state("linkmatch", status="over", result=result), me)

    assert said("tiles") == "Time is up: bob wins with the fewest tiles left (8; you 12)."
    assert said("first") == (
        "Time is up: bob wins: both bob and you had 12 tiles left, and bob got there first."
    )
    assert said("seat", me="b") == (
        "Time is up: you win: nobody linked a pair, so the first seat wins."
    )


def test_the_races_creator_is_told_to_start_it_and_the_others_who_will() -> None:
    view = view_for("linkmatch")
    room = room_of(make_state("linkmatch", status="waiting", creator="a"), view_at=NOW)
    assert view.status(room, "a", NOW).startswith("Press Start (g) when everyone is in")
    assert view.status(room, "b", NOW).startswith("Waiting for ann to start the race")
    assert "creator" not in view.status(room, "a", NOW)
    racing = make_state(
        "linkmatch", view={"progress": {"a": 10, "b": 30}, "standing": {"a": "racing", "b": "time"}}
    )
    assert view.roles(racing)["b"] == "30 left (out of time)"
    assert "bob 30 (out of time)" in view.status(room_of(racing, view_at=NOW), "a", NOW)


def test_the_race_is_started_by_the_host_once_the_creator_handed_over() -> None:
    view = view_for("linkmatch")
    waiting = make_state("linkmatch", status="waiting", creator="a", host="b")
    assert action_request(view, "start", waiting, "b") == p.Start()
    assert action_request(view, "start", waiting, "a") is None
    room = room_of(waiting, view_at=NOW)
    assert view.status(room, "b", NOW).startswith("Press Start (g) when everyone is in")
    assert view.status(room, "a", NOW).startswith("Waiting for bob to start the race")


def test_status_line_says_watching_and_reconnecting() -> None:
    view = view_for("linkmatch")
    room = room_of(make_state("linkmatch", status="waiting", creator="a"), view_at=NOW)
    assert status_line(view, room, "b", True, NOW).startswith("Waiting for ann to start")
    assert status_line(view, room, "c", True, NOW).startswith("Watching · ")
    assert status_line(view, room, "a", False, NOW).startswith("Reconnecting… · ")


def test_errors_always_have_a_sentence() -> None:
    assert error_text(Refused("room-full", "")).startswith("That room is full")
    assert error_text(Refused("x", "Server words.")) == "Server words."
    internal = Refused("internal-error", "KeyError: 'x'", "move")
    assert "not in what you did" in error_text(internal) and "KeyError" not in error_text(internal)
    assert error_title(internal) == "Server error"
    assert error_title(Refused("illegal-move", "No.", "move")) == "Move not made"


def test_refusal_titles_are_words_never_protocol_names() -> None:
    for request in p.CLIENT_MESSAGES:
        title = error_title(Refused("illegal-move", "No.", request))
        assert title != "Not done", f"{request} has no title of its own"
        assert not any(name in title for name in p.CLIENT_MESSAGES if "-" in name), title
        assert "refused" not in title
    assert error_title(Refused("not-playing", "x", "agree-again")) == "No new game"
    assert error_title(Refused("not-in-room", "x", "sync")) == "Could not catch up with the room"


def test_lobby_rows_and_presets() -> None:
    rows = room_rows(
        [
            {
                "room": "AB12CD",
                "game": "minesweeper",
                "options": {"preset": "expert"},
                "players": ["ann"],
                "spectators": 2,
                "status": "playing",
            }
        ]
    )
    assert rows[0].game == "Minesweeper" and rows[0].options == "expert"
    gomoku = view_for("gomoku")
    assert gomoku.options_text({"size": 19, "rule": "renju"}) == "19×19 renju"
    assert gomoku.options_text(
        {"size": 15, "rule": "freestyle", "ai": "hard", "clock": {"minutes": 10, "increment": 5}}
    ) == ("15×15 freestyle, 10+5, vs computer (hard)")
    custom = {"preset": None, "width": 40, "height": 20, "mines": 120, "no_guess": True, "lives": 3}
    assert view_for("minesweeper").options_text(custom) == "40×20, 120 mines, no guessing, 3 lives"
    assert all(cls.presets for cls in VIEWS.values())
    future = room_rows([{"room": "ZZ", "game": "go-fish", "options": {"decks": 2}}])[0]
    assert (future.game, future.options) == ("Go fish", "decks=2")  # unknown games still list


def test_gomoku_winning_line_comes_from_the_view_or_the_result() -> None:
    view = GomokuView()
    five = [[0, 0], [1, 1], [2, 2], [3, 3], [4, 4]]
    in_view = gomoku_state([[0, 0]], status="over")
    assert view.winning_line(replace(in_view, view={**in_view.view, "line": five}))[-1] == (4, 4)
    in_result = replace(in_view, result={"winner": "a", "reason": "five", "line": five})
    assert view.winning_line(in_result) == [(i, i) for i in range(5)]
    assert view.winning_line(replace(in_view, result={"winner": "a", "reason": "resign"})) == []
