"""Each game's create-room form: presets and fields -> the ``create-room`` options
the server accepts, and clear sentences for values it would refuse."""

from __future__ import annotations

import pytest

from gridhall.client.views import VIEWS, view_for
from gridhall.client.views.form import (
    Choice,
    FormError,
    Number,
    Toggle,
    defaults,
    is_active,
    options,
    with_preset,
)
from gridhall.server.games import registry


def form_options(game: str, start: int = 0, **changes: object) -> dict[str, object]:
    """The options sent after picking preset ``start`` and then changing some fields."""
    view = view_for(game)
    return options(view.form, {**with_preset(view.form, view.presets[start]), **changes})


def test_gomoku_form_covers_size_rule_clock_and_computer() -> None:
    assert form_options("gomoku") == {"size": 15, "rule": "freestyle", "rated": False}
    assert form_options("gomoku", 3) == {"size": 19, "rule": "freestyle", "rated": False}
    assert form_options("gomoku", 4) == {
        "size": 15,
        "rule": "freestyle",
        "ai": "easy",
        "rated": False,
    }
    assert form_options("gomoku", clock="10+5", ai="hard", rule="renju", rated=True) == {
        "size": 15,
        "rule": "renju",
        "clock": "10+5",
        "ai": "hard",
        "rated": True,
    }
    fields = {f.key: f for f in view_for("gomoku").form}
    assert isinstance(fields["clock"], Choice) and "10+5" in dict(fields["clock"].choices)
    assert isinstance(fields["ai"], Choice) and {"easy", "hard"} <= set(dict(fields["ai"].choices))


def test_minesweeper_form_uses_the_custom_size_only_without_a_preset() -> None:
    assert form_options("minesweeper") == {
        "preset": "beginner",
        "no_guess": False,
        "lives": 1,
        "first_click": "opening",
    }
    custom = form_options(
        "minesweeper",
        preset=None,
        width="30",
        height=" 20 ",
        mines=100,
        no_guess=True,
        lives=3,
        first_click="safe",
    )
    assert custom == {
        "width": 30,
        "height": 20,
        "mines": 100,
        "no_guess": True,
        "lives": 3,
        "first_click": "safe",
    }
    view = view_for("minesweeper")
    width = next(f for f in view.form if f.key == "width")
    assert not is_active(width, defaults(view.form)) and is_active(width, {"preset": None})


def test_linkmatch_form_covers_size_kinds_time_and_gravity() -> None:
    assert form_options("linkmatch", 2) == {
        "width": 8,
        "height": 6,
        "kinds": 12,
        "time_limit": 180,
        "gravity": "none",
        "rated": False,
    }
    assert form_options("linkmatch", gravity="down", time_limit="90")["gravity"] == "down"
    keys = {f.key for f in view_for("linkmatch").form}
    assert {"width", "height", "kinds", "time_limit", "gravity"} <= keys


@pytest.mark.parametrize(
    ("game", "key", "raw"),
    [
        ("minesweeper", "width", "0"),
        ("minesweeper", "mines", "lots"),
        ("linkmatch", "height", "17"),
        ("linkmatch", "kinds", ""),
        ("linkmatch", "width", True),
    ],
)
def test_numbers_out_of_range_are_refused_with_a_sentence(game: str, key: str, raw: object) -> None:
    extra = {"preset": None} if game == "minesweeper" else {}
    with pytest.raises(FormError) as refused:
        form_options(game, **extra, **{key: raw})
    field = next(f for f in view_for(game).form if f.key == key)
    assert isinstance(field, Number)
    assert str(refused.value).startswith(f"{field.label} must be a whole number from {field.lo}")


def test_a_choice_outside_its_list_is_refused() -> None:
    with pytest.raises(FormError, match="Rule must be one of"):
        form_options("gomoku", rule="checkers")


@pytest.mark.parametrize("game", list(VIEWS))
def test_every_preset_and_default_is_accepted_by_the_server(game: str) -> None:
    """The forms speak the server's option language: what they send, it accepts."""
    view = view_for(game)
    spec = registry()[game]
    for preset in view.presets:
        spec.parse_options(options(view.form, with_preset(view.form, preset)))
    spec.parse_options(options(view.form, defaults(view.form)))
    for f in view.form:
        assert f.key and f.label
        if isinstance(f, Toggle):
            assert isinstance(f.default, bool)
        elif isinstance(f, Number):
            assert f.lo <= f.default <= f.hi
