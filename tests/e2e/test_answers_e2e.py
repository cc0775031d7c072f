"""Over real sockets: a burst of every room request, sent without waiting, is answered
request by request, and every member sees every event of the room, in order."""

from __future__ import annotations

from typing import Any

from gridhall.server.io.net.app import GameServer
from tests.wsclient import WsClient, gomoku_pair

BY_EVENT = {
    "move": ("moved", "by"),
    "chat": ("chat", "from"),
    "player-info": ("player-info", "player"),
    "resign": ("resigned", "player"),
    "play-again": ("play-again", "from"),
    "agree-again": ("agree-again", "from"),
    "decline-again": ("decline-again", "from"),
    "offer": ("offer", "from"),
    "answer": ("answer", "from"),
}


def url(server: GameServer) -> str:
    return f"ws://127.0.0.1:{server.port}/"


async def answered(client: WsClient, burst: list[tuple[int, str]]) -> None:
    """Read until every request of ``burst`` ((id, type), in the order sent) has its
    answer: a frame with its ``re``, or its event from this client, in order."""
    waiting = list(burst)
    while waiting:
        msg = await client.recv()
        rid, kind = waiting[0]
        event = BY_EVENT.get(kind)
        if msg.get("re") is not None:
            assert msg["re"] in [r for r, _ in waiting], msg
            waiting = [w for w in waiting if w[0] != msg["re"]]
        elif event is not None and msg["type"] == event[0] and msg[event[1]] == client.player:
            waiting = [w for w in waiting if w[0] != rid]


def contiguous(client: WsClient, room: str) -> list[int]:
    """The ``seq`` of every event ``client`` got from ``room`` (snapshots left out)."""
    seqs: list[int] = []
    for msg in client.received:
        if (
            msg.get("room") == room
            and "seq" in msg
            and not (msg["type"] == "state" and seqs and msg["seq"] == seqs[-1])
        ):
            seqs.append(msg["seq"])
    return seqs


async def test_a_burst_of_every_room_request_is_answered_in_order(server: GameServer) -> None:
    async with gomoku_pair(url(server)) as (ann, bob, room):
        burst: list[tuple[int, str, dict[str, Any]]] = [
            (10, "move", {"move": {"x": 7, "y": 7}}),
            (11, "move", {"move": {"x": 8, "y": 8}}),  # not her turn: refused
            (12, "chat", {"text": "gl"}),
            (13, "player-info", {"color": "teal"}),
            (14, "offer", {"kind": "draw"}),
            (15, "list-rooms", {}),
            (16, "sync", {}),
            (17, "answer", {"kind": "draw", "accept": True}),  # her own offer: refused
            (18, "resign", {}),
            (19, "play-again", {}),
            (20, "agree-again", {}),  # she asked, so she agreed: refused, still answered
            (21, "decline-again", {}),
            (22, "leave-room", {}),
        ]
        for rid, kind, fields in burst:
            await ann.send(kind, id=rid, **fields)
        await answered(ann, [(rid, kind) for rid, kind, _ in burst])
        await bob.expect("left", player=ann.player)
        seqs = contiguous(bob, room)
        assert seqs == list(range(seqs[0], seqs[-1] + 1))  # Bob missed no event
        mine = contiguous(ann, room)
        assert mine == list(range(mine[0], mine[-1] + 1))
