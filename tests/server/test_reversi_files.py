"""Reversi's record files through ``gridhall-server export`` and ``import``: a move list
in the common notation (``F5 D6 C3``) out of the store and back, checked by the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server.io import history
from gridhall.server.io.store import Store
from tests.server.helpers import T0, FakeServer, connect
from tests.server.test_export_cli import export
from tests.server.test_history_import import run_import, stored_games


def play_a_short_game(path: Path) -> int:
    """Ann (black) and Bob play three discs on 8x8, then Bob resigns; the game's id."""
    store = Store(path)
    server = FakeServer(store=store)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="reversi", options={"size": 8})
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("move", T0 + 1, move={"x": 5, "y": 4})  # F5
    bob.send("move", T0 + 2, move={"x": 3, "y": 5})  # D6
    ann.send("move", T0 + 3, move={"x": 2, "y": 2})  # C3
    bob.send("resign", T0 + 4)
    games = store.recent_games(1)
    store.close()
    return games[0].id


def test_a_game_exports_as_a_move_list_that_imports_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    played = play_a_short_game(path)
    code, out, err = export([str(played), "--db", str(path)], capsys)
    assert (code, out, err) == (0, "F5 D6 C3\n", "")
    file = tmp_path / "game.txt"
    file.write_text("f5 d6\nc3 # as people write it\n")
    code, out, err = run_import([str(file), "--game", "reversi", "--db", str(path)], capsys)
    assert code == 0 and err == ""
    store = Store(path)
    summary, _record = history.load_game(store.db, int(out)) or ({}, {})
    store.close()
    assert summary["moves"] == 3 and summary["source"] == "import"
    assert summary["result"]["reason"] == "imported" and summary["result"]["winner"] is None


def test_an_illegal_move_list_is_refused_and_nothing_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.db"
    file = tmp_path / "bad.txt"
    file.write_text("F5 A1\n")
    code, out, err = run_import([str(file), "--game", "reversi", "--db", str(path)], capsys)
    assert code == 2 and out == "" and "move 2" in err and "A1" in err
    assert stored_games(path) == 0
