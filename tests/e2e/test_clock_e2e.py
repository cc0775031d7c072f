"""A Gomoku clock running out, as the players' screens show it: 0:00 for the loser."""

from __future__ import annotations

import time

from gridhall import protocol as p
from gridhall.client.room import RoomCopy, apply
from gridhall.client.views.gomoku import GomokuView
from gridhall.protocol.schema import from_map
from tests.wsclient import WsClient, gomoku_pair


def folded(client: WsClient) -> RoomCopy:
    """The client's copy of the room: everything it received, folded as a client does."""
    copy: RoomCopy | None = None
    for msg in client.received:
        cls = p.SERVER_MESSAGES[msg["type"]]
        if "room" in msg and "seq" in msg:
            copy = apply(copy, from_map(cls, msg), client.player, time.time()).room
    assert copy is not None and copy.state is not None
    return copy


async def test_a_loss_on_time_shows_the_losers_clock_at_zero_on_both_screens(
    server_url: str,
) -> None:
    clock = {"minutes": 0.05, "increment": 0}  # 3 s: black (Ann) lets it run out
    async with gomoku_pair(server_url, {"clock": clock}) as (ann, bob, _room):
        for client in (ann, bob):
            over = await client.expect("game-over", timeout=30)
            assert over["result"]["reason"] == "timeout"
        later = time.time() + 600  # long after: a finished game's clocks stand
        for client in (ann, bob):
            copy = folded(client)
            assert copy.state is not None and copy.state.status == "over"
            clocks = GomokuView().clocks(copy.state, later)
            assert clocks == {ann.player: 0.0, bob.player: 3.0}
            assert GomokuView().status(copy, client.player, later).endswith("Ann 0:00, Bob 0:03")
