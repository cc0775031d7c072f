"""``--engine NAME=COMMAND``: external Gomocup engines probed at start and seated as
computer levels, over real websockets, with a real (tiny) engine process."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gridhall.server.io.net.app import GameServer
from tests.conftest import url_of
from tests.web.test_web_static import get
from tests.wsclient import WsClient

FAKE = str(Path(__file__).parent.parent / "fixtures" / "pbrain_fake.py")


def engines(log: Path) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return (
        ("fake", (sys.executable, FAKE, "--log", str(log))),
        ("broken", (sys.executable, "-c", "import sys; sys.exit(3)")),
        ("missing", ("/nonexistent/pbrain-missing",)),
    )


async def test_a_person_plays_the_fake_engine_and_broken_ones_are_not_offered(
    make_server: Callable[..., Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    log = tmp_path / "fake.log"
    with caplog.at_level(logging.INFO, logger="gridhall.engines"):
        server: GameServer = await make_server(engines=engines(log), ai_budget=0.5)
    problems = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(problems) == 2
    assert any(p.startswith("engine broken (") and "not offered" in p for p in problems)
    assert any(p.startswith("engine missing (") and "not offered" in p for p in problems)

    status, _, body = await get(server, "/games.json")
    assert status == 200
    gomoku = json.loads(body)["games"]["gomoku"]
    ai = next(f for f in gomoku["form"] if f["key"] == "ai")
    assert [c[0] for c in ai["choices"]] == [None, "easy", "hard", "engine:fake"]
    assert gomoku["words"]["levels"]["engine:fake"] == "fake"

    async with WsClient.connect(url_of(server), "Ann") as a:
        await a.send("create-room", game="gomoku", options={"ai": "engine:broken"}, id=1)
        assert (await a.expect("error", re=1))["code"] == "bad-message"
        await a.send(
            "create-room", game="gomoku", options={"ai": "engine:fake", "clock": "5+3"}, id=2
        )
        state = await a.expect("state", status="playing")
        bot = state["players"][1]
        assert bot["bot"] == "engine:fake"
        for n, (x, y) in enumerate([(7, 7), (7, 8), (8, 9)]):
            await a.send("move", move={"x": x, "y": y})
            reply = await a.expect("moved", by=bot["player"])
            assert reply["move"] == {"x": n, "y": 0}  # the fake's first empty point
        await a.send("resign")
        assert (await a.expect("game-over"))["result"]["winner"] == bot["player"]
    told = log.read_text().splitlines()
    assert "INFO timeout_turn 500" in told and any(t.startswith("INFO time_left ") for t in told)
    assert server.store.recent_games(1)[0].players[1]["bot"] == "engine:fake"


async def test_without_engines_the_description_is_the_packaged_one(
    make_server: Callable[..., Any],
) -> None:
    server: GameServer = await make_server()
    _, _, body = await get(server, "/games.json")
    ai = next(f for f in json.loads(body)["games"]["gomoku"]["form"] if f["key"] == "ai")
    assert [c[0] for c in ai["choices"]] == [None, "easy", "hard"]
    async with WsClient.connect(url_of(server), "Ann") as a:
        await a.send("create-room", game="gomoku", options={"ai": "engine:fake"}, id=1)
        assert (await a.expect("error", re=1))["code"] == "bad-message"


async def test_an_engine_that_dies_when_asked_for_a_move_is_replaced_by_the_hard_engine(
    make_server: Callable[..., Any],
) -> None:
    """It answered at start (START, ABOUT) so it is offered; every move it fails on is
    played by the hard engine instead, and the game goes on."""
    dying = (("dying", (sys.executable, FAKE, "--die-after", "0")),)
    server: GameServer = await make_server(engines=dying, ai_budget=0.2)
    async with WsClient.connect(url_of(server), "Ann") as a:
        await a.send("create-room", game="gomoku", options={"ai": "engine:dying"})
        bot = (await a.expect("state", status="playing"))["players"][1]["player"]
        taken: set[tuple[int, int]] = set()
        for choices in ([(7, 7)], [(7, 8), (8, 7), (6, 6)]):  # a free one: it may reply at (7, 8)
            x, y = next(p for p in choices if p not in taken)
            await a.send("move", move={"x": x, "y": y})
            reply = (await a.expect("moved", by=bot))["move"]
            taken |= {(x, y), (reply["x"], reply["y"])}
            assert reply["y"] != 0  # not the fake's first empty point: the hard engine's
            assert abs(reply["x"] - 7) <= 3 and abs(reply["y"] - 7) <= 3
