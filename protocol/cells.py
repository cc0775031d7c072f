"""How people name a board's cells: in the server's sentences and on every client's
board labels alike (the wire itself carries 0-based ``x``/``y``).

Columns are letters from the left, skipping ``I`` so it is never read as ``1``
(``A`` ... ``H``, ``J`` ... ``Z``, then ``AA``, ``AB`` ...); rows are numbers from
1 at the top. So ``x=7, y=7`` is ``H8``, the centre of a 15×15 Gomoku board, as
Go-style boards label it.

>>> cell_name(7, 7), cell_name(0, 0), column_name(24), column_name(25)
('H8', 'A1', 'Z', 'AA')
"""

from __future__ import annotations

COLUMN_LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""25 letters: the alphabet without ``I``."""


def column_name(x: int) -> str:
    """The letters of column ``x`` (0-based): A, B ... Z, AA, AB ... (no I)."""
    if x < 0:
        raise ValueError(f"column {x} is off the board")
    base = len(COLUMN_LETTERS)
    letters = ""
    x += 1
    while x:
        x, digit = divmod(x - 1, base)
        letters = COLUMN_LETTERS[digit] + letters
    return letters


def row_name(y: int) -> str:
    """The number of row ``y`` (0-based): 1 at the top."""
    if y < 0:
        raise ValueError(f"row {y} is off the board")
    return str(y + 1)


def cell_name(x: int, y: int) -> str:
    """``H8``-style name of the cell at column ``x``, row ``y`` (both 0-based)."""
    return column_name(x) + row_name(y)


def board_span(width: int, height: int) -> str:
    """The names a ``width`` × ``height`` board uses: ``columns A-O, rows 1-15``."""
    return f"columns A-{column_name(width - 1)}, rows 1-{height}"
