"""Rating math (server/core/ratings.py): who moves, by how much, and when nothing moves;
the rules that keep ratings from being farmed (issue 41)."""

from __future__ import annotations

import pytest

from gridhall.server.core.ratings import (
    ESTABLISHED_GAMES,
    PAIR_GAIN,
    PAIR_WINDOW,
    PROVISIONAL_GAMES,
    Rating,
    Ratings,
    Seat,
    announced,
    display,
)
from gridhall.server.games.gomoku.computer import REFERENCE
from gridhall.server.games.gomoku.rating import MIN_MOVES as MIN_GOMOKU_MOVES

MOVES = {"moves": [[x, x % 2] for x in range(MIN_GOMOKU_MOVES)]}
A, B, C = Seat("pa", "Ann"), Seat("pb", "Bob"), Seat("pc", "Cy")
T = 1_800_000_000.0


def established(ratings: Ratings, *seats: Seat, mu: float = 25.0, game: str = "gomoku") -> None:
    """Give each seat a rating of 20 rated games (sigma 3)."""
    for seat in seats:
        ratings.table[(seat.player, game)] = Rating(mu, 3.0, 20, 10)


def race(*order: Seat) -> tuple[dict[str, object], dict[str, object]]:
    """A Link-match result in ``order`` and a record where every racer linked a pair."""
    result = {"winner": order[0].player, "reason": "cleared", "ranking": [s.player for s in order]}
    actions = {s.player: [{"action": "link", "ok": True, "n": 1}] for s in order}
    return result, {"actions": actions}


def test_a_newcomer_shows_1000_and_is_provisional() -> None:
    r = Ratings().get("pa", "gomoku")
    assert (r.shown, r.provisional, r.games, r.wins) == (1000, True, 0, 0)
    assert display(0.0) == 1000 and display(1.0) == 1040


def test_the_winner_gains_the_loser_loses_and_both_count_a_game() -> None:
    ratings = Ratings()
    established(ratings, A, B)
    changes = ratings.rate("gomoku", [A, B], {"winner": "pa", "reason": "five"}, MOVES, T)
    by = {c.player: c for c in changes}
    assert by["pa"].after.mu > by["pa"].before.mu
    assert by["pb"].after.mu < by["pb"].before.mu
    assert (by["pa"].after.games, by["pa"].after.wins) == (21, 11)
    assert (by["pb"].after.games, by["pb"].after.wins) == (21, 10)
    assert by["pa"].after.shown > by["pb"].after.shown
    assert ratings.get("pa", "gomoku") == by["pa"].after  # applied to the table at once
    assert ratings.has("pa") and ratings.has("pb") and not ratings.has("pc")
    before = by["pa"].before.shown
    assert announced(changes)["pa"] == {"before": before, "after": by["pa"].after.shown}


def test_a_draw_moves_nobody_apart_and_counts_no_win() -> None:
    ratings = Ratings()
    established(ratings, A, B)
    changes = ratings.rate("gomoku", [A, B], {"winner": None, "reason": "draw"}, MOVES, T)
    a, b = (c.after for c in changes)
    assert a.mu == b.mu and a.wins == b.wins == 10 and a.games == b.games == 21


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
    short = {"moves": MOVES["moves"][:-1]}  # one stone short: thrown, not played
    assert ratings.rate("gomoku", [A, B], win, short) == []
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
    established(ratings, A, B, C, game="linkmatch")
    result, record = race(C, A, B)
    changes = {c.player: c.after for c in ratings.rate("linkmatch", [A, B, C], result, record, T)}
    assert changes["pc"].mu > changes["pa"].mu > changes["pb"].mu
    assert [changes[p].wins for p in ("pc", "pa", "pb")] == [11, 10, 10]
    assert ratings.get("pa", "gomoku") == Rating()  # per game kind


def test_a_racer_who_made_no_link_is_left_out_of_the_rating() -> None:
    ratings = Ratings()
    established(ratings, A, B, C, game="linkmatch")
    result, record = race(A, B, C)
    record["actions"]["pb"] = [{"action": "link", "ok": False, "n": 2}]  # a wrong link only
    changed = {c.player for c in ratings.rate("linkmatch", [A, B, C], result, record, T)}
    assert changed == {"pa", "pc"}
    assert ratings.get("pb", "linkmatch").games == 20
    result, record = race(A, B)
    record["actions"]["pb"] = []
    assert ratings.rate("linkmatch", [A, B], result, record, T) == []  # a race of one


def test_provisional_until_ten_rated_games() -> None:
    ratings = Ratings()
    for n in range(PROVISIONAL_GAMES):
        assert ratings.get("pa", "gomoku").provisional
        ratings.rate("gomoku", [A, B], {"winner": "pa" if n % 2 else "pb"}, MOVES, T + n)
    assert not ratings.get("pa", "gomoku").provisional
    assert ratings.get("pa", "gomoku").games == PROVISIONAL_GAMES


def test_a_newcomer_opponent_counts_for_nothing_either_way() -> None:
    """Ann is established; beating (or losing to) a brand-new identity moves her
    rating not at all, though it counts as a game. The newcomer is placed against her."""
    ratings = Ratings()
    established(ratings, A, mu=30.0)
    before = ratings.get("pa", "gomoku")
    for n in range(2):
        fresh = Seat(f"new{n}", "Throwaway")
        winner = {"winner": ("pa", fresh.player)[n]}
        changes = {c.player: c for c in ratings.rate("gomoku", [A, fresh], winner, MOVES, T)}
        mine = changes["pa"].after
        assert (mine.mu, mine.sigma) == (before.mu, before.sigma) and mine.games == 21 + n
        assert changes[f"new{n}"].after.sigma < changes[f"new{n}"].before.sigma


def test_an_opponent_counts_a_tenth_more_with_each_rated_game() -> None:
    def gain(games: int) -> float:
        ratings = Ratings()
        established(ratings, A)
        ratings.table[("pb", "gomoku")] = Rating(25.0, 3.0, games, 0)
        [mine, _] = ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T)
        return mine.after.ordinal - mine.before.ordinal

    full = gain(ESTABLISHED_GAMES)
    assert full > 0 and gain(0) == 0.0
    assert gain(ESTABLISHED_GAMES // 2) == pytest.approx(full / 2)
    assert gain(5 * ESTABLISHED_GAMES) == pytest.approx(full)


def test_the_farming_attack_leaves_the_farmer_where_they_were() -> None:
    """Issue 41's attack: 30 rated wins over throw-away identities, each made for one
    game (here each plays a full ten stones, past the one-stone rule)."""
    ratings = Ratings()
    farmer = Seat("pfarm", "Farmer")
    for n in range(30):
        ratings.rate("gomoku", [farmer, Seat(f"t{n}", "T")], {"winner": "pfarm"}, MOVES, T + n)
    after = ratings.get("pfarm", "gomoku")
    assert after.shown == 1000 and after.games == 30


def test_gains_against_one_opponent_are_capped_for_a_day() -> None:
    """Ann beats Bob (both established) twenty times in a day: her rating rises by at
    most PAIR_GAIN against him; the next day it may rise again."""
    ratings = Ratings()
    established(ratings, A, B)
    start = ratings.get("pa", "gomoku").ordinal
    for n in range(20):
        ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + n * 60)
    capped = ratings.get("pa", "gomoku").ordinal
    assert capped - start == pytest.approx(PAIR_GAIN)
    assert ratings.get("pb", "gomoku").ordinal < start  # a loss is never capped
    ratings.rate("gomoku", [A, C], {"winner": "pa"}, MOVES, T + 1300)
    established(ratings, C)
    ratings.rate("gomoku", [A, C], {"winner": "pa"}, MOVES, T + 1400)
    assert ratings.get("pa", "gomoku").ordinal > capped  # another opponent: not capped
    later = ratings.get("pa", "gomoku").ordinal
    ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + PAIR_WINDOW)
    assert ratings.get("pa", "gomoku").ordinal > later


def test_a_loss_to_the_opponent_gives_room_back() -> None:
    ratings = Ratings()
    established(ratings, A, B)
    start = ratings.get("pa", "gomoku").ordinal
    for n in range(10):
        ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + n)
    ratings.rate("gomoku", [A, B], {"winner": "pb"}, MOVES, T + 20)
    lost = ratings.get("pa", "gomoku").ordinal
    ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + 30)
    regained = ratings.get("pa", "gomoku").ordinal
    assert lost < regained <= start + PAIR_GAIN + 1e-9


def test_each_change_carries_its_pair_windows_and_they_load_back() -> None:
    ratings = Ratings()
    established(ratings, A, B)
    for n in range(6):
        [ann, _bob] = ratings.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + n)
    assert ann.pairs == ((("pb", T, pytest.approx(PAIR_GAIN))),)
    again = Ratings()
    again.table = dict(ratings.table)
    again.pairs.load([("pa", "pb", "gomoku", T, PAIR_GAIN)], T + 10)
    before = again.get("pa", "gomoku").ordinal
    again.rate("gomoku", [A, B], {"winner": "pa"}, MOVES, T + 20)
    assert again.get("pa", "gomoku").ordinal == pytest.approx(before)  # still capped
    ended = Ratings()
    ended.pairs.load([("pa", "pb", "gomoku", T - PAIR_WINDOW, PAIR_GAIN)], T)
    assert ended.pairs.windows == {}


def test_load_skips_the_computers_rows() -> None:
    ratings = Ratings()
    ratings.load([("pa", "gomoku", 27.0, 5.0, 3, 2), ("computer:hard", "gomoku", 28.0, 1.0, 0, 0)])
    assert ratings.get("pa", "gomoku") == Rating(27.0, 5.0, 3, 2)
    assert ratings.has("pa") and not ratings.has("computer:hard")
