"""Room options for co-op Minesweeper: validated, with defaults filled in."""

from __future__ import annotations

from typing import Any

from ..base import JSON, OptionError

PRESETS: dict[str, tuple[int, int, int]] = {
    "beginner": (9, 9, 10),
    "intermediate": (16, 16, 40),
    "expert": (30, 16, 99),
}
MAX_SIDE = 200
NO_GUESS_MAX_CELLS = 100 * 100


def no_guess_max_mines(cells: int) -> int:
    """Most mines a no-guess board may hold: generation must stay well under a
    second (it runs in the room's turn), and bigger boards get stuck more often.
    Expert (480 cells, 20.6%) is inside the first band."""
    density = 0.22 if cells <= 1000 else 0.20 if cells <= 2500 else 0.18
    return int(cells * density)

KNOWN = {"preset", "width", "height", "mines", "first_click", "no_guess", "max_adjacent",
         "lives", "max_players", "hint_penalty"}


def _int(raw: JSON, key: str, default: int, lo: int, hi: int) -> int:
    value: Any = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"Option {key} must be a whole number.")
    if not lo <= value <= hi:
        raise OptionError(f"Option {key} must be between {lo} and {hi}.")
    return value


def parse_options(raw: JSON) -> JSON:
    """Validate ``raw`` room options and return them complete."""
    if not isinstance(raw, dict):
        raise OptionError("Options must be a map.")
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        raise OptionError(f"Minesweeper has no option {unknown[0]!r}; "
                          f"known options are {', '.join(sorted(KNOWN))}.")
    preset = raw.get("preset")
    if preset is not None:
        if preset not in PRESETS:
            raise OptionError("Option preset must be beginner, intermediate or expert.")
        sizes = dict(zip(("width", "height", "mines"), PRESETS[preset], strict=True))
        if any(raw.get(k, v) != v for k, v in sizes.items()):
            raise OptionError("Give either a preset or width/height/mines, not both.")
    width0, height0, mines0 = PRESETS[preset or "intermediate"]
    width = _int(raw, "width", width0, 1, MAX_SIDE)
    height = _int(raw, "height", height0, 1, MAX_SIDE)
    cells = width * height
    if cells < 10:
        raise OptionError("The board needs at least 10 cells.")
    mines = _int(raw, "mines", mines0, 1, cells - 9)
    first_click = raw.get("first_click", "opening")
    if first_click not in ("opening", "safe"):
        raise OptionError("Option first_click must be opening or safe.")
    no_guess = raw.get("no_guess", False)
    if not isinstance(no_guess, bool):
        raise OptionError("Option no_guess must be true or false.")
    max_adjacent = raw.get("max_adjacent")
    if max_adjacent is not None:
        max_adjacent = _int(raw, "max_adjacent", 8, 1, 8)
        if mines * 8 > cells * max_adjacent * 0.6:
            raise OptionError(f"{mines} mines are too many for max_adjacent {max_adjacent} "
                              f"on a {width}x{height} board; use fewer mines or a larger "
                              "max_adjacent.")
    if no_guess:
        if cells > NO_GUESS_MAX_CELLS:
            raise OptionError("no_guess boards can have at most 10000 cells "
                              "(e.g. 100x100).")
        limit = no_guess_max_mines(cells)
        if mines > limit:
            raise OptionError(f"no_guess boards of {width}x{height} can hold at most {limit} "
                              "mines; use fewer mines or turn no_guess off.")
    penalty = raw.get("hint_penalty", 20)
    if isinstance(penalty, bool) or not isinstance(penalty, int | float) \
            or not 0 <= penalty <= 3600:
        raise OptionError("Option hint_penalty must be a number of seconds from 0 to 3600.")
    return {
        "preset": preset,
        "width": width,
        "height": height,
        "mines": mines,
        "first_click": first_click,
        "no_guess": no_guess,
        "max_adjacent": max_adjacent,
        "lives": _int(raw, "lives", 1, 1, 99),
        "max_players": _int(raw, "max_players", 8, 1, 8),
        "hint_penalty": float(penalty),
    }
