"""Room hosts (issue 24): who may moderate a room, what each action does, and how the
role passes on. Driven through sessions on fake links, no sockets (``helpers.py``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.server.core.effects import Outbox
from gridhall.server.core.hosting import ADDRESS_COOL_DOWN
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect

ACTIONS: list[dict[str, Any]] = [
    {"action": "kick", "minutes": 5},
    {"action": "mute"},
    {"action": "unmute"},
    {"action": "lock"},
    {"action": "unlock"},
    {"action": "hand-over"},
    {"action": "computer", "level": "hard"},
]


def me(client: Client) -> str:
    ident = client.session.identity
    assert ident is not None
    return ident.id


def room_of(server: FakeServer, code: str) -> Any:
    return server.hub.lobby.rooms[code]


def gomoku(server: FakeServer, **options: Any) -> tuple[Client, Client, str]:
    """Ann (the creator) and Bob seated: the game is under way."""
    ann, bob = connect(server, "Ann", peer="10.0.0.1"), connect(server, "Bob", peer="10.0.0.2")
    ann.send("create-room", game="gomoku", options=options)
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    return ann, bob, code


def host(client: Client, now: float = T0, **fields: Any) -> p.HostEvent | p.Error:
    """Send ``host``; its answer (the room's ``host`` event, or an error)."""
    before = len(client.link.frames)
    rid = client.send("host", now, **fields)
    for msg in client.received()[before:]:
        if isinstance(msg, p.Error) and msg.re == rid:
            return msg
        if isinstance(msg, p.HostEvent) and msg.by == me(client):
            return msg
    raise AssertionError(f"no answer: {client.received()}")


def state(client: Client, now: float = T0) -> p.State:
    client.send("sync", now)
    found: p.State = client.last(p.State)
    return found


def test_the_creator_hosts_and_state_and_the_room_list_say_so() -> None:
    server = FakeServer()
    ann, bob, _code = gomoku(server)
    got = state(bob)
    assert (got.host, got.locked, got.muted) == (me(ann), False, [])
    cy = connect(server, "Cy")
    cy.send("list-rooms")
    [entry] = cy.last(p.Rooms).rooms
    assert entry["host"] == "Ann" and entry["locked"] is False
    cy.send("join-room", room=_code, role="spectator")
    got = state(ann)
    assert got.spectators == ["Cy"] and got.spectator_ids == [me(cy)]


@pytest.mark.parametrize("fields", ACTIONS)
@pytest.mark.parametrize("role", ["player", "spectator"])
def test_anyone_but_the_host_is_refused_and_nothing_changes(
    fields: dict[str, Any], role: str
) -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)
    cy = connect(server, "Cy", peer="10.0.0.3")
    cy.send("join-room", room=code, role="spectator")
    asker = bob if role == "player" else cy
    seq = room_of(server, code).seq
    ann.clear()
    answer = host(asker, player=me(ann), **fields)
    assert isinstance(answer, p.Error) and answer.code == "not-the-host"
    assert room_of(server, code).seq == seq and not ann.received()  # nobody was told anything
    assert state(ann).host == me(ann) and not state(ann).locked


@pytest.mark.parametrize(
    "fields,why",
    [
        ({"action": "kick"}, "needs a 'player'"),
        ({"action": "kick", "player": "p00000000"}, "not in this room"),
        ({"action": "mute", "player": "@self"}, "themselves"),
        ({"action": "kick", "player": "@self"}, "themselves"),
        ({"action": "hand-over", "player": "@self"}, "themselves"),
        ({"action": "unmute", "player": "@bob"}, "not muted"),
        ({"action": "unlock"}, "already unlocked"),
        ({"action": "computer"}, "needs a 'level'"),
    ],
)
def test_a_bad_host_request_is_a_bad_message_naming_what_is_wrong(
    fields: dict[str, Any], why: str
) -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)
    ids = {"@self": me(ann), "@bob": me(bob)}
    if "player" in fields:
        fields = {**fields, "player": ids.get(fields["player"], fields["player"])}
    seq = room_of(server, code).seq
    answer = host(ann, **fields)
    assert isinstance(answer, p.Error) and answer.code == "bad-message" and why in answer.message
    assert room_of(server, code).seq == seq


def test_a_kicked_player_cannot_rejoin_until_the_time_ends() -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)
    ann.send("resign", T0 + 1)
    bob.clear()
    event = host(ann, T0 + 10, action="kick", player=me(bob), minutes=5)
    assert isinstance(event, p.HostEvent)
    assert (event.action, event.player, event.name, event.minutes, event.until) == (
        "kick",
        me(bob),
        "Bob",
        5,
        T0 + 310,
    )
    got = [type(m) for m in bob.received()]
    assert got == [p.HostEvent, p.Left]  # told why, then out
    left = bob.last(p.Left)
    assert (left.player, left.reason, left.until) == (me(bob), "kicked", T0 + 310)
    assert ann.last(p.Left).reason == "kicked"
    assert server.hub.identities.by_id[me(bob)].room is None

    bob.send("join-room", T0 + 70, room=code)
    refused = bob.errors()[-1]
    assert refused.code == "kicked" and refused.retry_after == 240
    bob.send("join-room", T0 + 309.5, room=code, role="spectator")
    assert bob.errors()[-1].code == "kicked" and bob.errors()[-1].retry_after == 1
    bob.clear()
    bob.send("join-room", T0 + 310, room=code)
    assert bob.last(p.Joined).seat == 1 and not bob.errors()


def test_a_kick_keeps_out_the_address_unless_another_member_shared_it() -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)  # Bob alone on 10.0.0.2
    cy = connect(server, "Cy", peer="10.0.0.9")
    dan = connect(server, "Dan", peer="10.0.0.9")
    for who in (cy, dan):
        who.send("join-room", room=code, role="spectator")
    host(ann, action="kick", player=me(bob), minutes=10)
    host(ann, action="kick", player=me(cy), minutes=10)  # Dan shares Cy's address
    eve = connect(server, "Eve", T0 + 2, peer="10.0.0.2")  # a new name on Bob's address
    eve.send("join-room", T0 + 2, room=code)
    assert eve.errors()[-1].code == "kicked"
    fay = connect(server, "Fay", T0 + 3, peer="10.0.0.9")
    fay.send("join-room", T0 + 3, room=code, role="spectator")
    assert not fay.errors() and fay.last(p.Joined).role == "spectator"
    cy.send("join-room", T0 + 4, room=code, role="spectator")
    assert cy.errors()[-1].code == "kicked"  # the identity itself stays out


def test_an_address_kick_is_a_short_cool_down_while_the_identity_stays_out() -> None:
    """Bob is removed for an hour: his identity stays out for the hour, but his address
    (a household behind one NAT) only for the cool-down, and a newcomer there is told
    it was someone else at the address."""
    server = FakeServer()
    ann, bob, code = gomoku(server)  # Bob alone on 10.0.0.2
    host(ann, T0 + 10, action="kick", player=me(bob), minutes=60)
    eve = connect(server, "Eve", T0 + 20, peer="10.0.0.2")
    eve.send("join-room", T0 + 20, room=code, role="spectator")
    refused = eve.errors()[-1]
    assert refused.code == "kicked" and refused.retry_after == 290
    assert "someone at your network address" in refused.message
    eve.clear()
    eve.send("join-room", T0 + 10 + ADDRESS_COOL_DOWN, room=code, role="spectator")
    assert not eve.errors() and eve.last(p.Joined).role == "spectator"
    bob.send("join-room", T0 + 10 + ADDRESS_COOL_DOWN, room=code, role="spectator")
    refused = bob.errors()[-1]
    assert refused.code == "kicked" and refused.retry_after == 3600 - ADDRESS_COOL_DOWN
    assert "removed you" in refused.message


def test_a_kick_shorter_than_the_cool_down_keeps_the_address_out_as_long_only() -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)
    host(ann, T0, action="kick", player=me(bob), minutes=1)
    eve = connect(server, "Eve", T0 + 61, peer="10.0.0.2")
    eve.send("join-room", T0 + 61, room=code, role="spectator")
    assert not eve.errors()


def test_a_locked_room_refuses_newcomers_but_a_dropped_member_resumes() -> None:
    server = FakeServer()
    ann, bob, code = gomoku(server)
    event = host(ann, action="lock")
    assert isinstance(event, p.HostEvent) and bob.last(p.HostEvent).action == "lock"
    assert state(bob).locked
    cy = connect(server, "Cy", peer="10.0.0.3")
    cy.send("join-room", room=code, role="spectator")
    assert cy.errors()[-1].code == "room-locked"
    cy.send("list-rooms")
    assert cy.last(p.Rooms).rooms[0]["locked"] is True
    token = bob.last(p.Welcome).token
    bob.drop(T0 + 1)
    again = Client(server, T0 + 2, peer="10.0.0.2")
    again.hello("Bob", token, T0 + 2)
    assert again.last(p.State).room == code and again.last(p.State).players[1]["connected"]
    host(ann, T0 + 3, action="unlock")
    cy.clear()
    cy.send("join-room", T0 + 3, room=code, role="spectator")
    assert not cy.errors() and cy.last(p.Joined).room == code


def test_a_muted_member_cannot_chat_until_unmuted() -> None:
    server = FakeServer()
    ann, bob, _code = gomoku(server)
    event = host(ann, action="mute", player=me(bob))
    assert isinstance(event, p.HostEvent) and event.until is None and event.minutes is None
    assert state(ann).muted == [me(bob)]
    ann.clear()
    bob.send("chat", T0 + 1, text="spam")
    refused = bob.errors()[-1]
    assert refused.code == "muted" and refused.retry_after is None
    assert not [m for m in ann.received() if isinstance(m, p.ChatEvent)]
    host(ann, T0 + 2, action="unmute", player=me(bob))
    assert state(ann, T0 + 2).muted == []
    bob.send("chat", T0 + 3, text="sorry")
    assert ann.last(p.ChatEvent).text == "sorry"


def test_a_timed_mute_ends_by_itself_and_the_room_is_told() -> None:
    server = FakeServer()
    ann, bob, _code = gomoku(server)
    host(ann, action="mute", player=me(bob), minutes=2)
    bob.send("chat", T0 + 60, text="spam")
    assert bob.errors()[-1].code == "muted" and bob.errors()[-1].retry_after == 60
    ann.clear()
    server.advance(T0 + 120)
    ended = ann.last(p.HostEvent)
    assert (ended.action, ended.by, ended.player) == ("unmute", None, me(bob))
    bob.send("chat", T0 + 121, text="back")
    assert ann.last(p.ChatEvent).text == "back"


def test_hand_over_gives_the_role_to_another_member() -> None:
    server = FakeServer()
    ann, bob, _code = gomoku(server)
    event = host(ann, action="hand-over", player=me(bob))
    assert isinstance(event, p.HostEvent) and (event.by, event.player) == (me(ann), me(bob))
    assert state(ann).host == me(bob)
    refused = host(ann, action="lock")
    assert isinstance(refused, p.Error) and refused.code == "not-the-host"
    assert isinstance(host(bob, action="lock"), p.HostEvent)


def three(server: FakeServer) -> tuple[Client, Client, Client, str]:
    """Ann hosts, Bob seated, Cy watching."""
    ann, bob, code = gomoku(server)
    cy = connect(server, "Cy", peer="10.0.0.3")
    cy.send("join-room", room=code, role="spectator")
    return ann, bob, cy, code


def passed_to(client: Client) -> str | None:
    event = client.last(p.HostEvent)
    assert (event.action, event.by) == ("hand-over", None)
    player: str | None = event.player
    return player


def test_when_the_host_leaves_the_role_passes_to_the_earliest_connected_player() -> None:
    server = FakeServer()
    ann, bob, cy, _code = three(server)
    ann.send("leave-room", T0 + 1)
    assert passed_to(cy) == me(bob) and state(cy, T0 + 2).host == me(bob)


def test_when_the_host_leaves_and_the_player_is_offline_a_spectator_hosts() -> None:
    server = FakeServer()
    ann, bob, cy, _code = three(server)
    bob.drop(T0 + 1)  # keeps the seat in the grace period, but is not connected
    ann.send("leave-room", T0 + 2)
    assert passed_to(cy) == me(cy)


def test_a_disconnected_host_keeps_the_role_until_the_grace_ends() -> None:
    server = FakeServer()
    ann, bob, _cy, _code = three(server)
    ann_id = me(ann)
    ann.drop(T0 + 1)
    server.advance(T0 + 30)
    assert state(bob, T0 + 30).host == ann_id
    server.advance(T0 + 61)
    assert passed_to(bob) == me(bob)


def test_a_host_removed_from_the_room_passes_the_role_on() -> None:
    """As when the server's operator removes them (the room's ``leave`` with ``kicked``)."""
    server = FakeServer()
    ann, bob, _cy, code = three(server)
    room = room_of(server, code)
    ident = server.hub.identities.by_id[me(ann)]
    out = Outbox()
    room.leave(out, ident, T0 + 1, kicked=T0 + 600)
    server.execute(out.effects)
    assert ann.last(p.Left).reason == "kicked" and passed_to(bob) == me(bob)


def test_a_host_kick_during_a_game_ends_it_with_no_winner() -> None:
    server = FakeServer()
    ann, bob, _code = gomoku(server)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    host(ann, T0 + 2, action="kick", player=me(bob))
    over = ann.last(p.GameOver)
    assert over.result["winner"] is None and over.result["reason"] == "removed"
    assert over.result["removed"] == me(bob)
    assert bob.last(p.Left).until == T0 + 2 + 600  # ten minutes by default


def computer_room(server: FakeServer) -> tuple[Client, str]:
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    return ann, ann.last(p.Joined).room


def the_computer(got: p.State) -> dict[str, Any]:
    [bot] = [pl for pl in got.players if pl.get("bot")]
    return bot


def test_the_computer_is_swapped_or_removed_between_games_only() -> None:
    server = FakeServer()
    ann, _code = computer_room(server)
    bot = the_computer(state(ann))
    for fields in (
        {"action": "computer", "level": "hard"},
        {"action": "kick", "player": bot["player"]},
    ):
        refused = host(ann, T0 + 1, **fields)
        assert isinstance(refused, p.Error) and refused.code == "game-in-progress"
    ann.send("resign", T0 + 2)
    event = host(ann, T0 + 3, action="computer", level="hard")
    assert isinstance(event, p.HostEvent) and (event.player, event.level) == (bot["player"], "hard")
    swapped = the_computer(state(ann, T0 + 3))
    assert (swapped["bot"], swapped["name"]) == ("hard", "Computer (hard)")

    event = host(ann, T0 + 4, action="kick", player=bot["player"])
    assert isinstance(event, p.HostEvent) and event.until is None
    assert ann.last(p.Left).reason == "kicked"
    got = state(ann, T0 + 4)
    assert [pl["player"] for pl in got.players] == [me(ann)] and "ai" not in got.options
    assert bot["player"] not in server.hub.identities.by_id  # a removed computer is gone

    event = host(ann, T0 + 5, action="computer", level="easy")  # seats a new one
    assert isinstance(event, p.HostEvent) and event.player != bot["player"]
    assert the_computer(state(ann, T0 + 5))["bot"] == "easy"
    ann.send("play-again", T0 + 6)  # the computer agrees: the next game begins
    assert ann.last(p.State).status == "playing" and ann.last(p.State).round == 1


def test_a_game_without_computer_players_refuses_the_computer_action() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="minesweeper", options={"preset": "beginner"})
    refused = host(ann, action="computer", level="easy")
    assert isinstance(refused, p.Error) and refused.code == "bad-message"
    assert "no computer opponent" in refused.message


@pytest.mark.parametrize("journal_rows", [1000, 1], ids=["journal", "snapshot"])
def test_hosts_lock_mutes_and_kicks_survive_a_restart(tmp_path: Path, journal_rows: int) -> None:
    """kill -9 then start: the journal replays (or, snapshotting after every entry, the
    snapshot holds) the same host state, and a kick still ends at its journalled time
    (not the restart's clock)."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), journal_rows=journal_rows)
    ann, bob, cy, code = three(server)
    dan = connect(server, "Dan", peer="10.0.0.4")
    dan.send("join-room", room=code, role="spectator")
    host(ann, T0 + 1, action="mute", player=me(cy), minutes=30)
    host(ann, T0 + 2, action="kick", player=me(dan), minutes=10)
    host(ann, T0 + 3, action="lock")
    host(ann, T0 + 4, action="hand-over", player=me(bob))
    before = state(bob, T0 + 5)

    server2 = FakeServer(store=Store(path))
    server2.restore(T0 + 100, T0 + 10)
    bob2 = Client(server2, T0 + 101, peer="10.0.0.2")
    bob2.hello("Bob", bob.last(p.Welcome).token, T0 + 101)
    after = bob2.last(p.State)
    assert (after.host, after.locked) == (me(bob), True) == (before.host, before.locked)
    room = room_of(server2, code)
    assert room.mod.muted == {me(cy): T0 + 1 + 1800}
    assert room.mod.kicked == {me(dan): T0 + 602}
    # Dan was roomless and online: the restart keeps him for the grace period, and
    # his kick (journalled with his identity and address) still holds him to its ten
    # minutes; someone new from his address is held for the address cool-down only.
    dan2 = Client(server2, T0 + 102, peer="10.0.0.4")
    assert dan2.hello("Dan", dan.last(p.Welcome).token, T0 + 102).player == me(dan)
    host(bob2, T0 + 103, action="unlock")
    dan2.send("join-room", T0 + 104, room=code, role="spectator")
    assert dan2.errors()[-1].code == "kicked" and dan2.errors()[-1].retry_after == 600 - 102
    other = Client(server2, T0 + 104, peer="10.0.0.4")
    other.hello("Dana", None, T0 + 104)
    other.send("join-room", T0 + 104, room=code, role="spectator")
    assert other.errors()[-1].code == "kicked" and other.errors()[-1].retry_after == 302 - 104
    other.send("join-room", T0 + 302, room=code, role="spectator")
    assert other.last(p.Joined).room == code
    dan2.send("join-room", T0 + 602, room=code, role="spectator")
    assert dan2.last(p.Joined).room == code


def test_a_removed_computer_stays_removed_after_a_restart(tmp_path: Path) -> None:
    """The snapshot of the game names a computer the host removed later (and the store
    forgot): the room still comes back, without it."""
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    ann, _code = computer_room(server)
    bot = the_computer(state(ann))["player"]
    ann.send("resign", T0 + 1)
    host(ann, T0 + 2, action="kick", player=bot)
    host(ann, T0 + 3, action="computer", level="hard")
    seated = the_computer(state(ann, T0 + 3))

    server2 = FakeServer(store=Store(path))
    server2.restore(T0 + 100, T0 + 10)
    ann2 = Client(server2, T0 + 101)
    ann2.hello("Ann", ann.last(p.Welcome).token, T0 + 101)
    got = ann2.last(p.State)
    assert the_computer(got) == seated and got.options["ai"] == "hard"
    assert bot not in server2.hub.identities.by_id
