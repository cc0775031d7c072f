"""A cluster node's frames take the same fast path as a server alone's: a frame for a
room the node owns goes to its session straight from the socket's read
(``GuardedConnection.on_frame``), without websockets' parser and the handler task; a
frame the relay may take (a join for a room elsewhere) still goes to the relay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer
from tests.cluster.nodes import SECRET, cluster
from tests.conftest import close_or_name_stuck
from tests.wsclient import WsClient, gomoku_pair, play_moves

pytest.importorskip("redis", reason='pip install "gridhall[cluster]"')

from gridhall.server.cluster.wiring import ClusterWiring  # noqa: E402

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
async def node(tmp_path: Path, redis_clean: str, fresh_db: str) -> AsyncIterator[GameServer]:
    """A cluster node run in this process (its connections can be looked at)."""
    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        db=str(tmp_path / "here.db"),
        cluster=redis_clean,
        store=fresh_db,
        cluster_secret=SECRET,
        node_id="here",
        lease_ms=4000,
    )
    server = GameServer(config, ClusterWiring())
    await server.start()
    yield server
    await close_or_name_stuck(server)


def parsed_by_websockets(server: GameServer, player: str) -> list[int]:
    """The sizes of the reads websockets' parser gets from now on, on ``player``'s
    connection to ``server``."""
    protocol: Any = server.sessions[player].link.ws.protocol  # type: ignore[attr-defined]
    parsed: list[int] = []
    receive = protocol.receive_data
    protocol.receive_data = lambda data: (parsed.append(len(data)), receive(data))[1]
    return parsed


async def test_a_node_hands_its_own_room_s_moves_over_from_the_read(
    tmp_path: Path, redis_clean: str, fresh_db: str, node: GameServer
) -> None:
    """Ann and Bob play in a room this node owns: their moves reach the session without
    websockets' parser (on a cluster node every frame went through it, the handler
    task and the relay's look: about an eighth of a node's CPU per move). Dee, on the same node,
    joins a room another node owns: that frame goes to the relay, which relays her."""
    here = f"ws://127.0.0.1:{node.port}/"
    async with AsyncExitStack() as stack:
        (other,) = await stack.enter_async_context(cluster(tmp_path, redis_clean, fresh_db, 1))
        a, b, _ = await stack.enter_async_context(gomoku_pair(here))
        seen = [parsed_by_websockets(node, p) for p in (a.player, b.player)]
        await play_moves(a, b, [(i, y) for i in range(3) for y in (0, 1)])
        assert seen == [[], []]
        c = await stack.enter_async_context(WsClient.connect(other.url, "Cy"))
        await c.send("create-room", game="gomoku")
        elsewhere = (await c.expect("joined"))["room"]
        d = await stack.enter_async_context(WsClient.connect(here, "Dee"))
        relayed = parsed_by_websockets(node, d.player)
        await d.send("join-room", room=elsewhere)  # (Dee is in no room here: the relay looks)
        assert (await d.expect("state", status="playing"))["room"] == elsewhere
        assert relayed  # through the parser and the handler task, to the relay
        await d.send("move", move={"x": 7, "y": 7})  # not Dee's turn, said by the owner
        assert (await d.expect("error"))["code"] == "not-your-turn"
