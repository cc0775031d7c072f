"""``gridhall-server export GAME_ID``: a finished game from the store, printed as PSQ
or as a move list, which reads back as the same game."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server import cli
from gridhall.server.games.gomoku.records import read_moves, read_psq
from gridhall.server.io.store import Store
from tests.server.helpers import T0, FakeServer, connect


def play_a_game(path: Path) -> int:
    """Ann (black) beats Bob with five in a row, after a take-back; the game's id."""
    store = Store(path)
    server = FakeServer(store=store)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", options={"size": 15})
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("move", T0 + 1.5, move={"x": 7, "y": 7})
    bob.send("move", T0 + 3.0, move={"x": 0, "y": 0})
    bob.send("offer", T0 + 4.0, kind="takeback")
    ann.send("answer", T0 + 5.0, kind="takeback", accept=True)
    bob.send("move", T0 + 7.25, move={"x": 0, "y": 1})
    for n in range(1, 5):
        ann.send("move", T0 + 10 * n, move={"x": 7 + n, "y": 7})
        if n < 4:
            bob.send("move", T0 + 10 * n + 1, move={"x": n, "y": 1})
    assert ann.last(p.GameOver).result["reason"] == "five"
    games = store.recent_games(1)
    store.close()
    return games[0].id


def export(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(["export", *argv])
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def test_a_finished_game_exports_as_psq_that_reads_back_as_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    game_id = play_a_game(path)
    code, out, err = export([str(game_id), "--db", str(path), "--format", "psq"], capsys)
    assert code == 0 and err == ""
    record = read_psq(out)
    assert record.size == 15 and record.first == 0 and record.end == 0
    assert record.moves == (
        (7, 7),
        (0, 1),
        (8, 7),
        (1, 1),
        (9, 7),
        (2, 1),
        (10, 7),
        (3, 1),
        (11, 7),
    )
    assert record.times == (1500, 2250, 2750, 1000, 9000, 1000, 9000, 1000, 9000)
    assert record.engines == ("Ann", "Bob")
    assert out.startswith("Piskvorky 15x15, 0:0, 0\n8,8,1500\n1,2,2250\n")


def test_the_text_format_prints_one_move_a_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    game_id = play_a_game(path)
    code, out, _err = export([str(game_id), "--db", str(path), "--format", "text"], capsys)
    assert code == 0 and out.splitlines()[:3] == ["H8", "A2", "J8"]
    assert len(read_moves(out).moves) == 9


def test_history_prints_the_id_that_export_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    game_id = play_a_game(path)
    cli.print_history(str(path), 20)
    line = capsys.readouterr().out.splitlines()[1]
    assert line.split()[0] == str(game_id) and "Ann wins by five in a row." in line


def test_an_unknown_game_is_one_line_on_stderr_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    game_id = play_a_game(path)
    code, out, err = export([str(game_id + 1), "--db", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"no finished game {game_id + 1}" in err


def test_a_minesweeper_game_does_not_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    store = Store(path)
    store.save_game(
        "R1",
        "minesweeper",
        {"preset": "easy"},
        [{"player": "a", "name": "Ann"}],
        {"winner": None, "reason": "cleared"},
        {"actions": []},
        T0,
        T0 + 60,
    )
    game_id = store.recent_games(1)[0].id
    store.close()
    code, out, err = export([str(game_id), "--db", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "only Gomoku, Reversi games export" in err


def test_a_missing_database_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "none.db"
    code, out, err = export(["1", "--db", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "no database" in err
    assert not path.exists()
