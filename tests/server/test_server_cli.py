"""Where the server keeps its data, and what ``history`` says about it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.core.config import ServerConfig, default_db_path


def test_the_database_defaults_to_the_users_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db_path() == tmp_path / "data" / "gridhall" / "gridhall.db"
    assert ServerConfig().db == str(tmp_path / "data" / "gridhall" / "gridhall.db")
    args = cli.build_parser().parse_args([])
    assert args.db == str(tmp_path / "data" / "gridhall" / "gridhall.db")


def test_history_without_a_database_says_so_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "none" / "g.db"
    cli.main(["history", "--db", str(db)])
    out = capsys.readouterr().out
    assert str(db) in out and "No games yet" in out
    assert not db.exists() and not db.parent.exists()


def test_history_reads_the_servers_database_and_says_when_it_is_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gridhall.server.io.store.store import Store

    db = tmp_path / "g.db"
    Store(db).close()
    cli.main(["--db", str(db), "history"])
    out = capsys.readouterr().out
    assert f"database: {db}" in out and "No finished games yet." in out
