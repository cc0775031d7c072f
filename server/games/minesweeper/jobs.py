"""Minesweeper's heavy steps as picklable jobs: mine layouts and hints.

Both are plain functions of plain data, so the room can run them in a worker
process (``server/games/jobs.py``) and the game applies the answer later; the game
also calls them inline when nobody prepared the answer (tests, replays, bots).
Their answers are plain maps, kept in a room's log as they are.
"""

from __future__ import annotations

import random

from ..base import JSON
from ..jobs import Job, OutOfTime
from .board import Board, counts_text
from .generate import GenerationFailed, generate_no_guess, random_layout
from .hints import hint

LAYOUT_BUDGET = 5.0
"""Seconds a no-guess layout may take before a plain random one is used instead."""
HINT_BUDGET = 1.0
"""Seconds a hint may think; past it the hint says it found nothing."""


def layout_job(options: JSON, first: int, seed: int, flagged: bytes) -> Job:
    """The job that places the mines for a first reveal at ``first`` and opens
    it (``flagged``: one byte a cell, nonzero = flagged, which stays shut).
    Exclusive: the board must not change (a flag) until its answer is in."""
    return Job(
        make_layout,
        (
            options["width"],
            options["height"],
            options["mines"],
            first,
            options["first_click"],
            seed,
            bool(options["no_guess"]),
            options["max_adjacent"],
            flagged,
        ),
        kind="layout",
        budget=LAYOUT_BUDGET,
        exclusive=True,
    )


def make_layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    seed: int,
    no_guess: bool,
    max_adjacent: int | None,
    flagged: bytes,
) -> JSON:
    """``{"mines": [cell, ...], "counts": str, "opened": [cell, ...], "note": str |
    None}``: the layout from the recorded seed, every cell's count (see
    :func:`.board.counts_text`) and the cells the first reveal opens (flagged
    cells stay shut), so the event loop does none of that work."""
    board, note = _layout(width, height, mines, first, first_click, seed, no_guess, max_adjacent)
    opened = board.flood(first, bytearray(width * height), bytearray(flagged))
    return {
        "mines": sorted(board.mines),
        "counts": counts_text(board.counts),
        "opened": opened,
        "note": note,
    }


def _layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    seed: int,
    no_guess: bool,
    max_adjacent: int | None,
) -> tuple[Board, str | None]:
    rng = random.Random(seed)
    note = None
    try:
        if no_guess:
            cells = generate_no_guess(
                width,
                height,
                mines,
                (first % width, first // width),
                seed,
                first_click=first_click,
                max_adjacent=max_adjacent,
            )
            board = Board(width, height, [y * width + x for x, y in cells])
        else:
            board = random_layout(width, height, mines, first, first_click, rng, max_adjacent)
    except GenerationFailed as exc:
        note = f"fell back to a plain random layout: {exc}"
        board = random_layout(width, height, mines, first, first_click, rng)
    except OutOfTime:
        note = "fell back to a plain random layout: no-guess generation ran out of time"
        board = random_layout(width, height, mines, first, first_click, random.Random(seed))
    return board, note


def board_of(width: int, height: int, layout: JSON) -> Board:
    """The board of a :func:`make_layout` answer (counts included: no work here)."""
    return Board(width, height, layout["mines"], layout["counts"])


def hint_job(shown: bytes, width: int, mines: int, flagged: bytes) -> Job:
    """The job for a hint on the public board ``shown`` (one byte a cell, as in
    the view's rows) with ``flagged`` cells (nonzero bytes). Taking bytes keeps
    asking cheap on the event loop: the worker unpacks them."""
    return Job(hint_from_bytes, (shown, width, mines, flagged), kind="hint", budget=HINT_BUDGET)


def hint_from_bytes(shown: bytes, width: int, mines: int, flagged: bytes) -> JSON:
    rows = [shown[y : y + width].decode("ascii") for y in range(0, len(shown), width)]
    return find_hint(rows, mines, [c for c, f in enumerate(flagged) if f])


def find_hint(rows: list[str], mines: int, flagged: list[int]) -> JSON:
    """Advice from public information only (:func:`.hints.hint`, within its work
    budget): ``{"x", "y", "safe": True, "risk": 0.0}`` for a proven-safe cell, else
    the lowest-risk guess with ``safe: False`` (a true 50/50 adds ``"coin_flip":
    True`` and, for a pair no reveal can settle, ``"other": [x, y]``), or
    ``{"none": reason}`` when there is nothing to suggest or the time budget ran out
    first."""
    w = len(rows[0])
    try:
        found = hint(rows, mines, avoid=[(c % w, c // w) for c in flagged])
    except OutOfTime:
        return {"none": "no certain cell was found within the hint's time budget"}
    if found is None:
        return {"none": "no hidden cell is left to suggest"}
    answer: JSON = {"x": found.x, "y": found.y, "safe": found.safe, "risk": found.risk}
    if found.kind == "coin-flip":
        answer["coin_flip"] = True
        if found.other is not None:
            answer["other"] = list(found.other)
    return answer
