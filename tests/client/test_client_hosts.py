"""A room's host in the client model (no sockets): ``host`` events, the new state
fields and ``left`` reasons folded from real frames (encoded and decoded by the
codec), the operator's messages, and the host's slash commands."""

from __future__ import annotations

import time
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.client.chatdraft import ChatDraft
from gridhall.client.hostcommands import Typed, parse, typed
from gridhall.client.hosting import members
from gridhall.client.room import RoomCopy, apply
from gridhall.client.session import Session
from gridhall.client.views.hosts import event_text, farewell
from gridhall.client.views.lobby import room_rows
from gridhall.protocol.schema import to_map
from tests.client.helpers import make_state, room_of

EV = {"room": "AB12CD"}


def wire(fields: dict[str, Any]) -> Any:
    """A server frame as the client reads it: encoded, then decoded by the codec."""
    return p.decode(p.encode_map(fields), "server")


def fold(room: RoomCopy | None, fields: dict[str, Any], me: str = "a") -> RoomCopy | None:
    applied = apply(room, wire(fields), me, now=1000.0)
    assert applied.refused is None
    return applied.room


def hosted(**fields: Any) -> RoomCopy:
    """A room hosted by ann (``a``), bob (``b``) seated, cy watching, as a decoded state."""
    base = to_map(make_state(spectators=["cy"], host="a"))
    room = fold(None, {**base, **fields})
    assert room is not None
    return room


def test_state_carries_host_locked_and_muted() -> None:
    room = hosted(locked=True, muted=["b"])
    assert room.state is not None
    assert (room.state.host, room.state.locked, room.state.muted) == ("a", True, ["b"])
    marks = {m.name: (m.host, m.muted) for m in members(room.state, room.known)}
    assert marks == {"ann": (True, False), "bob": (False, True), "cy": (False, False)}


def test_a_state_from_an_older_server_has_no_host() -> None:
    old = {k: v for k, v in to_map(make_state()).items() if k not in ("host", "locked", "muted")}
    room = fold(None, old)
    assert room is not None and room.state is not None
    assert (room.state.host, room.state.locked, room.state.muted) == (None, False, [])


def test_host_events_change_the_copy_and_go_to_the_log() -> None:
    room = hosted()
    room = fold(room, {"type": "host", **EV, "seq": 6, "action": "lock", "by": "a"})
    room = fold(
        room,
        {
            "type": "host",
            **EV,
            "seq": 7,
            "action": "mute",
            "by": "a",
            "player": "b",
            "name": "bob",
            "minutes": 5,
            "until": 1300.0,
        },
    )
    assert room is not None and room.state is not None
    assert room.state.locked and room.state.muted == ["b"]
    room = fold(
        room,
        {
            "type": "host",
            **EV,
            "seq": 8,
            "action": "unmute",
            "by": "a",
            "player": "b",
            "name": "bob",
        },
    )
    room = fold(
        room,
        {
            "type": "host",
            **EV,
            "seq": 9,
            "action": "hand-over",
            "by": None,
            "player": "b",
            "name": "bob",
        },
    )
    assert room is not None and room.state is not None
    assert room.state.muted == [] and room.state.host == "b" and room.seq == 9
    log = [
        event_text(c["event"], room.state, room.known, "b")
        for c in room.state.chat
        if c.get("event")
    ]
    assert log[0] == "ann locked the room: nobody new can join."
    assert log[1].startswith("ann muted you until ")
    assert log[2:] == ["ann unmuted you.", "You are now the room's host."]


def test_a_spectator_host_is_marked_once_their_id_is_known() -> None:
    room = hosted(host="c")
    assert room.state is not None
    assert not any(m.host for m in members(room.state, room.known))
    room = fold(
        room, {"type": "chat", **EV, "seq": 6, "from": "c", "name": "cy", "text": "hi", "ts": 1.0}
    )
    assert room is not None and room.state is not None
    assert [m.name for m in members(room.state, room.known) if m.host] == ["cy"]


def test_a_state_naming_spectators_ids_makes_them_known_at_once() -> None:
    room = hosted(host="c", spectator_ids=["c"])
    assert room.state is not None and room.known == {"c": "cy"}
    assert [m.name for m in members(room.state, room.known) if m.host] == ["cy"]
    room = hosted(host="c", spectator_ids=["c", "d"])  # not the spectators' list: ignored
    assert room.known == {}


def test_kicked_member_lands_in_the_lobby_told_until_when() -> None:
    until = time.time() + 600
    left = wire({"type": "left", **EV, "seq": 7, "player": "b", "reason": "kicked", "until": until})
    assert apply(hosted(), left, "b", now=1000.0).room is None
    said = farewell(left, "b", until - 600)
    assert (
        said is not None
        and "AB12CD" in said
        and time.strftime("%H:%M", time.localtime(until)) in said
        and "10 minutes" in said
    )
    assert farewell(left, "a", 0.0) is None  # somebody else's removal: a log line, no farewell


def test_room_closed_by_the_operator_says_why() -> None:
    closed = wire({"type": "room-closed", **EV, "seq": 6, "reason": "closing time"})
    assert farewell(closed, "a", 0.0) == "The server's operator closed room AB12CD: closing time"
    left = wire({"type": "left", **EV, "seq": 6, "player": "a", "reason": "closed"})
    assert apply(hosted(), left, "a", now=0.0).room is None


def test_an_announcement_is_a_line_in_the_room_log() -> None:
    session = Session("ws://127.0.0.1:1", "ann")
    session.player, session.room = "a", hosted()
    seen: list[object] = []
    session.add_listener(seen.append)
    session._on_message(
        wire({"type": "announce", "text": "[b]server[/b] restarts at 5", "ts": 1.0})
    )
    assert isinstance(seen[-1], p.Announce)
    assert session.state is not None
    entry = session.state.chat[-1]["event"]
    assert event_text(entry, session.state, {}, "a") == (
        "Announcement from the server: [b]server[/b] restarts at 5"
    )


# ---- slash commands -------------------------------------------------------------------


def cmd(line: str, me: str = "a", room: RoomCopy | None = None) -> Any:
    room = room or hosted()
    assert room.state is not None
    return parse(line, room.state, room.known, me)


def test_kick_names_match_case_insensitively_with_minutes() -> None:
    got = cmd("/kick BOB 30")
    assert got.error is None
    assert to_map(got.request) == {"type": "host", "action": "kick", "player": "b", "minutes": 30}
    assert to_map(cmd("/mute bob").request) == {"type": "host", "action": "mute", "player": "b"}
    assert to_map(cmd("/host Bob").request) == {
        "type": "host",
        "action": "hand-over",
        "player": "b",
    }
    assert to_map(cmd("/lock").request) == {"type": "host", "action": "lock"}


def test_a_name_ending_in_digits_is_tried_whole_first() -> None:
    state = make_state(
        host="a",
        players=[
            {"player": "a", "name": "ann", "seat": 0},
            {"player": "b", "name": "bob 2", "seat": 1},
        ],
    )
    room = room_of(state)
    assert to_map(cmd("/kick bob 2", room=room).request)["player"] == "b"
    assert "minutes" not in to_map(cmd("/kick bob 2", room=room).request)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("/kick zed", "Nobody called zed"),
        ("/kick bob 5000", "from 1 to 1440"),
        ("/kick", "Usage"),
        ("/kick ann", "yourself"),
        ("/kick cy", "does not know who cy is"),
        ("/computer off", "no computer player"),
        ("/computer medium", "Usage"),
    ],
)
def test_bad_commands_get_a_local_message(line: str, words: str) -> None:
    got = cmd(line)
    assert got.request is None and words in got.error


def test_a_non_host_is_told_locally() -> None:
    got = cmd("/kick ann", me="b")
    assert got.request is None and got.error == "Only the room's host can do that."


def test_other_lines_are_chat() -> None:
    assert cmd("hello /kick bob") is None


def test_an_unknown_slash_word_is_never_chat_and_two_slashes_say_one() -> None:
    for line in ("/shrug", "/mue bob", "/MUTEBOB 5"):
        got = cmd(line)
        assert got.request is None and got.chat is None and got.unknown
        assert "is not a command, so the line was not sent" in got.error
        assert "/kick, /mute, /unmute, /lock, /unlock, /host, /computer" in got.error
    assert cmd("/shrug", me="b").unknown  # for anyone, host or not
    assert cmd("//shrug").chat == "/shrug" and cmd("  //  ").chat == "/"


def test_a_muted_host_may_unmute_herself() -> None:
    got = cmd("/unmute ann", room=hosted(muted=["a"]))
    assert got.error is None
    assert to_map(got.request) == {"type": "host", "action": "unmute", "player": "a"}


def test_a_typed_line_becomes_one_request_or_a_local_message() -> None:
    room = hosted()
    draft = ChatDraft()

    def line(text: str) -> Typed:
        return typed(text, room.state, room.known, "a", draft)

    assert line("hello") == Typed(request=p.Chat(text="hello"))
    assert draft.sent == "hello"  # kept until the server relays it
    assert line("//me too") == Typed(request=p.Chat(text="/me too"))
    assert line("/lock") == Typed(request=p.Host(action="lock"), clear=True)
    refused = line("/kick zed")
    assert refused.request is None and refused.title == "Host action not done"
    unknown = line("/lokc")
    assert unknown.request is None and unknown.title == "Chat line not sent"
    assert line("   ") == Typed()


def test_computer_off_removes_the_computer_seat() -> None:
    state = make_state(
        host="a",
        players=[
            {"player": "a", "name": "ann", "seat": 0},
            {"player": "x", "name": "computer", "seat": 1, "bot": "easy"},
        ],
    )
    assert to_map(cmd("/computer off", room=room_of(state)).request) == {
        "type": "host",
        "action": "kick",
        "player": "x",
    }
    assert to_map(cmd("/computer HARD", room=room_of(state)).request) == {
        "type": "host",
        "action": "computer",
        "level": "hard",
    }


def test_a_mute_that_ran_out_is_said_so() -> None:
    room = fold(
        hosted(muted=["b"]),
        {
            "type": "host",
            **EV,
            "seq": 6,
            "action": "unmute",
            "by": None,
            "player": "b",
            "name": "bob",
        },
    )
    assert room is not None and room.state is not None and room.state.muted == []
    said = event_text(room.state.chat[-1]["event"], room.state, room.known, "a")
    assert said == "bob may chat again: the mute ran out."


def test_the_lobby_marks_the_host_and_a_locked_room() -> None:
    rooms = wire(
        {
            "type": "rooms",
            "rooms": [
                {
                    "room": "AB12CD",
                    "game": "gomoku",
                    "players": ["ann", "bob"],
                    "spectators": 0,
                    "status": "playing",
                    "locked": True,
                    "host": "bob",
                }
            ],
        }
    )
    [row] = room_rows(list(rooms.rooms))
    assert row.players == "ann, ★ bob" and row.status == "playing · locked"
    assert row.host == "bob"


def test_a_new_hosts_lifted_mute_is_said_so() -> None:
    """The server lifts a new host's mute as an ``unmute`` by the host itself."""
    event = {"type": "host", **EV, "seq": 6, "action": "unmute", "by": "b", "player": "b"}
    room = fold(hosted(muted=["b"]), {**event, "name": "bob"})
    assert room is not None and room.state is not None and room.state.muted == []
    said = event_text(room.state.chat[-1]["event"], room.state, room.known, "a")
    assert said == "bob hosts the room now, so they may chat again."
    mine = event_text(room.state.chat[-1]["event"], room.state, room.known, "b")
    assert mine == "You host the room now, so you may chat again."


def test_a_room_lost_at_a_restart_lands_us_in_the_lobby_told_why() -> None:
    """``room-lost`` (after ``welcome``): our room is gone and the lobby says which and why."""
    from gridhall.client.messages import Refused
    from gridhall.protocol import i18n

    session = Session("ws://127.0.0.1:1/", "ann")
    seen: list[Any] = []
    session.add_listener(seen.append)
    session.room = hosted()
    lost = p.Error(code="room-lost", message="Your room ...", room="AB12CD", reason="boom")
    assert session._on_frame(p.encode(lost)) is None
    assert session.room is None
    assert seen == [Refused("room-lost", "Your room ...", None, "AB12CD", "boom")]
    said = farewell(seen[0], "a", 0.0)
    assert said is not None and "AB12CD" in said and said.endswith("The server says: boom")
    assert farewell(Refused("room-lost", "", None, "AB12CD"), "a", 0.0) == (
        "Your room AB12CD could not be restored after the server restarted, so you are "
        "back in the lobby."
    )
    assert farewell(Refused("not-in-room", "x"), "a", 0.0) is None
    i18n.set_language("zh_Hans")
    try:
        said = farewell(seen[0], "a", 0.0)
        assert said is not None and "AB12CD" in said and "boom" in said and "无法恢复" in said
    finally:
        i18n.set_language("en")
