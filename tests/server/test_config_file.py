"""``gridhall-server --config FILE``: a TOML settings file under the command line."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from gridhall.server import cli
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.runtime import settings_file

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "gridhall.example.toml"


class Started(Exception):
    """Raised instead of serving: the test has the server's config."""


def start(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> ServerConfig:
    """Run ``gridhall-server`` up to building the server; return the config it got."""
    seen: list[ServerConfig] = []

    def game_server(config: ServerConfig, clustering: object = None) -> Any:
        seen.append(config)
        raise Started

    monkeypatch.setattr(cli, "GameServer", game_server)
    with pytest.raises(Started):
        cli.main(argv)
    return seen[0]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "gridhall.toml"
    path.write_text(text, "utf-8")
    return str(path)


def test_the_files_values_reach_the_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(
        tmp_path,
        'name = "Room 12"\nport = 0\nmax_rooms = 7\ngrace = 5\n'
        "durable_commits = true\nchat_rows = 70\ngames_mb = 1.5\n"
        'allow_origin = ["http://games.example:8080/"]\n'
        f'db = "{tmp_path / "g.db"}"\n',
    )
    config = start(monkeypatch, ["--config", path])
    assert (config.name, config.port, config.max_rooms, config.grace_seconds) == (
        "Room 12",
        0,
        7,
        5.0,
    )
    assert config.durable_commits and config.chat_rows == 70 and config.games_mb == 1.5
    assert config.allow_origins == ("http://games.example:8080",)
    assert config.db == str(tmp_path / "g.db")
    assert config.max_connections == ServerConfig().max_connections  # not in the file


def test_the_command_line_wins_over_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(
        tmp_path,
        'name = "from file"\nmax_rooms = 7\nchat_days = 2\nallow_origin = ["http://a.example"]\n',
    )
    argv = [
        "--max-rooms",
        "9",
        "--config",
        path,
        "--allow-origin",
        "http://b.example",
        "--port",
        "0",
        "--db",
        str(tmp_path / "g.db"),
    ]
    config = start(monkeypatch, argv)
    assert (config.name, config.max_rooms, config.chat_days) == ("from file", 9, 2.0)
    assert config.allow_origins == ("http://b.example:80",)  # replaced, not added to
    settings = settings_file.parse(cli.build_parser(), argv)
    assert settings.from_file == {"name", "chat_days"}
    assert settings.from_command_line == {"max_rooms", "allow_origin", "port", "db"}
    assert settings.source() == f"{path} + command line"
    effective = settings.effective()
    assert effective["name"] == ("from file", "file")
    assert effective["max_rooms"] == (9, "command line")
    assert effective["max_connections"] == (ServerConfig().max_connections, "default")
    assert set(effective) == set(settings_file.options(cli.build_parser()))


@pytest.mark.parametrize(
    ("line", "key", "allowed"),
    [
        ("prot = 8765", "prot", "did you mean port?"),
        ("max-rooms = 3", "max-rooms", "did you mean max_rooms?"),
        ('max_rooms = "many"', "max_rooms", "allowed: a whole number"),
        ("grace = true", "grace", "allowed: a number"),
        ("no_discovery = 1", "no_discovery", "allowed: true or false"),
        ('log_level = "LOUD"', "log_level", 'allowed: one of "DEBUG", "INFO"'),
        ("chat_rows = -1", "chat_rows", "0 or more"),
        ("port = 70000", "port", "0 to 65535"),
        ("room_creations_per_minute = 0", "room_creations_per_minute", "more than 0"),
        ('allow_origin = "http://a.example"', "allow_origin", "allowed: a list"),
        ('allow_origin = ["games.example"]', "allow_origin", "not a web origin"),
        ("[server]\nport = 1", "server", "the keys are: host, port, name"),
        ('log_level = "IN\\nFO\\u001b[2J"', "log_level", '"IN\\nFO\\u001b[2J" is refused'),
        ('"max\\nrooms" = 3', '"max\\nrooms"', "unknown key"),
    ],
)
def test_a_bad_key_or_value_is_refused_in_one_line(
    line: str, key: str, allowed: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, f'name = "ok"\n{line}\n')
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--config", path, "--port", "0", "--db", str(tmp_path / "g.db")])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"gridhall-server: settings file {path}: ")
    assert re.search(rf"(?<!\w){re.escape(key)}(?!\w)", err) and allowed in err
    assert not (tmp_path / "g.db").exists()


def test_an_unreadable_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path, says in (
        (tmp_path / "none.toml", "cannot read it"),
        (Path(write(tmp_path, "port = \n")), "cannot parse it: Invalid value"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            cli.main(["--config", str(path)])
        assert exit_info.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and str(path) in err and says in err


def test_the_example_file_loads_and_names_every_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # its db is relative
    config = start(monkeypatch, ["--config", str(EXAMPLE)])
    assert (config.name, config.max_rooms, config.chat_days) == ("Room 12 games", 50, 7.0)
    text = EXAMPLE.read_text("utf-8")
    for key in settings_file.options(cli.build_parser()):
        assert re.search(rf"^(# )?{key} = ", text, re.MULTILINE), key
    # Every commented line, uncommented, is a valid setting too.
    lines = [m[1] for m in re.finditer(r"^# (\w+ = .*?)(?:\s+#.*)?$", text, re.MULTILINE)]
    path = write(tmp_path, "\n".join(lines) + "\n")
    assert settings_file.read(Path(path), cli.build_parser())


def test_the_start_up_output_says_where_the_settings_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, "max_rooms = 3\n")
    parser = cli.build_parser
    assert settings_file.parse(parser(), []).source() == "defaults"
    assert settings_file.parse(parser(), ["--port", "0"]).source() == "command line"
    assert settings_file.parse(parser(), ["--config", path]).source() == path
    served: list[str | None] = []
    monkeypatch.setattr(cli, "GameServer", lambda config, _=None: SimpleNamespace(config=config))
    monkeypatch.setattr(cli.collector, "install", lambda: None)
    monkeypatch.setattr(
        cli, "serve", lambda server, addresses, settings, **_: served.append(settings)
    )
    monkeypatch.setattr(cli.loops, "run", lambda main, factory: None)
    cli.main(["--config", path, "--port", "0", "--no-discovery"])
    assert served == [f"{path} + command line"]
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.0.2.7"])
    server = SimpleNamespace(
        port=8765,
        config=SimpleNamespace(name="hall", db="/tmp/g.db", host="0.0.0.0"),
        hub=SimpleNamespace(lobby=SimpleNamespace(rooms={})),
        admin=SimpleNamespace(token="t" * 32),
    )
    cli.announce(server, settings=f"{path} + command line")  # type: ignore[arg-type]
    assert f"settings: {path} + command line\n" in capsys.readouterr().out


def test_history_reads_the_database_the_file_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kept" / "hall.db"
    path = write(tmp_path, f'db = "{db}"\n')
    cli.main(["--config", path, "history"])
    out = capsys.readouterr().out
    assert f"database: {db}" in out and "No games yet" in out
