"""A cluster node's hub without sockets: rooms adopted through the restart's replay,
let go at once, identities made elsewhere, and refusals while Redis is away."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from gridhall import protocol as p
from gridhall.server.cluster.cluster_hub import ClusterHub
from gridhall.server.cluster.moving import wait_for_owner
from gridhall.server.io.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect


def node(**hub: object) -> FakeServer:
    server = FakeServer()
    server.hub = ClusterHub(server.config, server.hub.entropy, **hub)  # type: ignore[arg-type]
    return server


def played_elsewhere(tmp_path: Path) -> tuple[Store, str, str, str]:
    """Ann and Bob's Gomoku game, four moves in, on another node's store: (store, room,
    Ann's token, Bob's id)."""
    store = Store(tmp_path / "other.db")
    other = FakeServer(store=store)
    ann, bob = connect(other, "Ann"), connect(other, "Bob")
    ann.send("create-room", game="gomoku")
    room = ann.last(p.Joined).room
    bob.send("join-room", room=room)
    for i in range(2):
        ann.send("move", move={"x": i, "y": 0})
        bob.send("move", move={"x": i, "y": 1})
    return store, room, ann.last(p.Welcome).token, bob.last(p.Welcome).player


def test_an_adopted_room_is_replayed_and_leaves_other_rooms_alone(tmp_path: Path) -> None:
    store, room, token, bob = played_elsewhere(tmp_path)
    here = node()
    carol = connect(here, "Cat")
    carol.send("create-room", game="minesweeper", options={"preset": "beginner"})
    mine = carol.last(p.Joined).room
    identities, rooms = store.load_live()
    hub = here.hub
    assert isinstance(hub, ClusterHub)
    here.execute(hub.adopt(rooms[0], identities, T0 + 10, down_since=T0 + 5))
    assert set(hub.lobby.rooms) == {room, mine}
    assert hub.identities.by_id[carol.last(p.Welcome).player].room is hub.lobby.rooms[mine]
    ann = Client(here, T0 + 11)
    ann.hello("Ann", token, now=T0 + 11)
    ann.send("sync", now=T0 + 11)
    state = ann.last(p.State)
    assert state.room == room and state.view["moves"] == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert hub.adopt(rooms[0], identities, T0 + 12, T0 + 5) == []  # already here
    assert sorted(hub.let_go(room)) == sorted([ann.last(p.Welcome).player, bob])
    assert room not in hub.lobby.rooms and hub.identities.by_id[bob].room is None


async def test_a_player_seated_by_a_takeover_that_outlasted_the_wait_is_not_closed(
    tmp_path: Path,
) -> None:
    """A takeover can hold this node's loop (PostgreSQL waits on the old owner's row
    lock, a long replay) past the wait's deadline. The player it seated here stays:
    the room having landed counts before the clock (server/cluster/moving.py)."""
    store, room, token, _ = played_elsewhere(tmp_path)
    identities, rooms = store.load_live()
    here = node(fetch_identity={r["token_hash"]: r for r in identities}.get)
    hub = here.hub
    assert isinstance(hub, ClusterHub)
    ann = Client(here, T0 + 1)
    ann.hello("Ann", token, now=T0 + 1)  # relayed, as it were: roomless here
    assert hub.identities.by_id[ann.last(p.Welcome).player].room is None
    here.execute(hub.adopt(rooms[0], identities, T0 + 10, T0 + 5, [ann.last(p.Welcome).player]))
    service = SimpleNamespace(  # the deadline is already past when the wait starts
        store=SimpleNamespace(owner=lambda code: ("node1", 2)),
        lease_ms=0,
        node="node1",
        hub=hub,
        server=here,
        registry=None,
        redis=None,
    )
    assert await wait_for_owner(service, ann.session, room) == "node1"  # type: ignore[arg-type]
    assert not ann.link.closed
    assert ann.last(p.State).room == room


def test_a_token_made_on_another_node_says_hello_here(tmp_path: Path) -> None:
    store, _, token, _ = played_elsewhere(tmp_path)
    rows = {r["token_hash"]: r for r in store.load_live()[0]}
    here = node(fetch_identity=rows.get)
    ann = Client(here)
    welcome = ann.hello("Ann", token)
    assert welcome.token == token and welcome.player in {r["id"] for r in rows.values()}
    stranger = Client(here)
    assert stranger.hello("Zed", "not-a-token").player not in {r["id"] for r in rows.values()}


def test_without_redis_new_rooms_and_other_nodes_rooms_are_refused() -> None:
    here = node(
        elsewhere=lambda: [
            {"room": "ABCDEF", "game": "gomoku", "node": "n2", "address": "ws://10.0.0.2:8765/"}
        ]
    )
    hub = here.hub
    assert isinstance(hub, ClusterHub)
    ann = connect(here, "Ann")
    ann.send("list-rooms")
    assert [r["room"] for r in ann.last(p.Rooms).rooms] == ["ABCDEF"]
    assert "node" not in ann.last(p.Rooms).rooms[0]  # the cluster's own keys stay inside
    ann.send("join-room", room="abcdef")
    refused = ann.errors()[-1]
    assert refused.code == "no-such-room" and "ws://10.0.0.2:8765/" in refused.message
    hub.available = lambda: False
    ann.send("create-room", game="gomoku")
    ann.send("join-room", room="ABCDEF")
    codes = [e.code for e in ann.errors()[-2:]]
    assert codes == ["cluster-unavailable", "cluster-unavailable"]
    assert not hub.lobby.rooms and hub.identities.by_id[ann.last(p.Welcome).player].room is None
