"""Baseline copy (pre issue 16): Mine layouts, made at the first reveal from a recorded seed.

Three kinds: uniform random; random with ``max_adjacent`` (no cell touches more
mines than that, as in the source material); and ``no_guess``, which places,
solves, and moves a stuck frontier mine into the unexplored interior until the
solver clears the board from the first click, starting afresh when moving
mines stops making progress.
"""

from __future__ import annotations

import random

from gridhall.server.games.minesweeper.board import Board, neighbour_table

from .old_solver import UNKNOWN, Knowledge, logic_solve

MAX_RESTARTS = 400
MOVES_WITHOUT_PROGRESS = 4


class GenerationFailed(Exception):
    """No layout met the constraints (the options are too tight)."""


def excluded_cells(width: int, height: int, first: int, first_click: str) -> set[int]:
    """Cells the first-click rule keeps free of mines."""
    if first_click == "opening":
        return {first, *neighbour_table(width, height)[first]}
    return {first}


def random_layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    rng: random.Random,
    max_adjacent: int | None = None,
) -> Board:
    """A uniformly random layout (or, with ``max_adjacent``, a random one that
    respects it) with the first click's cells free."""
    excluded = excluded_cells(width, height, first, first_click)
    candidates = [c for c in range(width * height) if c not in excluded]
    if max_adjacent is None or max_adjacent >= 8:
        return Board(width, height, rng.sample(candidates, mines))
    nb = neighbour_table(width, height)
    for _ in range(MAX_RESTARTS):
        rng.shuffle(candidates)
        around = bytearray(width * height)
        chosen: list[int] = []
        for c in candidates:
            if any(around[n] >= max_adjacent for n in nb[c]):
                continue
            chosen.append(c)
            for n in nb[c]:
                around[n] += 1
            if len(chosen) == mines:
                return Board(width, height, chosen)
    raise GenerationFailed(
        f"could not place {mines} mines with at most {max_adjacent} around any cell"
    )


def _respects(
    board_mines: set[int], cell: int, nb: tuple[tuple[int, ...], ...], max_adjacent: int | None
) -> bool:
    """Would a mine at ``cell`` keep every cell within ``max_adjacent``?"""
    if max_adjacent is None or max_adjacent >= 8:
        return True
    return all(sum(1 for m in nb[n] if m in board_mines) < max_adjacent for n in nb[cell])


def no_guess_layout(
    width: int,
    height: int,
    mines: int,
    first: int,
    first_click: str,
    rng: random.Random,
    max_adjacent: int | None = None,
) -> Board:
    """A layout the solver clears from ``first`` by logic alone."""
    nb = neighbour_table(width, height)
    for _ in range(MAX_RESTARTS):
        board = random_layout(width, height, mines, first, first_click, rng, max_adjacent)
        layout = set(board.mines)
        best, stale = -1, 0
        while stale < MOVES_WITHOUT_PROGRESS:
            knowledge = logic_solve(board, first)
            if knowledge.solved():
                return board
            progress = knowledge.unknown
            if best < 0 or progress < best:
                best, stale = progress, 0
            else:
                stale += 1
            if not _perturb(knowledge, layout, rng, nb, max_adjacent):
                break
            board = Board(width, height, layout)
    raise GenerationFailed("could not make a board that needs no guessing")


def _perturb(
    k: Knowledge,
    layout: set[int],
    rng: random.Random,
    nb: tuple[tuple[int, ...], ...],
    max_adjacent: int | None,
) -> bool:
    """Move one mine so the stuck frontier changes: preferably a frontier mine
    out to the unexplored interior, else within the unknown area."""
    state, number = k.state, k.number
    frontier: list[int] = []
    interior: list[int] = []
    for c in range(len(state)):
        if state[c] != UNKNOWN:
            continue
        if any(number[n] != 255 for n in nb[c]):
            frontier.append(c)
        else:
            interior.append(c)
    mine_front = [c for c in frontier if c in layout]
    safe_front = [c for c in frontier if c not in layout]
    safe_inner = [c for c in interior if c not in layout]
    mine_inner = [c for c in interior if c in layout]
    if mine_front and (safe_inner or safe_front):
        src, dst = mine_front, safe_inner or safe_front
    elif mine_inner and safe_front:
        src, dst = mine_inner, safe_front
    else:
        return False
    for _ in range(8):
        a, b = rng.choice(src), rng.choice(dst)
        layout.discard(a)
        if _respects(layout, b, nb, max_adjacent):
            layout.add(b)
            return True
        layout.add(a)
    return False
