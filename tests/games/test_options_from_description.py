"""The server's option parsing derives from the games' descriptions: the create forms
offer what the server takes, and what the server takes is what the forms say."""

from __future__ import annotations

from typing import Any

import pytest

from gridhall.protocol.games import GAMES
from gridhall.protocol.games.describe import Choice, Number, Toggle
from gridhall.server.games import registry
from gridhall.server.games.base import OptionError

SPECS = registry()

FITS: dict[str, dict[str, Any]] = {
    "gomoku": {},
    "minesweeper": {"preset": None, "width": 200, "height": 200, "mines": 100},
    "linkmatch": {"width": 30, "height": 16, "kinds": 1},
    "reversi": {},
}
"""Other options that leave each field's whole range usable (a board big enough)."""
FIELD_FITS = {("gomoku", "move_limit"): {"size": 19}, ("minesweeper", "no_guess"): {}}
"""... except where the field's own rule needs another board."""


def test_defaults_are_the_canonical_options_old_clients_know() -> None:
    assert SPECS["gomoku"].parse_options({}) == {"size": 15, "rule": "freestyle"}
    assert SPECS["linkmatch"].parse_options({}) == {
        "width": 16,
        "height": 9,
        "kinds": 36,
        "time_limit": 600,
        "gravity": "none",
        "hint_penalty": 10,
        "countdown": 3,
    }
    assert SPECS["minesweeper"].parse_options({}) == {
        "preset": None,
        "width": 16,
        "height": 16,
        "mines": 40,
        "first_click": "opening",
        "no_guess": False,
        "max_adjacent": None,
        "lives": 1,
        "max_players": 8,
        "hint_penalty": 20.0,
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_described_value_is_taken_and_every_neighbour_refused(game: str) -> None:
    spec = SPECS[game]
    for f in GAMES[game].form:
        fits = FIELD_FITS.get((game, f.key), FITS[game])
        if game == "gomoku" and f.key == "clock":
            continue  # free-form "m+i" text, checked by the spec
        if isinstance(f, Number):
            hi = min(f.hi, 39_991) if f.key == "mines" else f.hi
            for good in (f.lo, hi):
                assert spec.parse_options({**fits, f.key: good})[f.key] == good, (f.key, good)
            for bad in (f.lo - 1, f.hi + 1, True, "3"):
                with pytest.raises(OptionError, match=f.key):
                    spec.parse_options({**fits, f.key: bad})
        elif isinstance(f, Choice):
            for value, _ in f.choices:
                if value is not None and not (f.key == "preset"):
                    assert spec.parse_options({**fits, f.key: value})[f.key] == value
            with pytest.raises(OptionError):
                spec.parse_options({**fits, f.key: "no-such-value"})
        elif isinstance(f, Toggle):
            assert spec.parse_options({**fits, f.key: True})[f.key] is True
            with pytest.raises(OptionError, match=f.key):
                spec.parse_options({**fits, f.key: 1})


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_option_the_description_lacks_is_refused_by_name(game: str) -> None:
    with pytest.raises(OptionError, match="colour"):
        SPECS[game].parse_options({"colour": "red"})


def test_the_clients_clock_choices_are_the_servers() -> None:
    clock = GAMES["gomoku"].field("clock")
    assert isinstance(clock, Choice)
    for value, _ in clock.choices:
        if value is not None:
            minutes, increment = (int(v) for v in str(value).split("+"))
            parsed = SPECS["gomoku"].parse_options({"clock": value})
            assert parsed["clock"] == {"minutes": minutes, "increment": increment}
