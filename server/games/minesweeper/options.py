"""Room options for co-op Minesweeper: validated, with defaults filled in."""

from __future__ import annotations

from gridhall.protocol.games import options
from gridhall.protocol.games.minesweeper import MINESWEEPER

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


KNOWN = {f.key for f in MINESWEEPER.form}
"""Every option, as the description lists them."""


def parse_options(raw: JSON) -> JSON:
    """Validate ``raw`` room options and return them complete. Names, kinds and bounds
    come from the description; here only what joins fields (a preset or a size, the
    cells a board needs, what no-guess and max_adjacent boards can hold)."""
    if not isinstance(raw, dict):
        raise OptionError("Options must be a map.")
    preset = raw.get("preset")
    if preset is not None and preset not in PRESETS:
        raise OptionError("Option preset must be beginner, intermediate or expert.")
    width0, height0, mines0 = PRESETS[preset or "intermediate"]
    sized = {"preset": None, "width": width0, "height": height0, "mines": mines0}
    parsed = options.parse(MINESWEEPER, raw, OptionError, defaults=sized)
    if preset is not None:
        given = dict(zip(("width", "height", "mines"), PRESETS[preset], strict=True))
        if any(raw.get(k, v) != v for k, v in given.items()):
            raise OptionError("Give either a preset or width/height/mines, not both.")
    width, height, mines = parsed["width"], parsed["height"], parsed["mines"]
    cells = width * height
    if cells < 10:
        raise OptionError("The board needs at least 10 cells.")
    if mines > cells - 9:
        raise OptionError(
            f"Option mines must be between 1 and {cells - 9} on a {width}x{height} board."
        )
    max_adjacent = parsed["max_adjacent"]
    if max_adjacent is not None and mines * 8 > cells * max_adjacent * 0.6:
        raise OptionError(
            f"{mines} mines are too many for max_adjacent {max_adjacent} "
            f"on a {width}x{height} board; use fewer mines or a larger "
            "max_adjacent."
        )
    if parsed["no_guess"]:
        if cells > NO_GUESS_MAX_CELLS:
            raise OptionError("no_guess boards can have at most 10000 cells (e.g. 100x100).")
        limit = no_guess_max_mines(cells)
        if mines > limit:
            raise OptionError(
                f"no_guess boards of {width}x{height} can hold at most {limit} "
                "mines; use fewer mines or turn no_guess off."
            )
    parsed["hint_penalty"] = float(parsed["hint_penalty"])
    return {
        key: parsed[key]
        for key in (
            "preset",
            "width",
            "height",
            "mines",
            "first_click",
            "no_guess",
            "max_adjacent",
            "lives",
            "max_players",
            "hint_penalty",
        )
    }
