"""Clients across drops, server restarts and their own restarts: missed events arrive
as events, a restarting server is shown as such, and a token kept on disk takes a
restarted client straight back to its seat."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.client import config
from gridhall.client.messages import Connection, Event
from gridhall.client.session import Session
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.client.test_client_session import FAST, gomoku_pair, running
from tests.waiting import until


async def test_a_dropped_client_gets_what_it_missed_as_events(server_url: str) -> None:
    async with running(server_url, "ann") as (a, _), running(server_url, "bob") as (b, seen):
        await gomoku_pair(a, b)
        await until(lambda: b.room is not None and b.room.state is not None)
        b.drop_connection()
        await until(lambda: not b.connected)
        a.submit(p.Move(move={"x": 7, "y": 7}))
        a.submit("chat", text="your move, bob")
        await until(lambda: b.connected)
        await until(
            lambda: (
                b.state is not None
                and b.state.chat
                and b.state.chat[-1]["text"] == "your move, bob"
            )
        )
        assert b.state is not None and b.state.view["moves"] == [[7, 7]]
        after = seen[
            [
                i
                for i, m in enumerate(seen)
                if isinstance(m, Connection) and m.status == "connected"
            ][-1] :
        ]
        kinds = [type(m).__name__ for m in after]
        assert "Moved" in kinds and "ChatEvent" in kinds and "State" not in kinds


async def start_server(db: Path, port: int = 0) -> GameServer:
    server = GameServer(ServerConfig(host="127.0.0.1", port=port, db=str(db)))
    await server.start()
    return server


async def test_a_restarting_server_is_shown_and_the_game_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    server = await start_server(db)
    port = server.port
    url = f"ws://127.0.0.1:{port}/"
    try:
        async with running(url, "ann") as (a, seen_a), running(url, "bob") as (b, _):
            await gomoku_pair(a, b)
            a.submit(p.Move(move={"x": 7, "y": 7}))
            await until(lambda: b.state is not None and b.state.view["moves"] == [[7, 7]])
            code = a.room.room if a.room else ""
            await server.close()
            await until(lambda: any(isinstance(m, Connection) and m.restarting for m in seen_a))
            lost = next(m for m in seen_a if isinstance(m, Connection) and m.restarting)
            assert "restarting" in lost.reason
            server = await start_server(db, port)
            await until(lambda: a.connected and b.connected)
            await until(lambda: b.state is not None and b.state.turn == b.player)
            b.submit(p.Move(move={"x": 8, "y": 8}))
            await until(lambda: a.state is not None and a.state.view["moves"] == [[7, 7], [8, 8]])
            assert a.room is not None and a.room.room == code
    finally:
        await server.close()


async def test_a_restarted_client_goes_straight_back_to_its_seat(server_url: str) -> None:
    async with running(server_url, "ann") as (a, _):
        bob = Session(
            server_url, "bob", backoff=FAST, keep_token=lambda t: config.save_token(server_url, t)
        )
        task = asyncio.create_task(bob.run())
        await until(lambda: bob.connected)
        await gomoku_pair(a, bob)
        seat = {pl["player"]: pl["seat"] for pl in a.state.players}[bob.player]  # type: ignore[union-attr]
        me = bob.player
        await bob.close()  # the terminal is closed: nothing is said to the server
        await asyncio.wait_for(task, 30)
        assert config.saved_token(server_url) == bob.token

        again = Session(server_url, "bob", backoff=FAST, token=config.saved_token(server_url))
        seen: list[Event] = []
        again.add_listener(seen.append)
        task = asyncio.create_task(again.run())
        try:
            await until(lambda: again.state is not None)
            assert again.player == me
            state: Any = again.state
            assert {pl["player"]: pl["seat"] for pl in state.players}[me] == seat
            assert state.status == "playing"
        finally:
            await again.close()
            await asyncio.wait_for(task, 30)


def test_tokens_are_kept_per_server_and_readable_by_the_owner_only() -> None:
    config.save_token("ws://a:8765/", "token-a")
    config.save_token("ws://b:8765/", "token-b")
    config.save_token("ws://a:8765/", "token-a2")
    assert config.saved_token("ws://a:8765/") == "token-a2"
    assert config.saved_token("ws://b:8765/") == "token-b"
    assert config.saved_token("ws://c:8765/") is None
    path = config.config_dir() / config.FILE_NAME
    assert path.stat().st_mode & 0o077 == 0
    for n in range(config.MAX_TOKENS + 5):
        config.save_token(f"ws://h{n}:8765/", f"t{n}")
    assert len(config.load().tokens) == config.MAX_TOKENS
    assert config.saved_token(f"ws://h{config.MAX_TOKENS + 4}:8765/") == f"t{config.MAX_TOKENS + 4}"


def test_the_cli_hands_the_saved_token_to_the_client_and_keeps_new_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gridhall.client import cli
    from gridhall.client.tui import app as tui_app

    url = "ws://192.0.2.5:8765/"
    config.save_token(url, "kept-token")
    made: dict[str, Any] = {}

    class FakeApp:
        def __init__(self, url: str, name: str, **kwargs: Any) -> None:
            made.update(url=url, name=name, **kwargs)
            self.session = Session(url, name)

        def run(self) -> None:
            made["keep_token"]("fresh-token")

    monkeypatch.setattr(tui_app, "GridhallApp", FakeApp)
    assert cli.main(["--server", "192.0.2.5", "--name", "Ann"]) == 0
    assert made["url"] == url and made["token"] == "kept-token"
    assert config.saved_token(url) == "fresh-token"
