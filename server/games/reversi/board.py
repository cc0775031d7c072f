"""Reversi positions as bitboards: legal moves, flips, passes and the end.

A board of side ``n`` is kept as two Python integers (black's discs, white's), one bit a
cell at ``y * (n + 1) + x``: each row has one more, always empty, guard bit, so a shift
that walks off the right or left edge lands on a guard and is masked away. One shape
serves 6×6, 8×8 and 10×10 alike, and the search (``ai/``) runs on the same integers.

>>> p = Position.start(8)
>>> sorted(p.legal_cells())
[(2, 3), (3, 2), (4, 5), (5, 4)]
>>> q = p.play(5, 4)   # F5, the usual first move
>>> q.counts()
(4, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

SIZES = (6, 8, 10)
"""The board sides a room may ask for (8 is the standard game)."""
EMPTY, BLACK, WHITE = 0, 1, 2
COLOUR_NAMES = {BLACK: "black", WHITE: "white"}


@dataclass(frozen=True)
class Geometry:
    """The bit layout of one board side: masks and shifts, built once per side."""

    size: int
    width: int
    mask: int
    """Every cell's bit (no guards)."""
    shifts: tuple[int, ...]
    """Bit distances of the four line directions (each is walked both ways)."""
    corners: int
    x_squares: int
    """The cells diagonally next to a corner: taking one often gives the corner away."""
    c_squares: int
    """The edge cells next to a corner."""
    edges: int

    def bit(self, x: int, y: int) -> int:
        return 1 << (y * self.width + x)

    def cell(self, index: int) -> tuple[int, int]:
        """The (x, y) of bit number ``index``."""
        y, x = divmod(index, self.width)
        return x, y


@cache
def geometry(size: int) -> Geometry:
    """The layout of a ``size`` × ``size`` board (cached: one per side)."""
    if size < 4 or size % 2:
        raise ValueError(f"a Reversi board has an even side of at least 4, not {size}")
    w = size + 1
    last = size - 1

    def bits(cells: list[tuple[int, int]]) -> int:
        out = 0
        for x, y in cells:
            if 0 <= x < size and 0 <= y < size:
                out |= 1 << (y * w + x)
        return out

    corners = [(0, 0), (last, 0), (0, last), (last, last)]
    return Geometry(
        size=size,
        width=w,
        mask=bits([(x, y) for y in range(size) for x in range(size)]),
        shifts=(1, w, w + 1, w - 1),
        corners=bits(corners),
        x_squares=bits([(1, 1), (last - 1, 1), (1, last - 1), (last - 1, last - 1)]),
        c_squares=bits(
            [
                (1, 0),
                (0, 1),
                (last - 1, 0),
                (last, 1),
                (0, last - 1),
                (1, last),
                (last - 1, last),
                (last, last - 1),
            ]
        ),
        edges=bits([(i, e) for i in range(size) for e in (0, last)])
        | bits([(e, i) for i in range(size) for e in (0, last)]),
    )


def legal_bits(me: int, opp: int, g: Geometry) -> int:
    """Every empty cell where the side with ``me`` may put a disc (a bit set)."""
    empty = g.mask & ~(me | opp)
    moves = 0
    reach = g.size - 3  # a line holds at most size - 2 opposing discs
    for d in g.shifts:
        t = (me << d) & opp
        for _ in range(reach):
            t |= (t << d) & opp
        moves |= (t << d) & empty
        t = (me >> d) & opp
        for _ in range(reach):
            t |= (t >> d) & opp
        moves |= (t >> d) & empty
    return moves


def flip_bits(me: int, opp: int, move: int, g: Geometry) -> int:
    """The opposing discs a disc on bit ``move`` turns over (0: not a legal move)."""
    flipped = 0
    for d in g.shifts:
        line = 0
        x = (move << d) & g.mask
        while x & opp:
            line |= x
            x = (x << d) & g.mask
        if x & me:
            flipped |= line
        line = 0
        x = move >> d
        while x & opp:
            line |= x
            x >>= d
        if x & me:
            flipped |= line
    return flipped


def cells_of(bits: int, g: Geometry) -> list[tuple[int, int]]:
    """The (x, y) of every set bit, in reading order (top row first)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(g.cell(low.bit_length() - 1))
        bits ^= low
    return out


class Move(NamedTuple):
    """One placed disc: where, by which colour, and what it turned over."""

    x: int
    y: int
    colour: int
    flipped: int


@dataclass(frozen=True)
class Position:
    """A board and the colour to move; immutable, so positions can be kept as history."""

    size: int
    black: int
    white: int
    to_move: int = BLACK

    @classmethod
    def start(cls, size: int = 8) -> Position:
        """The standard four-disc start: white on the top-left and bottom-right centre cells."""
        g = geometry(size)
        h = size // 2
        return cls(
            size, g.bit(h, h - 1) | g.bit(h - 1, h), g.bit(h - 1, h - 1) | g.bit(h, h), BLACK
        )

    @property
    def geometry(self) -> Geometry:
        return geometry(self.size)

    def discs(self, colour: int) -> int:
        return self.black if colour == BLACK else self.white

    def at(self, x: int, y: int) -> int:
        bit = self.geometry.bit(x, y)
        return BLACK if self.black & bit else WHITE if self.white & bit else EMPTY

    def on_board(self, x: int, y: int) -> bool:
        return 0 <= x < self.size and 0 <= y < self.size

    def legal(self, colour: int | None = None) -> int:
        """Legal cells of ``colour`` (by default the side to move) as a bit set."""
        colour = self.to_move if colour is None else colour
        me, opp = self.discs(colour), self.discs(3 - colour)
        return legal_bits(me, opp, self.geometry)

    def legal_cells(self, colour: int | None = None) -> list[tuple[int, int]]:
        return cells_of(self.legal(colour), self.geometry)

    def flips(self, x: int, y: int) -> int:
        """What the side to move turns over at (x, y): 0 when the move is illegal."""
        if not self.on_board(x, y) or self.at(x, y) != EMPTY:
            return 0
        me, opp = self.discs(self.to_move), self.discs(3 - self.to_move)
        return flip_bits(me, opp, self.geometry.bit(x, y), self.geometry)

    def play(self, x: int, y: int) -> Position:
        """The position after the side to move puts a disc on (x, y), with the turn
        passed on (to the same side again if the other has no move). ValueError when
        the move flips nothing."""
        flipped = self.flips(x, y)
        if not flipped:
            raise ValueError(f"({x}, {y}) is not a legal move")
        bit = self.geometry.bit(x, y)
        me, opp = self.discs(self.to_move), self.discs(3 - self.to_move)
        me |= bit | flipped
        opp &= ~flipped
        black, white = (me, opp) if self.to_move == BLACK else (opp, me)
        after = Position(self.size, black, white, 3 - self.to_move)
        if not after.legal() and after.legal(self.to_move):
            return Position(self.size, black, white, self.to_move)
        return after

    def over(self) -> bool:
        """Neither side can move (the board may still have empty cells)."""
        return not self.legal(BLACK) and not self.legal(WHITE)

    def counts(self) -> tuple[int, int]:
        """(black discs, white discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def empties(self) -> int:
        return self.size * self.size - self.black.bit_count() - self.white.bit_count()

    def rows(self) -> str:
        """The board as ``size * size`` characters, top row first: ``.`` ``b`` ``w``."""
        return "".join(".bw"[self.at(x, y)] for y in range(self.size) for x in range(self.size))
