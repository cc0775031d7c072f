"""Link-match's heavy steps as picklable jobs: making a board and shuffling one.

Both are plain functions of plain data and a seed, so the room runs them in a
worker process and the game applies the answer (the same function runs inline
when nobody prepared it: tests, replays). Hints are cheap (:func:`.paths.first_pair`)
and stay on the loop.
"""

from __future__ import annotations

import random

from ..base import JSON
from ..jobs import Job
from .board import Gravity, Rows
from .generate import generate, shuffle_tiles

BOARD_BUDGET = 10.0
"""Seconds a board or a shuffle may take (a full 30x16 board takes well under one)."""


def board_job(options: JSON, seed: int) -> Job:
    """The job that makes a race's board."""
    return Job(
        make_board,
        (options["width"], options["height"], options["kinds"], options["gravity"], seed),
        kind="board",
        budget=BOARD_BUDGET,
    )


def make_board(width: int, height: int, kinds: int, gravity: Gravity, seed: int) -> Rows:
    return generate(width, height, kinds, gravity, random.Random(seed)).rows


def shuffle_job(rows: Rows, gravity: Gravity, seed: str) -> Job:
    """The job that reshuffles ``rows`` (a racer's board) solvably."""
    return Job(shuffle_rows, (rows, gravity, seed), kind="shuffle", budget=BOARD_BUDGET)


def shuffle_rows(rows: Rows, gravity: Gravity, seed: str) -> JSON:
    """``{"from": rows, "rows": shuffled}``: the answer names the board it shuffled,
    so a board that changed meanwhile is not overwritten."""
    return {"from": rows, "rows": shuffle_tiles(rows, gravity, random.Random(seed)).rows}
