"""The Python clients' create form offers the connected server's external engines."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from gridhall.client import served
from gridhall.client.views import VIEWS, view_for
from gridhall.protocol import games
from tests.client.test_client_session import running
from tests.conftest import url_of
from tests.waiting import until

FAKE = str(Path(__file__).parent.parent / "fixtures" / "pbrain_fake.py")


@pytest.fixture(autouse=True)
def packaged_descriptions() -> Iterator[None]:
    """Whatever a test installs, the next one starts from the packaged descriptions."""
    view = VIEWS["gomoku"]
    saved = games.GAMES["gomoku"], view.description, view.form
    yield
    games.GAMES["gomoku"], view.description, view.form = saved


def ai_values() -> list[Any]:
    field = next(f for f in view_for("gomoku").form if f.key == "ai")
    return [v for v, _ in field.choices]  # type: ignore[union-attr]


async def test_the_form_offers_the_servers_engines_and_drops_them_elsewhere(
    make_server: Callable[..., Any], tmp_path: Path
) -> None:
    with_engine = await make_server(engines=(("fake", (sys.executable, FAKE)),))
    plain = await make_server(db=str(tmp_path / "other.db"))
    async with running(url_of(with_engine), "ann"):
        await until(lambda: "engine:fake" in ai_values())
    assert games.GAMES["gomoku"].words["levels"]["engine:fake"] == "fake"
    assert view_for("gomoku").options_text({"ai": "engine:fake"}).endswith("(fake)")
    async with running(url_of(plain), "ann"):
        await until(lambda: "engine:fake" not in ai_values())
    assert ai_values() == [None, "easy", "hard"]


def test_the_games_url_follows_the_websocket_url() -> None:
    assert served.games_url("ws://10.0.0.5:8765/") == "http://10.0.0.5:8765/games.json"
    assert served.games_url("wss://h.example/x") == "https://h.example/games.json"
