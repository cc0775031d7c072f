"""Shared fixtures: a real gridhall server on 127.0.0.1, port 0, fresh database."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from gridhall.server.app import GameServer
from gridhall.server.config import ServerConfig


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Factory: ``server = await make_server(grace_seconds=1)``; all closed at the end."""
    servers: list[GameServer] = []

    async def make(**overrides: Any) -> GameServer:
        overrides.setdefault("db", str(tmp_path / "gridhall.db"))
        config = ServerConfig(host="127.0.0.1", port=0, **overrides)
        server = GameServer(config)
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        await server.close()


def url_of(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


@pytest.fixture
async def server(make_server: Callable[..., Any]) -> GameServer:
    return await make_server()


@pytest.fixture
async def server_url(server: GameServer) -> str:
    return url_of(server)
