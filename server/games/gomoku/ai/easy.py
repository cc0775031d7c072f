"""The `easy` opponent: the source game's winning-line method, no search.

Every five-cell segment of the board is a winning line. A line still open to
one colour (no opposing stone) is worth more the more stones that colour has in
it; each empty point scores the lines through it for both sides (attack and
defence) and the best point is played. Ties are broken by a seeded generator so
the same position always gives the same move.
"""

from __future__ import annotations

import random

from gridhall.server.games.gomoku.renju import BLACK, EMPTY, WHITE, Grid, foul_code

ATTACK = (1, 20, 200, 2_000, 100_000)
DEFEND = (1, 15, 150, 1_500, 50_000)
_LINES: dict[int, list[tuple[int, ...]]] = {}


def winning_lines(size: int) -> list[tuple[int, ...]]:
    """All five-cell lines as (x + y*size) tuples: 572 of them on 15x15."""
    if size not in _LINES:
        lines = []
        for y in range(size):
            for x in range(size):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    ex, ey = x + 4 * dx, y + 4 * dy
                    if 0 <= ex < size and 0 <= ey < size:
                        lines.append(tuple((x + k * dx) + (y + k * dy) * size for k in range(5)))
        _LINES[size] = lines
    return _LINES[size]


def choose(moves: list[tuple[int, int]], size: int, rule: str) -> tuple[int, int]:
    """Best-scoring empty point for the side to move (legal under renju for black)."""
    board = [EMPTY] * (size * size)
    for i, (x, y) in enumerate(moves):
        board[x + y * size] = BLACK if i % 2 == 0 else WHITE
    me = BLACK if len(moves) % 2 == 0 else WHITE
    if not moves:
        return size // 2, size // 2
    score = [0] * (size * size)
    for line in winning_lines(size):
        mine = theirs = 0
        for p in line:
            v = board[p]
            if v == me:
                mine += 1
            elif v != EMPTY:
                theirs += 1
        if (mine and theirs) or mine == 5 or theirs == 5:
            continue
        add = ATTACK[mine] if not theirs else DEFEND[theirs]
        for p in line:
            score[p] += add
    rng = random.Random(len(moves) * 7919 + size)
    order = [p for p in range(size * size) if board[p] == EMPTY]
    rng.shuffle(order)
    order.sort(key=lambda p: -score[p])
    if rule == "renju" and me == BLACK:
        grid = Grid(size)
        cells = grid.new_board()
        for p in range(size * size):
            cells[grid.index(p % size, p // size)] = board[p]
        for p in order:
            if foul_code(cells, grid.dirs, grid.index(p % size, p // size)) == 0:
                return p % size, p // size
    return order[0] % size, order[0] // size
