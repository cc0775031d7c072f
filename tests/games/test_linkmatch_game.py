"""The race game behind a room: options, countdown, private boards, clocks, result."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from gridhall.server.games.base import GameError, OptionError
from gridhall.server.games.linkmatch import SPEC, available_pairs, find_path
from gridhall.server.games.linkmatch.game import LinkMatchGame

T0 = 1000.0


def new_race(players: list[str], now: float = T0, **raw: Any) -> LinkMatchGame:
    options = SPEC.parse_options({"width": 4, "height": 4, "kinds": 2, "countdown": 0, **raw})
    game = SPEC.new_game(options, players, 0, 42, now)
    assert isinstance(game, LinkMatchGame)
    return game


def link_any(game: LinkMatchGame, player: str, now: float) -> None:
    """Make one correct link without asking for a hint (no penalty)."""
    a, b = available_pairs(game.view(player)["rows"])[0]
    game.apply(player, {"action": "link", "a": list(a), "b": list(b)}, now)


def clear(game: LinkMatchGame, player: str, now: float) -> None:
    while game.result is None and game.view(player)["remaining"]:
        link_any(game, player, now)


def refused(code: str, fn: Any, *args: Any) -> GameError:
    with pytest.raises(GameError) as info:
        fn(*args)
    assert info.value.code == code
    return info.value


# -- spec and options -------------------------------------------------------------


def test_spec_shape() -> None:
    assert (SPEC.name, SPEC.start, SPEC.min_players) == ("linkmatch", "manual", 1)
    assert SPEC.max_players(SPEC.parse_options({})) == 8


def test_default_options() -> None:
    assert SPEC.parse_options({}) == {
        "width": 16,
        "height": 9,
        "kinds": 36,
        "time_limit": 600,
        "gravity": "none",
        "hint_penalty": 10,
        "countdown": 3,
    }
    small = SPEC.parse_options({"width": 4, "height": 3, "gravity": "down"})
    assert small["kinds"] == 6 and small["gravity"] == "down"
    assert SPEC.parse_options({"width": 30, "height": 16, "kinds": 240})["kinds"] == 240


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"width": 5, "height": 5}, "odd number of cells"),
        ({"width": 31}, "width"),
        ({"height": 1}, "height"),
        ({"width": True}, "width"),
        ({"width": 4.0}, "width"),
        ({"width": 4, "height": 4, "kinds": 9}, "kinds"),
        ({"kinds": 0}, "kinds"),
        ({"time_limit": 9}, "time_limit"),
        ({"time_limit": 3601}, "time_limit"),
        ({"gravity": "up"}, "gravity"),
        ({"hint_penalty": -1}, "hint_penalty"),
        ({"hint_penalty": False}, "hint_penalty"),
        ({"countdown": 11}, "countdown"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(raw: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionError, match=words):
        SPEC.parse_options(raw)


# -- start, boards, views -----------------------------------------------------------


def test_countdown_then_race_start() -> None:
    game = new_race(["p1", "p2"], countdown=3)
    assert game.view("p1")["starts_in"] == 3
    assert game.deadline() == T0 + 3
    err = refused("not-playing", game.apply, "p1", {"action": "hint"}, T0 + 1)
    assert "starts in" in err.message
    assert game.tick(T0 + 1) == []
    assert game.tick(T0 + 3) == [{"type": "race-start"}]
    assert "starts_in" not in game.view("p1")
    link_any(game, "p1", T0 + 4)
    assert game.view("p1")["elapsed"] == 1.0


def test_every_racer_gets_the_same_board_from_the_seed() -> None:
    game = new_race(["p1", "p2", "p3"], width=16, height=9, kinds=36)
    boards = [game.view(p)["rows"] for p in ("p1", "p2", "p3")]
    assert boards[0] == boards[1] == boards[2] == game.board
    again = new_race(["x"], width=16, height=9, kinds=36)
    assert again.board == game.board  # same seed, same board
    assert all(n == 144 for n in game.view("p1")["progress"].values())


def test_others_and_spectators_never_see_a_board() -> None:
    game = new_race(["p1", "p2"])
    game.apply("p1", {"action": "hint"}, T0 + 1)
    link_any(game, "p1", T0 + 2)
    for recipient in ("p2", None, "late-joiner"):
        view = game.view(recipient)
        assert view["progress"] == {"p1": 14, "p2": 16}
        hidden = {"rows", "path", "hint", "remaining"}
        if recipient == "p2":
            hidden = {"path", "hint"}
            assert view["rows"] == game.board  # p2's own, untouched board
        assert not hidden & set(view)
    own = game.view("p1")
    assert own["remaining"] == 14 and "path" in own


def test_a_link_by_one_racer_never_changes_another_board() -> None:
    game = new_race(["p1", "p2"])
    before = game.view("p2")["rows"]
    clear(game, "p1", T0 + 5)
    assert game.view("p2")["rows"] == before
    assert game.view("p1")["rows"] == [[0] * 4 for _ in range(4)]


def test_link_coordinates_go_to_the_mover_only() -> None:
    game = new_race(["p1", "p2"])
    a, b = available_pairs(game.view("p1")["rows"])[0]
    played = game.apply("p1", {"action": "link", "a": list(a), "b": list(b)}, T0 + 1)
    assert played.move == {"action": "link", "a": list(a), "b": list(b)}
    assert game.visible_move("p1", played.move, "p1") == played.move
    assert game.visible_move("p1", played.move, "p2") == {"action": "link"}
    assert game.visible_move("p1", played.move, None) == {"action": "link"}


def test_link_removes_pair_and_shows_path_corners() -> None:
    game = new_race(["p1"])
    rows = game.view("p1")["rows"]
    a, b = available_pairs(rows)[0]
    game.apply("p1", {"action": "link", "a": list(a), "b": list(b)}, T0 + 1)
    view = game.view("p1")
    assert view["rows"][a[1]][a[0]] == 0 and view["rows"][b[1]][b[0]] == 0
    assert view["path"] == [list(p) for p in find_path(rows, a, b) or []]


# -- wrong attempts, hints, shuffles -------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [
        {"action": "link", "a": [0, 0]},
        {"action": "link", "a": [0, 0], "b": [0]},
        {"action": "link", "a": [0, 0], "b": [True, 1]},
        {"action": "link", "a": "0,0", "b": [1, 1]},
        {"action": "jump"},
        {},
        [1, 2],
    ],
)
def test_malformed_moves_are_bad_messages_and_not_counted(move: Any) -> None:
    game = new_race(["p1"])
    refused("bad-message", game.apply, "p1", move, T0 + 1)
    assert game.view("p1")["wrong"] == 0


def test_wrong_links_are_refused_without_change_then_counted_by_refused() -> None:
    game = new_race(["p1"], width=6, height=4, kinds=12)
    rows = game.view("p1")["rows"]
    linkable = {frozenset(p) for p in available_pairs(rows)}
    cells = [(x, y) for y in range(4) for x in range(6)]
    wrong = [(a, b) for a in cells for b in cells if frozenset((a, b)) not in linkable][:5]
    wrong.append(((0, 0), (9, 9)))
    for n, (a, b) in enumerate(wrong, 1):
        move = {"action": "link", "a": list(a), "b": list(b)}
        before = game.view("p1")
        refused("illegal-move", game.apply, "p1", move, T0 + 1)
        assert game.view("p1") == before
        game.refused("p1", move, T0 + 1)
        assert game.view("p1")["wrong"] == n
    assert game.view("p1")["rows"] == rows and game.view("p1")["remaining"] == 24
    assert sum(1 for e in game.record()["actions"]["p1"] if e.get("ok") is False) == len(wrong)


def test_refused_counts_only_wrong_links() -> None:
    game = new_race(["p1"], width=6, height=4, kinds=12)
    a, b = available_pairs(game.view("p1")["rows"])[0]
    game.refused("p1", {"action": "link", "a": list(a), "b": list(b)}, T0 + 1)
    game.refused("p1", {"action": "hint"}, T0 + 1)
    game.refused("p1", {"action": "dance"}, T0 + 1)
    game.refused("p2", {"action": "link", "a": [0, 0], "b": [9, 9]}, T0 + 1)
    assert game.view("p1")["wrong"] == 0


def test_hint_gives_a_linkable_pair_and_costs_time() -> None:
    game = new_race(["p1"], hint_penalty=10)
    game.apply("p1", {"action": "hint"}, T0 + 2)
    view = game.view("p1")
    a, b = view["hint"]
    assert find_path(view["rows"], tuple(a), tuple(b)) is not None
    assert view["penalty"] == 10 and view["elapsed"] == 12 and view["hints"] == 1
    game.apply("p1", {"action": "link", "a": a, "b": b}, T0 + 3)
    assert "hint" not in game.view("p1")


def test_manual_shuffle_keeps_the_tiles() -> None:
    game = new_race(["p1"], width=6, height=4, kinds=12)
    before = game.view("p1")["rows"]
    played = game.apply("p1", {"action": "shuffle"}, T0 + 1)
    after = game.view("p1")["rows"]
    assert played.move == {"action": "shuffle"} and played.notices == []
    assert Counter(c for row in after for c in row) == Counter(c for row in before for c in row)
    assert available_pairs(after)


def test_server_shuffles_when_no_move_is_left() -> None:
    game = new_race(["p1", "p2"], width=2, height=3, kinds=3)
    racer = game.racers["p1"]
    racer.rows = [[1, 2], [2, 1], [3, 3]]  # after the 3s go, nothing links
    played = game.apply("p1", {"action": "link", "a": [0, 2], "b": [1, 2]}, T0 + 1)
    assert played.notices == [{"type": "shuffled", "player": "p1"}]
    view = game.view("p1")
    assert view["shuffled"] is True and view["remaining"] == 4
    assert Counter(c for row in view["rows"] for c in row) == Counter({1: 2, 2: 2, 0: 2})
    assert available_pairs(view["rows"])
    assert "shuffled" not in game.view("p2")
    link_any(game, "p1", T0 + 2)
    assert "shuffled" not in game.view("p1")


@pytest.mark.parametrize("gravity", ["none", "down"])
def test_following_hints_always_clears_the_board(gravity: str) -> None:
    game = new_race(["p1"], width=16, height=9, kinds=36, gravity=gravity, hint_penalty=0)
    for _ in range(72):
        game.apply("p1", {"action": "hint"}, T0 + 1)
        a, b = game.view("p1")["hint"]
        game.apply("p1", {"action": "link", "a": a, "b": b}, T0 + 1)
    assert game.result is not None and game.result["reason"] == "cleared"


def test_gravity_down_drops_tiles_after_a_link() -> None:
    game = new_race(["p1"], width=4, height=4, kinds=4, gravity="down")
    for _ in range(3):
        link_any(game, "p1", T0 + 1)
        rows = game.view("p1")["rows"]
        assert all(not (rows[y][x] and not rows[y + 1][x]) for y in range(3) for x in range(4))


# -- winning, time, resigning --------------------------------------------------------


def test_first_to_clear_wins_with_full_ranking() -> None:
    game = new_race(["p1", "p2", "p3"])
    link_any(game, "p2", T0 + 1)
    link_any(game, "p3", T0 + 1)
    link_any(game, "p3", T0 + 2)
    played_notices: list[Any] = []
    while game.result is None:
        a, b = available_pairs(game.view("p1")["rows"])[0]
        played_notices += game.apply(
            "p1", {"action": "link", "a": list(a), "b": list(b)}, T0 + 7
        ).notices
    assert {"type": "cleared", "player": "p1", "time": 7.0} in played_notices
    result = game.result
    assert result["winner"] == "p1" and result["reason"] == "cleared"
    assert result["ranking"] == ["p1", "p3", "p2"]
    assert result["times"]["p1"] == 7.0
    assert result["remaining"] == {"p1": 0, "p2": 14, "p3": 12}
    assert game.deadline() is None
    refused("not-playing", game.apply, "p2", {"action": "hint"}, T0 + 8)


def test_penalised_finisher_can_be_overtaken() -> None:
    game = new_race(["p1", "p2"], hint_penalty=10)
    game.apply("p1", {"action": "hint"}, T0)
    clear(game, "p1", T0 + 5)  # clock 15
    assert game.result is None and game.view("p2")["finished"] == {"p1": 15.0}
    assert game.deadline() == T0 + 15
    game.resign("p1", T0 + 6)  # a finisher leaving the room keeps their finish
    assert game.view(None)["standing"]["p1"] == "cleared"
    clear(game, "p2", T0 + 12)
    assert game.result is not None
    assert game.result["winner"] == "p2" and game.result["ranking"] == ["p2", "p1"]


def test_penalised_finisher_wins_when_nobody_beats_the_time() -> None:
    game = new_race(["p1", "p2"], hint_penalty=10)
    game.apply("p1", {"action": "hint"}, T0)
    clear(game, "p1", T0 + 5)
    refused("not-playing", game.apply, "p2", {"action": "hint"}, T0 + 15)
    game.tick(T0 + 15)
    assert game.result is not None and game.result["winner"] == "p1"


def test_time_limit_ranks_by_remaining_then_who_got_there_first() -> None:
    game = new_race(["p1", "p2", "p3"], time_limit=60)
    link_any(game, "p2", T0 + 10)
    link_any(game, "p1", T0 + 20)
    link_any(game, "p1", T0 + 30)
    link_any(game, "p3", T0 + 40)
    assert game.deadline() == T0 + 60
    events = game.tick(T0 + 60)
    assert {"type": "time-up", "player": "p1"} in events
    result = game.result
    assert result is not None and result["reason"] == "time"
    assert result["winner"] == "p1" and result["ranking"] == ["p1", "p2", "p3"]
    assert result["times"] == {"p1": 60.0, "p2": 60.0, "p3": 60.0}
    assert result["decided_by"] == "tiles"


@pytest.mark.parametrize(
    ("links", "decided_by", "winner"),
    [
        ({"p2": [10], "p1": [20]}, "first", "p2"),  # same count: who got there first
        ({}, "seat", "p1"),  # nobody linked a pair: the earlier seat
    ],
)
def test_a_time_out_win_says_what_broke_the_tie(
    links: dict[str, list[float]], decided_by: str, winner: str
) -> None:
    game = new_race(["p1", "p2"], time_limit=60)
    for player, times in links.items():
        for t in times:
            link_any(game, player, T0 + t)
    game.tick(T0 + 60)
    assert game.result is not None and game.result["reason"] == "time"
    assert (game.result["winner"], game.result["decided_by"]) == (winner, decided_by)


def test_hint_penalty_uses_up_the_players_own_time() -> None:
    game = new_race(["p1", "p2"], time_limit=30, hint_penalty=20)
    game.apply("p1", {"action": "hint"}, T0 + 1)
    assert game.deadline() == T0 + 10
    assert game.tick(T0 + 10) == [{"type": "time-up", "player": "p1"}]
    assert game.result is None
    refused("not-playing", game.apply, "p1", {"action": "hint"}, T0 + 11)
    link_any(game, "p2", T0 + 12)
    game.tick(T0 + 30)
    assert game.result is not None and game.result["ranking"] == ["p2", "p1"]


def test_resigned_racer_leaves_and_the_race_goes_on() -> None:
    game = new_race(["p1", "p2", "p3"])
    game.resign("p1", T0 + 1)
    game.resign("p3", T0 + 2)
    assert game.result is None and game.view(None)["standing"]["p1"] == "resigned"
    refused("not-playing", game.apply, "p1", {"action": "hint"}, T0 + 3)
    game.resign("p1", T0 + 3)  # leaving twice (or after clearing) changes nothing
    game.resign("watcher", T0 + 3)
    assert game.view(None)["standing"] == {"p1": "resigned", "p2": "racing", "p3": "resigned"}
    clear(game, "p2", T0 + 9)
    assert game.result is not None
    assert game.result["winner"] == "p2" and game.result["ranking"] == ["p2", "p3", "p1"]


def test_when_everyone_resigns_nobody_wins() -> None:
    game = new_race(["p1", "p2"], countdown=3)
    game.resign("p2", T0 + 1)  # during the countdown
    game.resign("p1", T0 + 5)
    assert game.result is not None
    assert game.result["reason"] == "resign" and game.result["winner"] is None
    assert game.result["ranking"] == ["p1", "p2"]


def test_practice_run_alone() -> None:
    game = new_race(["solo"])
    clear(game, "solo", T0 + 30)
    assert game.result is not None and game.result["winner"] == "solo"


# -- what the race does not have, and what it records ---------------------------------


def test_no_requests_no_late_seats_no_turns() -> None:
    game = new_race(["p1"])
    refused("illegal-move", game.request, "p1", "draw", T0)
    refused("illegal-move", game.respond, "p1", "draw", True, T0)
    assert game.add_player("late", T0) is False
    assert game.turn() is None
    refused("not-a-player", game.apply, "late", {"action": "hint"}, T0 + 1)


def test_record_has_seed_board_actions_with_times_and_result() -> None:
    game = new_race(["p1", "p2"])
    same_cell = {"action": "link", "a": [0, 0], "b": [0, 0]}
    refused("illegal-move", game.apply, "p1", same_cell, T0 + 1)
    game.refused("p1", same_cell, T0 + 1)  # as the room does after a refusal
    game.apply("p1", {"action": "hint"}, T0 + 2)
    clear(game, "p1", T0 + 3)  # clock 13 with the hint: p2 may still beat it
    assert game.result is None and game.deadline() == T0 + 13
    game.tick(T0 + 13)
    record = game.record()
    assert record["seed"] == 42 and record["board"] == game.board
    assert record["options"]["width"] == 4 and record["result"] == game.result
    actions = record["actions"]["p1"]
    assert actions[0] == {"t": 1.0, "action": "link", "a": [0, 0], "b": [0, 0], "ok": False, "n": 0}
    assert [a["n"] for a in actions] == list(range(len(actions)))
    assert actions[1]["action"] == "hint" and actions[1]["t"] == 2.0
    assert [a["ok"] for a in actions[2:]] == [True] * 8
    assert record["actions"]["p2"] == []
    assert game.result is not None and game.result["stats"]["p1"]["wrong"] == 1
