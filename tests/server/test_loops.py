"""The server's event loop: uvloop when installed, asyncio's own on request or without it."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import uvloop

from gridhall.server import cli
from gridhall.server.io.runtime import loops


def test_auto_and_uvloop_choose_uvloop_when_it_is_installed() -> None:
    for choice in ("auto", "uvloop"):
        assert loops.choose(choice) is uvloop.new_event_loop


def test_asyncio_is_chosen_on_request_or_when_uvloop_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert loops.choose("asyncio") is None
    monkeypatch.setitem(sys.modules, "uvloop", None)  # as if it were not installed
    assert loops.choose("auto") is None
    with pytest.raises(loops.LoopUnavailable, match=r"gridhall\[fast\]"):
        loops.choose("uvloop")
    with pytest.raises(ValueError, match="unknown event loop"):
        loops.choose("trio")


def test_run_runs_the_coroutine_on_the_chosen_loop() -> None:
    seen: list[type[asyncio.AbstractEventLoop]] = []

    async def main() -> None:
        seen.append(type(asyncio.get_running_loop()))

    async def name() -> None:
        names.append(loops.running())

    names: list[str | None] = []
    loops.run(main(), uvloop.new_event_loop)
    loops.run(main(), None)
    assert seen[0] is uvloop.Loop and issubclass(seen[1], asyncio.BaseEventLoop)
    assert seen[1] is not uvloop.Loop
    loops.run(name(), uvloop.new_event_loop)
    loops.run(name(), None)
    assert names == ["uvloop", "asyncio"] and loops.running() is None


def test_the_cli_refuses_uvloop_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["--loop", "uvloop", "--no-discovery", "--port", "0", "--db", f"{tmp_path}/g.db"])
    assert exit_info.value.code == 2
    assert "uvloop is not installed" in capsys.readouterr().err
