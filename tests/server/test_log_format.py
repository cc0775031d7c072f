"""``--log-format json``: one JSON object per log line, with room and player ids."""

from __future__ import annotations

import json
import logging
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server import cli
from gridhall.server.io.runtime import logformat, settings_file
from tests.wsclient import WsClient

SERVER = (sys.executable, "-m", "gridhall.server", "--host", "127.0.0.1", "--port", "0")
"""``gridhall-server`` on a free port of 127.0.0.1."""


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


def test_with_json_logs_every_line_a_server_writes_is_a_json_object(tmp_path: Path) -> None:
    """Issue 40: the start-up lines (listening, database, links) came out as plain text
    beside the JSON records, so ``docker logs`` was not JSON. A real server process, from
    its start to its stop, its stdout and stderr in one stream as docker keeps them."""
    proc = subprocess.Popen(
        [*SERVER, "--db", str(tmp_path / "g.db"), "--no-discovery", "--log-format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        seen: list[str] = []
        while not any("admin: http://" in line for line in seen):  # the start-up's last line
            seen.append(proc.stdout.readline())
            assert seen[-1], f"the server ended early: {seen}"
    finally:
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=60)
    lines = [line for line in (*seen, *rest.splitlines()) if line.strip()]
    records = [json.loads(line) for line in lines]  # each one line, each JSON
    assert all(isinstance(r, dict) and r["logger"].startswith("gridhall") for r in records)
    messages = [r["message"] for r in records]
    for part in ("listening on port", "database: ", "gridhall --server", "http://127.0.0.1:"):
        assert any(part in m for m in messages), (part, messages)
    assert "server stopped" in messages[-1] and proc.returncode == 0


def test_readable_logs_keep_the_start_up_lines_on_stdout(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [*SERVER, "--db", str(tmp_path / "g.db"), "--no-discovery"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        seen = [proc.stdout.readline()]
        while not seen[-1].startswith("admin: http://127.0.0.1:"):
            seen.append(proc.stdout.readline())
            assert seen[-1], f"the server ended early: {seen}"
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert seen[0].startswith("gridhall server 'gridhall' listening on port ")
    assert any(line.startswith("database: ") for line in seen)
    assert " INFO gridhall.server: " in err and proc.returncode == 0
