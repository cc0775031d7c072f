"""Room creation, codes and the public list, without sockets."""

from __future__ import annotations

import secrets

import pytest

from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.server.core.identity import Identities
from gridhall.server.core.lobby import CODE_ALPHABET, CODE_LENGTH, Lobby
from gridhall.server.core.room import Room


class Host:
    def __init__(self) -> None:
        self.emptied: list[Room] = []

    def room_emptied(self, room: Room) -> None:
        self.emptied.append(room)

    def identity_released(self, ident: object, now: float) -> None:
        pass

    def password_tried(self, room: Room, ident: object, ok: bool, now: float) -> None:
        pass


def make_lobby(max_rooms: int = 5) -> tuple[Lobby, Identities]:
    lobby = Lobby(Host(), max_rooms=max_rooms, grace_seconds=60.0, entropy=secrets)
    return lobby, Identities(secrets)


def test_codes_are_six_unambiguous_characters_and_unique() -> None:
    lobby, ids = make_lobby(max_rooms=50)
    codes = {lobby.create(ids.create("a")[0], "gomoku", None, False, None).code for _ in range(50)}
    assert len(codes) == 50
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)
    assert not set(CODE_ALPHABET) & set("01IOL")


def test_the_room_cap_answers_server_busy() -> None:
    lobby, ids = make_lobby(max_rooms=2)
    for _ in range(2):
        lobby.create(ids.create("a")[0], "gomoku", None, False, None)
    with pytest.raises(ProtocolError) as exc:
        lobby.create(ids.create("b")[0], "gomoku", None, False, None)
    assert exc.value.code is ErrorCode.SERVER_BUSY and len(lobby.rooms) == 2


def test_an_unknown_game_is_refused_naming_the_hosted_ones() -> None:
    lobby, ids = make_lobby()
    with pytest.raises(ProtocolError) as exc:
        lobby.create(ids.create("a")[0], "chess", None, False, None)
    assert exc.value.code is ErrorCode.BAD_MESSAGE
    assert "gomoku" in exc.value.message and "linkmatch" in exc.value.message
    assert not lobby.rooms


def test_bad_options_are_refused_with_a_sentence_and_create_nothing() -> None:
    lobby, ids = make_lobby()
    with pytest.raises(ProtocolError) as exc:
        lobby.create(ids.create("a")[0], "gomoku", {"size": 16}, False, None)
    assert exc.value.code is ErrorCode.BAD_MESSAGE and "size" in exc.value.message
    assert not lobby.rooms


def test_options_are_filled_with_defaults() -> None:
    lobby, ids = make_lobby()
    room = lobby.create(ids.create("a")[0], "gomoku", {}, False, None)
    assert room.options == {"size": 15, "rule": "freestyle"}


def test_private_and_password_rooms_are_not_listed_and_check_the_password() -> None:
    lobby, ids = make_lobby()
    public = lobby.create(ids.create("a")[0], "gomoku", None, False, None)
    hidden = lobby.create(ids.create("b")[0], "gomoku", None, False, "sesame")
    assert hidden.private and hidden.protected
    assert [r["room"] for r in lobby.listing()] == [public.code]
    assert hidden.check_password("sesame")
    assert not hidden.check_password("Sesame") and not hidden.check_password(None)
    assert public.check_password(None)


def test_find_accepts_any_case_and_refuses_unknown_codes() -> None:
    lobby, ids = make_lobby()
    room = lobby.create(ids.create("a")[0], "gomoku", None, False, None)
    assert lobby.find(f"  {room.code.lower()} ") is room
    with pytest.raises(ProtocolError) as exc:
        lobby.find("ZZZZZZ" if room.code != "ZZZZZZ" else "YYYYYY")
    assert exc.value.code is ErrorCode.NO_SUCH_ROOM
