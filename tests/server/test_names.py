"""Names and colours as the server keeps and shows them."""

from __future__ import annotations

import pytest

from gridhall import protocol as p
from gridhall.protocol import ProtocolError
from gridhall.server.core.names import MAX_NAME, clean_color, clean_name, name_key, unique_name
from tests.server.helpers import Client, FakeServer, connect


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ("Ann", "Ann"),
        ("Cafe\u0301", "Caf\u00e9"),  # NFC
        ("A\u200bn\u200dn", "Ann"),  # zero-width characters dropped
        ("\u202eevil\u202c", "evil"),  # bidi overrides dropped
        ("Ann  \u3000 Lee", "Ann Lee"),  # any run of spaces is one space
        ("x" * 32, "x" * MAX_NAME),  # a long name the contract accepts is shortened
    ],
)
def test_names_are_normalised_and_kept_printable(raw: str, kept: str) -> None:
    assert clean_name(raw) == kept


@pytest.mark.parametrize(
    "raw",
    ["\u200b\u200b", "\u0301", "Computer", "computer (HARD)", "\uff23omputer (easy)", "a\ue000b"],
)
def test_names_without_visible_characters_or_of_computers_are_refused(raw: str) -> None:
    with pytest.raises(ProtocolError) as exc:
        clean_name(raw)
    assert exc.value.code.value == "bad-message"


def test_a_taken_name_gets_the_first_free_suffix_within_the_length() -> None:
    assert unique_name("Ann", ["ANN", "ann (2)"]) == "Ann (3)"
    long = "y" * MAX_NAME
    suffixed = unique_name(long, [long])
    assert suffixed.endswith(" (2)") and len(suffixed) == MAX_NAME


def test_a_hello_with_a_32_character_name_is_welcomed_with_it_shortened() -> None:
    server = FakeServer()
    ann = connect(server, "z" * 32)
    ann.send("create-room", game="gomoku")
    assert ann.last(p.Joined).name == "z" * MAX_NAME


def test_a_hello_with_a_computers_name_is_refused() -> None:
    server = FakeServer()
    client = Client(server)
    client.send("hello", protocol=1, name="Computer (hard)")
    [error] = client.errors()
    assert error.code == "bad-message" and "computer" in error.message.lower()


def test_a_joiner_whose_name_is_taken_in_the_room_gets_a_suffix() -> None:
    server = FakeServer()
    ann, other = connect(server, "Ann"), connect(server, "ann")
    ann.send("create-room", game="gomoku")
    other.send("join-room", room=ann.last(p.Joined).room)
    assert other.last(p.Joined).name == "ann (2)"
    names = [pl["name"] for pl in ann.last(p.State).players]
    assert names == ["Ann", "ann (2)"]


def test_renaming_to_a_name_taken_in_the_room_is_refused() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku")
    bob.send("join-room", room=ann.last(p.Joined).room)
    rid = bob.send("player-info", name="ANN")
    [error] = bob.errors()
    assert error.code == "bad-message" and error.re == rid
    bob.send("player-info", name="Bobby")
    assert ann.last(p.PlayerInfoEvent).name == "Bobby"


def test_a_look_alike_of_a_name_in_the_room_counts_as_the_same_name() -> None:
    server = FakeServer()
    alice, fake = connect(server, "Alice"), connect(server, "\u0410lice")  # Cyrillic А
    alice.send("create-room", game="gomoku")
    fake.send("join-room", room=alice.last(p.Joined).room)
    assert fake.last(p.Joined).name == "\u0410lice (2)"


@pytest.mark.parametrize("look_alike", ["\u0430lice", "ALICE", "A1ice", "\uff21lice"])
def test_renaming_to_a_look_alike_of_a_name_in_the_room_is_refused(look_alike: str) -> None:
    server = FakeServer()
    alice, bob = connect(server, "Alice"), connect(server, "Bob")
    alice.send("create-room", game="gomoku")
    bob.send("join-room", room=alice.last(p.Joined).room)
    rid = bob.send("player-info", name=look_alike)
    [error] = bob.errors()
    assert error.code == "bad-message" and error.re == rid


def test_different_names_stay_different() -> None:
    assert name_key("Alice") != name_key("Alicia")
    assert name_key("Bob") != name_key("Rob")


@pytest.mark.parametrize(("raw", "kept"), [("Teal", "teal"), ("#A0b1C2", "#a0b1c2")])
def test_colours_come_from_the_palette_or_hex(raw: str, kept: str) -> None:
    assert clean_color(raw) == kept


@pytest.mark.parametrize("raw", ["<script>alert(1)</script>", "#abc", "#gggggg", "blurple"])
def test_other_colours_are_refused(raw: str) -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku")
    ann.clear()
    ann.send("player-info", color=raw)
    [error] = ann.errors()
    assert error.code == "bad-message" and "#rrggbb" in error.message
    assert ann.received() == [error]


def test_player_info_outside_a_room_is_answered_with_the_profile() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    rid = ann.send("player-info", name="  Ann\u200b B ", color="Teal")
    profile = ann.last(p.Profile)
    assert (profile.name, profile.color, profile.re) == ("Ann B", "teal", rid)
    assert profile.player == ann.last(p.Welcome).player
