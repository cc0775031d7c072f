"""``gridhall-bridge`` as a person runs it: a missing engine is one clear line before
any room exists, and finished games print in words, not as maps of player ids."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest

from gridhall.server.games.gomoku.piskvork import bridge as seat

BRAIN = f"{sys.executable} -m gridhall.server.games.gomoku.piskvork.brain"


async def run_main(argv: list[str]) -> int:
    """The bridge's ``main`` in a thread (it runs its own event loop); its exit status."""

    def target() -> int:
        try:
            seat.main(argv)
        except SystemExit as exc:
            return int(exc.code or 0)
        return 0

    return await asyncio.to_thread(target)


async def test_an_engine_not_on_path_is_one_clear_line_and_no_room(
    make_server: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    server = await make_server()
    status = await run_main(
        ["--server", f"127.0.0.1:{server.port}", "--engine", "pbrain-not-installed --level 3"]
    )
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("gridhall-bridge: cannot find the engine 'pbrain-not-installed' on PATH")
    assert "Traceback" not in err and err.count("\n") == 1
    assert server.hub.lobby.rooms == {}  # checked before anything was created


async def test_an_engine_that_is_no_brain_is_refused_before_a_room_exists(
    make_server: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    server = await make_server()
    status = await run_main(
        [
            "--server",
            f"127.0.0.1:{server.port}",
            "--engine",
            f"{sys.executable} -c \"print('hello')\"",
        ]
    )
    assert status == 2
    assert "did not start as a Gomocup brain" in capsys.readouterr().err
    assert server.hub.lobby.rooms == {}


async def test_an_unreachable_server_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    status = await run_main(["--server", "127.0.0.1:9", "--engine", BRAIN])
    err = capsys.readouterr().err
    assert status == 1 and err.startswith("gridhall-bridge: cannot reach the server at ")
    assert "Traceback" not in err


@pytest.mark.timeout(240)
async def test_finished_games_print_as_sentences_with_names(
    make_server: Callable[..., Any], capsys: pytest.CaptureFixture[str]
) -> None:
    server = await make_server(ai_budget=0.05)
    status = await run_main(
        [
            "--server",
            f"127.0.0.1:{server.port}",
            "--engine",
            BRAIN,
            "--name",
            "Brainy",
            "--vs",
            "easy",
            "--timeout-turn",
            "100",
            "--log-level",
            "WARNING",
        ]
    )
    out = capsys.readouterr().out.strip()
    assert status == 0
    assert re.fullmatch(
        r"Game 1: (Brainy \((black|white), this engine\) won by .+|"
        r".+ \((black|white)\) won by .+|draw by .+)\.",
        out,
    ), out
    assert "{" not in out and "'winner'" not in out
