"""A solo player driven by the strategy, for the benchmark and tests."""

from __future__ import annotations

import random

from .board import Board
from .generate import random_layout
from .solver import MINE, NO_NUMBER, UNKNOWN, Knowledge
from .strategy import choose, first_cell


def play_game(board: Board, first: int) -> bool:
    """Play ``board`` from the (already chosen) first cell; True on a win."""
    k = Knowledge(board.width, board.height, len(board.mines))
    counts, state, number = board.counts, k.state, k.number
    k.reveal(first, counts[first])
    while not k.solved():
        pending = [
            c
            for c in range(len(state))
            if state[c] != MINE and state[c] != UNKNOWN and number[c] == NO_NUMBER
        ]
        if pending:
            for c in pending:
                k.reveal(c, counts[c])
            continue
        cell, _ = choose(k)
        if board.is_mine(cell):
            return False
        k.reveal(cell, counts[cell])
    return True


def play_seed(seed: int, width: int = 30, height: int = 16, mines: int = 99) -> bool:
    """One game with the opening rule on a board drawn from ``seed``, first
    click where the strategy puts it."""
    first = first_cell(width, height)
    board = random_layout(width, height, mines, first, "opening", random.Random(seed))
    return play_game(board, first)
