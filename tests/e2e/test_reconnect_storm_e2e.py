"""A crowd arriving at once: after a restart every player reconnects within moments,
each from its own address, each saying ``hello`` as soon as its socket is open. The
bound on connections waiting for ``hello`` must not evict any of them (their hello has
arrived, or is on its way): all get back in, as themselves, without a refusal.

A real server on port 0; 2,000 real WebSocket clients, each bound to its own address
of 127.0.0.0/8. Every wait is for an event, bounded only so that a broken server fails
instead of hanging."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from gridhall import protocol as p
from gridhall.server.io.net.app import GameServer

PLAYERS = 2000
DEADLINE = 120.0
"""Far beyond what 2,000 handshakes take on a busy machine: reaching it is a failure."""
PATIENT = {
    "handshake_timeout": 60.0,
    "handshake_grace": 30.0,
    "hello_timeout": 60.0,
    "unwelcomed_idle": 30.0,
}
"""The crowd's clients run in the server's own process, so on a starved machine one may
speak seconds after its socket opened (a real crowd's hellos are not late for the
server's load: they wait in its kernel buffers). The deadlines for a silent socket are
set far beyond that: what is under test is that no socket is closed for being young or
for having spoken while the crowd arrives (with the defaults, main closed 1,936 of the
2,000; ``bench/attack.py --only hello-storm`` runs the defaults)."""


def address(n: int) -> str:
    """The n-th player's own loopback address (127.1.0.1 and up)."""
    return f"127.{1 + n // 62_500}.{n // 250 % 250}.{1 + n % 250}"


class Player:
    """One player: its address, and the identity it had before the restart."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.address = address(n)
        self.player = ""
        self.token = ""
        self.ws: ClientConnection | None = None

    async def hello(self, port: int) -> dict[str, Any]:
        """Connect from its address and say hello at once; the server's first answer."""
        sock = socket.socket()
        sock.bind((self.address, 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        self.ws = await connect(
            f"ws://127.0.0.1:{port}/",
            sock=sock,
            compression=None,
            open_timeout=DEADLINE,
            close_timeout=1,
        )
        fields: dict[str, Any] = {"type": "hello", "protocol": 1, "name": f"P{self.n}", "id": 1}
        if self.token:
            fields["token"] = self.token
        await self.ws.send(p.encode_map(fields))
        return p.decode_map(await asyncio.wait_for(self.ws.recv(), DEADLINE))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def crowd(
    players: list[Player], port: int, check: Callable[[Player, dict[str, Any]], None]
) -> list[str]:
    """Every player connects and says hello at once; all stay connected until all are
    in (so the crowd waits together). What went wrong, one line per player."""
    failures: list[str] = []

    async def one(player: Player) -> None:
        try:
            check(player, await player.hello(port))
        except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError, AssertionError) as exc:
            failures.append(f"{player.address}: {type(exc).__name__}: {exc}")

    await asyncio.wait_for(asyncio.gather(*(one(pl) for pl in players)), DEADLINE)
    await asyncio.gather(*(pl.close() for pl in players))
    return failures


async def test_two_thousand_players_reconnecting_at_once_all_get_back_in(
    make_server: Any,
) -> None:
    config = {"max_connections": PLAYERS + 100, **PATIENT}
    server: GameServer = await make_server(**config)
    players = [Player(n) for n in range(PLAYERS)]

    def first(player: Player, welcome: dict[str, Any]) -> None:
        assert welcome["type"] == "welcome", welcome
        player.player, player.token = welcome["player"], welcome["token"]

    for start in range(0, PLAYERS, 50):  # their first visits: fewer than the bound at a time
        assert await crowd(players[start : start + 50], server.port, first) == []
    await server.close()  # the restart: every player is dropped at once
    again: GameServer = await make_server(**config)

    def back(player: Player, welcome: dict[str, Any]) -> None:
        assert welcome["type"] == "welcome", welcome
        assert welcome["player"] == player.player, "came back as someone else"

    failures = await crowd(players, again.port, back)
    assert failures == [], f"{len(failures)} of {PLAYERS} refused, e.g. {failures[:3]}"
    assert again.handshakes.refused == 0
