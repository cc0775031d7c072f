"""Rating math (server/core/ratings.py): who moves, by how much, and when nothing moves."""

from __future__ import annotations

from gridhall.server.core.ratings import (
    PROVISIONAL_GAMES,
    REFERENCE,
    Rating,
    Ratings,
    Seat,
    announced,
    display,
)

MOVES = {"moves": [[7, 7], [8, 8], [9, 9]]}
A, B, C = Seat("pa", "Ann"), Seat("pb", "Bob"), Seat("pc", "Cy")


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    r = Ratings().get("pa", "gomoku")
    assert (r.shown, r.provisional, r.games, r.wins) == (1000, True, 0, 0)
    assert display(0.0) == 1000 and display(1.0) == 1040


def test_the_winner_gains_the_loser_loses_and_both_count_a_game() -> None:
    ratings = Ratings()
    changes = ratings.rate("gomoku", [A, B], {"winner": "pa", "reason": "five"}, MOVES)
    by = {c.player: c for c in changes}
    assert by["pa"].after.mu > by["pa"].before.mu
    assert by["pb"].after.mu < by["pb"].before.mu
    assert (by["pa"].after.games, by["pa"].after.wins) == (1, 1)
    assert (by["pb"].after.games, by["pb"].after.wins) == (1, 0)
    assert by["pa"].after.shown > by["pb"].after.shown
    assert ratings.get("pa", "gomoku") == by["pa"].after  # applied to the table at once
    assert ratings.has("pa") and ratings.has("pb") and not ratings.has("pc")
    assert announced(changes)["pa"] == {"before": 1000, "after": by["pa"].after.shown}


def test_a_draw_moves_nobody_apart_and_counts_no_win() -> None:
    ratings = Ratings()
    changes = ratings.rate("gomoku", [A, B], {"winner": None, "reason": "draw"}, MOVES)
    a, b = (c.after for c in changes)
    assert a.mu == b.mu and a.wins == b.wins == 0 and a.games == b.games == 1


def test_a_computer_keeps_its_reference_rating_and_only_the_person_moves() -> None:
    ratings = Ratings()
    bot = Seat("pbot", "Computer (hard)", bot="hard")
    changes = ratings.rate("gomoku", [A, bot], {"winner": "pbot", "reason": "five"}, MOVES)
    assert [c.player for c in changes] == ["pa"]
    assert ("pbot", "gomoku") not in ratings.table and not ratings.has("pbot")
    assert REFERENCE["hard"] == (28.0, 1.0)
    # beating the hard computer is worth more than beating the easy one
    win = {"winner": "pa", "reason": "five"}
    hard = Ratings().rate("gomoku", [A, bot], win, MOVES)[0].after.mu
    easy = (
        Ratings()
        .rate("gomoku", [A, Seat("pe", "Computer (easy)", bot="easy")], win, MOVES)[0]
        .after.mu
    )
    assert hard > easy > 25.0


def test_unrated_games_change_nothing() -> None:
    ratings = Ratings()
    win = {"winner": "pa", "reason": "resign"}
    assert ratings.rate("gomoku", [A, B], win, {"moves": [[7, 7]]}) == []  # abandoned
    assert ratings.rate("gomoku", [A, Seat("pe", "X", bot="engine:rapfi")], win, MOVES) == []
    assert ratings.rate("gomoku", [A], win, MOVES) == []
    assert ratings.rate("gomoku", [A, B], {"winner": "px", "reason": "five"}, MOVES) == []
    assert ratings.rate("minesweeper", [A, B], {"reason": "cleared"}, {}) == []
    assert ratings.rate("linkmatch", [A, B], {"ranking": ["pa"]}, {}) == []
    assert ratings.table == {}


def test_a_game_the_host_ended_by_removing_a_player_is_never_rated() -> None:
    """Even a result that still names a winner or a ranking (a record from elsewhere)."""
    ratings = Ratings()
    removed = {"winner": None, "reason": "removed", "removed": "pb"}
    assert ratings.rate("gomoku", [A, B], removed, MOVES) == []
    assert ratings.rate("gomoku", [A, B], {**removed, "winner": "pa"}, MOVES) == []
    race = {**removed, "ranking": ["pa", "pb", "pc"]}
    assert ratings.rate("linkmatch", [A, B, C], race, {}) == []
    assert ratings.table == {}


def test_a_race_of_three_ranks_by_the_results_order() -> None:
    ratings = Ratings()
    result = {"winner": "pc", "reason": "cleared", "ranking": ["pc", "pa", "pb"]}
    changes = {c.player: c.after for c in ratings.rate("linkmatch", [A, B, C], result, {})}
    assert changes["pc"].mu > changes["pa"].mu > changes["pb"].mu
    assert [changes[p].wins for p in ("pc", "pa", "pb")] == [1, 0, 0]
    assert ratings.get("pa", "gomoku") == Rating()  # per game kind


def test_provisional_until_ten_rated_games() -> None:
    ratings = Ratings()
    for n in range(PROVISIONAL_GAMES):
        assert ratings.get("pa", "gomoku").provisional
        ratings.rate("gomoku", [A, B], {"winner": "pa" if n % 2 else "pb"}, MOVES)
    assert not ratings.get("pa", "gomoku").provisional
    assert ratings.get("pa", "gomoku").games == PROVISIONAL_GAMES


def test_load_skips_the_computers_rows() -> None:
    ratings = Ratings()
    ratings.load([("pa", "gomoku", 27.0, 5.0, 3, 2), ("computer:hard", "gomoku", 28.0, 1.0, 0, 0)])
    assert ratings.get("pa", "gomoku") == Rating(27.0, 5.0, 3, 2)
    assert ratings.has("pa") and not ratings.has("computer:hard")
