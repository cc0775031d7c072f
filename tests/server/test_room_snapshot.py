"""A room's snapshot alone: plain data out, the same room back, old snapshots still load."""

from __future__ import annotations

from typing import Any

from gridhall import protocol as p
from gridhall.server.core.identity import Identity
from gridhall.server.core.room import Room
from gridhall.server.core.room.lifecycle import Phase
from gridhall.server.core.room.snapshot import can_snapshot, game_seed, load_snapshot, to_snapshot
from gridhall.server.games import registry
from tests.server.helpers import T0, FakeServer, connect


class Host:
    """A RoomHost that remembers nothing (a restored room tells it nothing here)."""

    def room_emptied(self, room: Room) -> None: ...

    def identity_released(self, ident: Identity, now: float) -> None: ...

    def password_tried(self, room: Room, ident: Identity, ok: bool, now: float) -> None: ...


GOMOKU = registry()["gomoku"]
OPTIONS = GOMOKU.parse_options({})


def blank(code: str = "ABCDEF", seed: int = 7) -> Room:
    return Room(Host(), code, GOMOKU, OPTIONS, "ann", False, None, b"", seed, 60.0)


def members(*ids: str) -> Any:
    made = {pid: Identity(id=pid, token_hash="t" + pid, name=pid) for pid in ids}
    return made.__getitem__


def test_a_room_loaded_from_its_snapshot_gives_the_same_snapshot() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku")
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    ann.send("move", move={"x": 7, "y": 7})
    ann.send("chat", text="hello")
    room = server.hub.lobby.rooms[code]
    assert can_snapshot(room)
    snap = to_snapshot(room, whole=True)
    copy = Room(
        Host(), code, room.spec, room.options, room.creator, False, None, b"", room.seed, 60.0
    )
    load_snapshot(copy, snap, members(*snap["seats"], *snap["spectators"]))  # type: ignore[arg-type]
    assert to_snapshot(copy, whole=True) == snap
    assert copy.seq == room.seq and copy.life.phase is Phase.PLAYING
    assert copy.game is not None and copy.game.view(None) == room.game.view(None)  # type: ignore[union-attr]


def test_a_snapshot_taken_at_a_game_s_start_remakes_the_game_from_the_seed() -> None:
    room = blank(seed=11)
    load_snapshot(
        room,
        {
            "seq": 4,
            "chat": [],
            "round": 0,
            "games_started": 1,
            "again": None,
            "seats": ["ann", "bob"],
            "spectators": [],
            "grace": {},
            "game": {"players": ["ann", "bob"], "started_at": T0},
            "over_announced": False,
        },
        members("ann", "bob"),
    )
    fresh = GOMOKU.new_game(OPTIONS, ["ann", "bob"], 0, game_seed(11, 0), T0)
    assert room.game is not None and room.game.view(None) == fresh.view(None)
    assert room.status == "playing" and room.seq == 4


def test_a_snapshot_in_the_format_on_disk_before_hosts_and_tickets_loads() -> None:
    """Keys added later (tickets, hosting, options, computers) have defaults."""
    room = blank()
    load_snapshot(
        room,
        {
            "seq": 9,
            "chat": [{"from": "ann", "name": "ann", "text": "hi", "ts": T0}],
            "round": 2,
            "games_started": 0,
            "again": None,
            "seats": ["ann", None],
            "spectators": ["cy"],
            "grace": {"ann": T0 + 60},
            "game": None,
            "over_announced": False,
        },
        members("ann", "cy"),
    )
    assert room.status == "waiting" and room.mod.host == "ann" and room.jobs.tickets == 0
    assert [m.id for m in room.members] == ["ann", "cy"] and room.grace == {"ann": T0 + 60}
    assert to_snapshot(room)["tickets"] == 0
