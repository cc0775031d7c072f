"""Roster changes reach members as events carrying what their copy needs: folding
them gives the roster a fresh ``state`` shows, with no ``sync``."""

from __future__ import annotations

from typing import Any

from gridhall import protocol as p
from gridhall.client.room import RoomCopy, apply
from tests.server.helpers import T0, Client, FakeServer, connect


def fold(client: Client, me: str) -> RoomCopy:
    """Everything ``client`` received, folded as the shared client does; no sync asked."""
    copy: RoomCopy | None = None
    for msg in client.received():
        if isinstance(msg, p.Welcome | p.Error | p.Rooms | p.Profile):
            continue
        applied = apply(copy, msg, me, 0.0)
        assert not applied.sync, f"{type(msg).__name__} made the client ask for a sync"
        copy = applied.room
    assert copy is not None and copy.state is not None
    return copy


def roster(state: p.State) -> tuple[list[Any], list[Any]]:
    return state.players, sorted(state.spectators)


def test_joined_and_left_carry_the_roster_entry_and_the_name() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    room = ann.last(p.Joined).room
    [bot] = [
        m
        for m in ann.received()
        if isinstance(m, p.Joined) and m.player != ann.last(p.Welcome).player
    ]
    assert (bot.connected, bot.bot, bot.seat) == (True, "easy", 1)
    cy = connect(server, "Cy")
    cy.send("player-info", color="teal")
    cy.send("join-room", room=room, role="spectator")
    joined = ann.last(p.Joined)
    assert (joined.role, joined.name, joined.connected, joined.color) == (
        "spectator",
        "Cy",
        True,
        "teal",
    )
    cy.send("leave-room")
    left = ann.last(p.Left)
    assert (left.player, left.name) == (joined.player, "Cy")


def test_a_member_who_folds_every_roster_event_holds_the_servers_roster() -> None:
    server = FakeServer(snapshots_per_second=100.0, snapshot_burst=100)
    ann = connect(server, "Ann")
    me = ann.last(p.Welcome).player
    ann.send("create-room", game="minesweeper", options={"preset": "beginner", "max_players": 4})
    room = ann.last(p.Joined).room
    ann.send("move", move={"action": "reveal", "x": 0, "y": 0})
    watchers = [connect(server, f"S{n}") for n in range(5)]
    for n, s in enumerate(watchers):
        s.send("join-room", T0 + n, room=room, role="spectator")
    bob = connect(server, "Bob")
    bob.send("join-room", T0 + 6, room=room)  # a late co-op player: the game takes him in
    watchers[1].send("player-info", T0 + 7, name="Renamed")
    watchers[2].send("leave-room", T0 + 8)
    watchers[3].drop(T0 + 9)
    bob.send("player-info", T0 + 10, color="teal")
    bob.send("leave-room", T0 + 11)  # a co-op player leaves: the game goes on without him
    watchers[4].send("chat", T0 + 12, text="still here")
    copy = fold(ann, me)
    fresh = server.hub.lobby.rooms[room].snapshot(me)
    assert roster(copy.state) == roster(fresh)  # type: ignore[arg-type]
    assert copy.state.view == fresh.view and copy.seq == fresh.seq  # type: ignore[union-attr]
    watcher = fold(watchers[0], watchers[0].last(p.Welcome).player)
    assert roster(watcher.state) == roster(fresh)  # type: ignore[arg-type]


def test_a_late_player_in_a_running_game_gives_everyone_the_new_view() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="minesweeper", options={"preset": "beginner", "max_players": 4})
    room = ann.last(p.Joined).room
    ann.send("move", move={"action": "reveal", "x": 0, "y": 0})
    ann.clear()
    bob = connect(server, "Bob")
    bob.send("join-room", room=room)
    kinds = [type(m).__name__ for m in ann.received()]
    assert kinds == ["Joined", "State"]
    assert bob.last(p.Welcome).player in ann.last(p.State).view["stats"]
