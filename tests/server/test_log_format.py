"""``--log-format json``: one JSON object per log line, with room and player ids."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server import cli
from gridhall.server.io import logformat, settings_file
from tests.wsclient import WsClient


class Lines(logging.Handler):
    """Keeps every formatted line."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logformat.JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def json_lines() -> Iterator[Lines]:
    handler = Lines()
    root = logging.getLogger("gridhall")
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield handler
    root.removeHandler(handler)
    root.setLevel(level)


async def test_a_session_logs_json_lines_with_the_room_and_the_player(
    server_url: str, json_lines: Lines
) -> None:
    async with WsClient.connect(server_url, "Zo\u00eb \u202eann") as ann:
        await ann.send("create-room", game="gomoku", options={})
        room = (await ann.expect("joined"))["room"]
    objects = [json.loads(line) for line in json_lines.lines]
    assert all(line.isascii() for line in json_lines.lines)  # a name can't reorder a terminal
    created = next(o for o in objects if "created room" in o["message"])
    assert created["room"] == room and created["player"] == ann.player
    assert created["level"] == "INFO" and created["logger"] == "gridhall.hub"
    assert created["time"].endswith("Z")
    hello = next(o for o in objects if o.get("player") == ann.player and "room" not in o)
    assert ann.player in hello["message"] and "Zo\u00eb" in hello["message"]


def test_a_json_line_carries_the_exception_on_the_same_line() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord(
            "gridhall.app", logging.ERROR, __file__, 1, "could not %s", ("write",), sys.exc_info()
        )
    line = logformat.JsonFormatter().format(record)
    assert "\n" not in line
    got = json.loads(line)
    assert got["message"] == "could not write" and "ValueError: boom" in got["exception"]
    assert "room" not in got and "player" not in got


def test_the_readable_format_stays_the_default_and_json_is_a_setting(tmp_path: Path) -> None:
    parser = cli.build_parser
    assert parser().parse_args([]).log_format == "text"
    assert parser().parse_args(["--log-format", "json"]).log_format == "json"
    path = tmp_path / "gridhall.toml"
    path.write_text('log_format = "json"\n', "utf-8")
    assert settings_file.parse(parser(), ["--config", str(path)]).args.log_format == "json"


def test_an_internal_error_is_logged_with_the_players_id(
    json_lines: Lines, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.server.helpers import FakeServer, connect

    server = FakeServer()
    ann = connect(server, "Ann")

    def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.hub, "handle", broken)
    ann.send("list-rooms")
    assert ann.errors()[-1].code == "internal-error"
    logged = [json.loads(line) for line in json_lines.lines if "internal error" in line]
    assert logged and logged[-1]["player"] == ann.last(p.Welcome).player
    assert "RuntimeError: a bug" in logged[-1]["exception"]
