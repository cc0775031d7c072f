"""Gomoku records: Piskvork's PSQ (as Gomocup publishes games) and a plain move list."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gridhall.server.games.gomoku.records import (
    GameRecord,
    RecordError,
    read_moves,
    read_psq,
    write_moves,
    write_psq,
)

GOMOCUP = (
    "Piskvorky 20x20, 11:11, 0\r\n"
    "10,10,0\r\n"
    "11,11,0\r\n"
    "11,9,0\r\n"
    "12,10,2203\r\n"
    "9,10,1875\r\n"
    "10,11,3120\r\n"
    "10,9,2410\r\n"
    "12,8,998\r\n"
    "9,8,4017\r\n"
    "8,7,1502\r\n"
    "9,9,2711\r\n"
    "9,11,3003\r\n"
    "8,9,1204\r\n"
    "7,9,876\r\n"
    "11,7,1999\r\n"
    "6,8,2501\r\n"
    "pbrain-embryo21_s.exe\r\n"
    "pbrain-rapfi21.exe\r\n"
    "0\r\n"
)
"""A Gomocup tournament game as Piskvork saves it: three opening stones at 0 ms, then
the engines' moves with their times, the engines' names and the end code."""


def test_a_gomocup_game_reads_with_its_moves_times_engines_and_end_code() -> None:
    record = read_psq(GOMOCUP)
    assert record.size == 20 and record.levels == (11, 11) and record.first == 0
    assert record.moves[:4] == ((9, 9), (10, 10), (10, 8), (11, 9))
    assert len(record.moves) == 16 and record.moves[-1] == (5, 7)
    assert record.times is not None and record.times[:4] == (0, 0, 0, 2203)
    assert record.engines == ("pbrain-embryo21_s.exe", "pbrain-rapfi21.exe")
    assert record.end == 0


def test_a_gomocup_game_is_written_back_line_for_line() -> None:
    assert write_psq(read_psq(GOMOCUP)) == GOMOCUP.replace("\r\n", "\n")


def test_the_variants_in_gomocup_archives_read_the_same_moves() -> None:
    """A byte-order mark, spaces, moves without a time, blank lines, no names, and
    a result line after the end code (some archives add one)."""
    variant = (
        "\ufeffPiskvorky 20x20,  11:11,  0\n10,10\n11 , 11 , 0\n\n11,9,0\n12,10,2203\n"
        "-1\n1,Freestyle\n\n"
    )
    record = read_psq(variant)
    assert record.moves == read_psq(GOMOCUP).moves[:4]
    assert record.times == (0, 0, 0, 2203)
    assert record.engines == () and record.end == -1


def test_a_record_without_an_end_code_or_names_still_reads() -> None:
    record = read_psq("Piskvorky 15x15, 0:0, 1\n8,8,0\n")
    assert record == GameRecord(15, ((7, 7),), (0,), (), (0, 0), 1, None)
    assert write_psq(record).endswith("8,8,0\n-1\n")


def test_a_move_list_names_cells_as_gridhall_does_and_reads_both_forms() -> None:
    record = GameRecord(15, ((7, 7), (8, 7), (0, 14), (14, 0)))
    assert write_moves(record) == "H8\nJ8\nA15\nP1\n"
    assert read_moves("h8\n9,8  # the reply\n\n# a comment\nA15\np1\n") == record


def test_a_move_list_on_a_large_board_uses_two_letter_columns() -> None:
    record = GameRecord(30, ((29, 29), (25, 0)))
    assert write_moves(record) == "AE30\nAA1\n"
    assert read_moves(write_moves(record), size=30) == record


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "first line should look like"),
        ("Gomoku 20x20\n10,10,0\n", 1, "not a PSQ header"),
        ("Piskvorky 20x15, 11:11, 0\n", 1, "only square boards"),
        ("Piskvorky 400x400, 0:0, 0\n", 1, "sizes 5 to 100"),
        ("Piskvorky 20x20, 0:0, 7\n", 1, "0 or 1"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n21,3,0\n", 3, "off the 20x20 board"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n0,3,0\n", 3, "off the 20x20 board"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,0\n\n10,10,0\n", 4, "already holds a stone"),
        ("Piskvorky 20x20, 0:0, 0\n10,10,-5\n", 2, "cannot be negative"),
    ],
)
def test_a_bad_psq_record_names_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_psq(text)
    assert caught.value.line == line and words in str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("H8\nI9\n", 2, "I is not a column letter"),
        ("H8\nthe end\n", 2, "is not a move"),
        ("H8\nQ1\n", 2, "off the 15x15 board"),
        ("H8\n8,8\n", 2, "already holds a stone"),
        ("H8\n8,8,0\n", 2, "is not a move"),
        ("H8\n\x1b[31mJ9\n", 2, "\\x1b"),
    ],
)
def test_a_bad_move_list_names_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_moves(text)
    assert caught.value.line == line and words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_names_are_written_so_they_read_back_as_names_not_moves_or_codes() -> None:
    record = GameRecord(15, ((7, 7),), (5,), ("3,4", "42\r\nevil"), end=0)
    text = write_psq(record)
    assert text.splitlines()[2:] == ["3 4", "42 evil", "0"]
    assert read_psq(text).moves == record.moves and read_psq(text).engines == ("3 4", "42 evil")


def test_a_name_that_is_a_number_stays_a_name() -> None:
    record = GameRecord(15, ((7, 7),), (5,), ("Ann", "42"), end=15)
    assert read_psq(write_psq(record)) == record


def _games(max_size: int = 25) -> st.SearchStrategy[GameRecord]:
    @st.composite
    def build(draw: st.DrawFn) -> GameRecord:
        size = draw(st.integers(5, max_size))
        points = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
        moves = tuple(draw(st.lists(points, unique=True, max_size=60)))
        times = tuple(
            draw(st.lists(st.integers(0, 10**8), min_size=len(moves), max_size=len(moves)))
        )
        return GameRecord(
            size,
            moves,
            times,
            ("black", "white"),
            (0, 0),
            draw(st.integers(0, 1)),
            draw(st.sampled_from([0, 15, -1, -2])),
        )

    return build()


@given(_games())
def test_any_game_round_trips_through_psq(record: GameRecord) -> None:
    assert read_psq(write_psq(record)) == record


@given(_games())
def test_any_game_round_trips_through_a_move_list(record: GameRecord) -> None:
    assert read_moves(write_moves(record), size=record.size).moves == record.moves


_LINES = st.lists(
    st.one_of(
        st.text(max_size=12),
        st.builds("{},{},{}".format, st.integers(-3, 25), st.integers(-3, 25), st.integers(-9, 9)),
        st.sampled_from(["-1", "0", "1,Freestyle", "", " \r", "i9", "H8", "AAA1"]),
    ),
    max_size=30,
)


@given(_LINES, st.sampled_from(["", "Piskvorky 20x20, 11:11, 0\n", "Piskvorky 7x7, 0:0, 1\n"]))
def test_any_text_reads_as_a_game_or_a_record_error(lines: list[str], header: str) -> None:
    text = header + "\n".join(lines)
    for read in (read_psq, read_moves):
        try:
            record = read(text)
        except RecordError as exc:
            assert exc.line >= 0 and str(exc).startswith(f"line {exc.line}: ")
        else:
            assert len(set(record.moves)) == len(record.moves)
            assert all(0 <= v < record.size for move in record.moves for v in move)
