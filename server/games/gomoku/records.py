"""Gomoku game records in the formats the Gomoku world trades: Piskvork's PSQ and a
plain move list. Pure text in, text out (no files), so the CLI, a test or a later
importer share one reader and one writer.

PSQ, as Piskvork writes it (``savePsq``) and Gomocup publishes its games::

    Piskvorky 20x20, 11:11, 0      width x height, the two players' levels, who began
    10,10,0                        one move a line: column,row (from 1,1 at the top
    11,11,1421                     left), then the milliseconds it took
    ...
    pbrain-embryo.exe              the engines' names (tournament games only),
    pbrain-rapfi.exe               player 0's then player 1's
    -1                             Piskvork's end code: 0 finished, 15 timeout,
                                   -1 unknown, -2 an engine error

The reader takes what Piskvork's own reader takes and the variants found in
Gomocup archives: Windows line ends, a byte-order mark, moves without a time,
spaces around commas, no names or no end code, and lines after the end code
(some archives add ``1,Freestyle``). Anything else is a :class:`RecordError` that
names the line.

The plain move list is one move a line as gridhall names cells: ``H8`` (column
letters from the left without ``I``, rows from 1 at the top, see
:mod:`gridhall.protocol.cells`). Its reader also takes ``8,8`` (column,row from
1, as in PSQ), either case, blank lines and ``#`` comments.

>>> read_moves("H8\\nJ9\\n").moves
((7, 7), (8, 8))
>>> write_moves(read_psq("Piskvorky 15x15, 0:0, 0\\n8,8,0\\n9,9,0\\n-1\\n"))
'H8\\nJ9\\n'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from gridhall.protocol.cells import COLUMN_LETTERS, cell_name

from ..records import RecordError as RecordError

MIN_SIZE = 5
MAX_SIZE = 100
"""Board sizes a record may name (Gomocup plays 15 and 20)."""
UNKNOWN_END = -1
"""Piskvork's end code when it is not known (what its tournament server writes)."""

_N = r"(-?[0-9]{1,9})"
"""An integer field: ASCII digits, short enough that nothing huge is built."""
_HEADER = re.compile(
    rf"Piskvorky\s+{_N}\s*x\s*{_N}\s*,\s*{_N}\s*:\s*{_N}\s*,\s*{_N}", re.IGNORECASE
)
_MOVE = re.compile(rf"{_N}\s*,\s*{_N}(?:\s*,\s*{_N})?")
_INTEGER = re.compile(_N)
_CELL = re.compile(r"([A-Za-z]{1,3})\s*([0-9]{1,9})")


@dataclass(frozen=True)
class GameRecord:
    """One game: ``moves`` are 0-based (column, row) points, black's first.

    ``times`` (milliseconds per move), ``engines``, ``levels``, ``first`` and
    ``end`` are PSQ's other fields, kept so a PSQ file reads back as written;
    ``first`` is 1 when Piskvork's player 1 began (``engines`` stay in player
    order, so black is ``engines[first]``)."""

    size: int
    moves: tuple[tuple[int, int], ...]
    times: tuple[int, ...] | None = None
    engines: tuple[str, ...] = ()
    levels: tuple[int, int] = (0, 0)
    first: int = 0
    end: int | None = None


# -- PSQ --------------------------------------------------------------------------
def write_psq(record: GameRecord) -> str:
    """The record as a PSQ file (``\\n`` line ends; the end code -1 if unknown)."""
    if record.times is not None and len(record.times) != len(record.moves):
        raise ValueError("a record needs one time per move, or none")
    times = record.times or (0,) * len(record.moves)
    lines = [
        f"Piskvorky {record.size}x{record.size}, {record.levels[0]}:{record.levels[1]}, "
        f"{record.first}"
    ]
    lines += [f"{x + 1},{y + 1},{max(0, t)}" for (x, y), t in zip(record.moves, times)]
    lines += [one_line(name) for name in record.engines]
    lines.append(str(UNKNOWN_END if record.end is None else record.end))
    return "\n".join(lines) + "\n"


def one_line(name: str) -> str:
    """A name as a PSQ line that reads back as a name: control characters and
    commas become spaces (so it is never taken for a move), never empty."""
    cleaned = "".join(
        " " if unicodedata.category(ch)[0] in "CZ" or ch == "," else ch for ch in name
    )
    return " ".join(cleaned.split()) or "?"


def read_psq(text: str) -> GameRecord:
    """The game in a PSQ file's text; :class:`RecordError` names the first bad line."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or not lines[0].strip():
        raise RecordError(
            1, "not a PSQ record: the first line should look like 'Piskvorky 20x20, 11:11, 0'"
        )
    found = _HEADER.fullmatch(lines[0].strip())
    if found is None:
        raise RecordError(
            1,
            f"not a PSQ header: {_quote(lines[0])} (expected something "
            "like 'Piskvorky 20x20, 11:11, 0')",
        )
    width, height, level0, level1, first = (int(g) for g in found.groups())
    if width != height:
        raise RecordError(1, f"the board is {width}x{height}; only square boards are read")
    size = _check_size(width, 1)
    if first not in (0, 1):
        raise RecordError(1, f"who began is {first}; it should be 0 or 1")
    moves: list[tuple[int, int]] = []
    times: list[int] = []
    taken: set[tuple[int, int]] = set()
    rest = len(lines)
    for n, raw in enumerate(lines[1:], start=2):
        line = raw.strip()
        if not line:
            continue
        move = _MOVE.fullmatch(line)
        if move is None:
            rest = n - 1
            break
        x, y = int(move[1]) - 1, int(move[2]) - 1
        _place(taken, x, y, size, n)
        time = int(move[3]) if move[3] is not None else 0
        if time < 0:
            raise RecordError(n, f"the move's time is {time} ms; it cannot be negative")
        moves.append((x, y))
        times.append(time)
    trailer = [line.strip() for line in lines[rest:] if line.strip()]
    codes = [i for i, line in enumerate(trailer) if _INTEGER.fullmatch(line)]
    end = int(trailer[codes[-1]]) if codes else None
    engines = tuple(trailer[: codes[-1]] if codes else trailer)
    return GameRecord(size, tuple(moves), tuple(times), engines, (level0, level1), first, end)


# -- plain move list ---------------------------------------------------------------
def write_moves(record: GameRecord) -> str:
    """One move a line, as gridhall names cells (``H8``)."""
    return "".join(f"{cell_name(x, y)}\n" for x, y in record.moves)


def read_moves(text: str, size: int = 15) -> GameRecord:
    """The moves of a plain list (``H8`` or ``8,8`` a line) on a ``size`` board."""
    size = _check_size(size, 0)
    moves: list[tuple[int, int]] = []
    taken: set[tuple[int, int]] = set()
    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        pair = _MOVE.fullmatch(line)
        cell = _CELL.fullmatch(line)
        if pair is not None and pair[3] is None:
            x, y = int(pair[1]) - 1, int(pair[2]) - 1
        elif cell is not None:
            x, y = _column(cell[1], n), int(cell[2]) - 1
        else:
            raise RecordError(n, f"{_quote(raw)} is not a move (write one a line, like H8 or 8,8)")
        _place(taken, x, y, size, n)
        moves.append((x, y))
    return GameRecord(size, tuple(moves))


# -- shared checks ------------------------------------------------------------------
def _check_size(size: int, line: int) -> int:
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise RecordError(
            line, f"a {size}x{size} board is not read (sizes {MIN_SIZE} to {MAX_SIZE})"
        )
    return size


def _place(taken: set[tuple[int, int]], x: int, y: int, size: int, line: int) -> None:
    """Record the stone at (x, y), refusing a point off the board or taken."""
    if not (0 <= x < size and 0 <= y < size):
        raise RecordError(line, f"{x + 1},{y + 1} is off the {size}x{size} board")
    if (x, y) in taken:
        raise RecordError(line, f"{cell_name(x, y)} ({x + 1},{y + 1}) already holds a stone")
    taken.add((x, y))


def _column(letters: str, line: int) -> int:
    """The 0-based column of ``H``, ``AA``... (the inverse of ``column_name``)."""
    value = 0
    for ch in letters.upper():
        digit = COLUMN_LETTERS.find(ch)
        if digit < 0:
            raise RecordError(
                line, f"{ch} is not a column letter (gridhall's columns skip I: A-H, J-Z)"
            )
        value = value * len(COLUMN_LETTERS) + digit + 1
    return value - 1


def _quote(line: str) -> str:
    """A line of the input, short and with its control characters shown escaped."""
    short = line if len(line) <= 40 else line[:40] + "..."
    return repr(short)
