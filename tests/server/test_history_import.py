"""``gridhall-server import FILE``: a Gomoku game from a PSQ file or a move list stored
as a finished game (listed with ``source: import``, replayable, exportable as it came);
a bad file is one line on stderr, exit code 2, and nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.io.services import replays
from gridhall.server.io.store import history
from gridhall.server.io.store.store import Store
from tests.server.test_export_cli import export, play_a_game


def run_import(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        cli.main(["import", *argv])
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def stored_games(path: Path) -> int:
    store = Store(path)
    try:
        n: int = store.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    finally:
        store.close()
    return n


def test_an_exported_game_imports_back_as_the_same_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    played = play_a_game(path)
    code, psq, _ = export([str(played), "--db", str(path)], capsys)
    assert code == 0
    file = tmp_path / "game.psq"
    file.write_text(psq)
    code, out, err = run_import([str(file), "--db", str(path)], capsys)
    assert code == 0 and err == ""
    imported = int(out.strip())
    assert imported != played
    code, again, _ = export([str(imported), "--db", str(path)], capsys)
    assert code == 0 and again == psq

    store = Store(path)
    games, _ = history.list_games(store.db)
    summary, record = history.load_game(store.db, imported) or ({}, {})
    store.close()
    assert games[0]["game_id"] == imported and games[0]["source"] == "import"
    assert [p["name"] for p in games[0]["players"]] == ["Ann", "Bob"]
    assert summary["result"]["reason"] == "five" and summary["moves"] == 9
    replay = replays.page("gomoku", record)
    assert replay.total == 9 and replay.steps[0]["label"] == "H8"


def test_a_move_list_imports_with_black_and_white_and_no_winner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    file = tmp_path / "moves.txt"
    file.write_text("# a short game\nH8\nJ9\n8,9\n")
    code, out, err = run_import([str(file), "--format", "text", "--db", str(path)], capsys)
    assert code == 0 and err == ""
    store = Store(path)
    summary, _record = history.load_game(store.db, int(out)) or ({}, {})
    store.close()
    assert [p["name"] for p in summary["players"]] == ["Black", "White"]
    assert summary["result"] == {"winner": None, "reason": "imported"}
    assert summary["moves"] == 3 and summary["source"] == "import"


@pytest.mark.parametrize(
    "text,fmt,why",
    [
        ("Piskvorky 15x15, 0:0, 0\n8,8,0\n8,8,0\n-1\n", "psq", "line 3"),
        ("not a game\n", "psq", "line 1"),
        ("Piskvorky 15x15, 0:0, 0\n-1\n", "psq", "no moves"),
        ("A1\nA2\nB1\nB2\nC1\nC2\nD1\nD2\nE1\nE2\n", "text", "move 10 (E2)"),
        ("H8\nZZ99\n", "text", "line 2"),
    ],
)
def test_a_bad_file_is_one_line_exit_2_and_nothing_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, fmt: str, why: str
) -> None:
    path = tmp_path / "g.db"
    file = tmp_path / "bad.txt"
    file.write_text(text)
    code, out, err = run_import([str(file), "--format", fmt, "--db", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and why in err and str(file) in err
    assert not path.exists() or stored_games(path) == 0


def test_a_missing_file_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    code, out, err = run_import([str(tmp_path / "nope.psq"), "--db", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and "nope.psq" in err
    assert not path.exists()
