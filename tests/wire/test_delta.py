"""Deltas (protocol/delta.py): a view as the changes from the previous one, folded back."""

from __future__ import annotations

import random

import pytest

from gridhall.protocol import delta


def gomoku_view(n: int) -> dict[str, object]:
    moves = [[i % 15, i // 15] for i in range(n)]
    return {
        "size": 15,
        "moves": moves,
        "next": "black" if n % 2 == 0 else "white",
        "last": moves[-1] if moves else None,
    }


def test_a_gomoku_move_is_one_appended_pair_and_the_small_fields_whole() -> None:
    old, new = gomoku_view(40), gomoku_view(41)
    whole, patches = delta.diff(old, new) or ({}, {})
    assert patches == {"moves": {"at": 40, "append": [[10, 2]]}}
    assert whole == {"size": 15, "next": "white", "last": [10, 2]}
    assert delta.apply(old, whole, patches) == new


def test_short_lists_go_whole_so_a_small_view_has_no_delta() -> None:
    assert delta.diff(gomoku_view(3), gomoku_view(4)) is None


def test_rows_patch_only_the_cells_that_changed() -> None:
    old = {"rows": ["#" * 200 for _ in range(200)], "flags": 0}
    rows = list(old["rows"])
    rows[17] = rows[17][:40] + "F" + rows[17][41:]
    rows[18] = "0" * 3 + rows[18][3:150] + "12" + rows[18][152:]
    new = {"rows": rows, "flags": 1}
    whole, patches = delta.diff(old, new) or ({}, {})
    assert whole == {"flags": 1}
    assert patches == {"rows": {"rows": [[17, 40, "F"], [18, 0, "000"], [18, 150, "12"]]}}
    assert delta.apply(old, whole, patches) == new


def test_close_changes_share_one_run() -> None:
    old = {"rows": ["#" * 30] * 20}
    rows = list(old["rows"])
    rows[0] = "1" + "#" * 5 + "2" + "#" * 23
    _, patches = delta.diff(old, {"rows": rows}) or ({}, {})
    assert patches["rows"]["rows"] == [[0, 0, "1#####2"]]


def test_a_board_that_changed_mostly_goes_whole() -> None:
    old = {"rows": ["#" * 50] * 50}
    assert delta.diff(old, {"rows": ["0" * 50] * 50}) is None


def test_unchanged_and_vanished_fields() -> None:
    old = {"moves": [[i, 0] for i in range(20)], "pending": {"kind": "draw"}, "n": 1}
    new = {"moves": old["moves"], "n": 2}
    whole, patches = delta.diff(old, new) or ({}, {})
    assert patches == {"moves": {}} and whole == {"n": 2}
    assert delta.apply(old, whole, patches) == new  # "pending" is gone


@pytest.mark.parametrize(
    "view, patches",
    [
        ({"moves": [[0, 0]] * 20}, {"moves": {"at": 19, "append": [[1, 1]]}}),
        ({"moves": "not a list"}, {"moves": {"at": 0, "append": []}}),
        ({}, {"moves": {}}),
        ({"rows": ["###"] * 20}, {"rows": {"rows": [[20, 0, "1"]]}}),
        ({"rows": ["###"] * 20}, {"rows": {"rows": [[0, 2, "12"]]}}),
        ({"rows": ["###"] * 20}, {"rows": {"rows": [[0, "a", "1"]]}}),
    ],
)
def test_a_delta_that_does_not_fit_the_view_is_refused(
    view: dict[str, object], patches: dict[str, object]
) -> None:
    with pytest.raises(delta.DeltaError):
        delta.apply(view, {}, patches)


def test_random_edits_fold_back_to_the_new_view() -> None:
    rng = random.Random(7)
    for _ in range(200):
        width, height = rng.randint(1, 40), rng.randint(16, 40)
        old = {
            "rows": ["".join(rng.choice("#F0") for _ in range(width)) for _ in range(height)],
            "list": [rng.randint(0, 9) for _ in range(rng.randint(0, 30))],
        }
        rows = list(old["rows"])
        for _ in range(rng.randint(0, 6)):
            y, x = rng.randrange(height), rng.randrange(width)
            rows[y] = rows[y][:x] + rng.choice("#F?12") + rows[y][x + 1 :]
        grown = old["list"] + [rng.randint(0, 9) for _ in range(rng.randint(0, 3))]
        new = {"rows": rows, "list": grown if rng.random() < 0.7 else grown[::-1]}
        parts = delta.diff(old, new)
        folded = new if parts is None else delta.apply(old, *parts)
        assert folded == new
