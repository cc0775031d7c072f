"""A room's journal entries are typed, and read and written in the format on disk.

Journals written by earlier versions must replay unchanged after an upgrade, so each
entry's map is pinned here key for key, and a journal written as plain maps (today's
format, no snapshot) is loaded through the store and replayed into a room.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server.core import journal
from gridhall.server.core.effects import Log, SaveIdentity, SaveRoom
from gridhall.server.core.journal import (
    Back,
    Closed,
    ComputerMoved,
    ComputerSeated,
    Entry,
    Gone,
    JobAnswered,
    Joined,
    JournalError,
    Request,
    Restored,
    Tick,
)
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, FakeServer

ON_DISK: list[tuple[Entry, journal.JSON]] = [
    (Tick(), {"k": "tick"}),
    (Restored(12.5), {"k": "restored", "down": 12.5}),
    (JobAnswered(3, {"value": [1, 2]}), {"k": "work", "ticket": 3, "answer": {"value": [1, 2]}}),
    (
        JobAnswered(4, {"error": "busy"}, "pa", False),
        {"k": "work", "ticket": 4, "answer": {"error": "busy"}, "p": "pa", "c": False},
    ),
    (
        Request("pa", p.Move(move={"x": 7, "y": 7})),
        {"k": "msg", "p": "pa", "m": {"type": "move", "move": {"x": 7, "y": 7}}},
    ),
    (
        Request("pa", p.Host(action="kick", player="pb"), address="10.0.0.9"),
        {
            "k": "msg",
            "p": "pa",
            "m": {"type": "host", "action": "kick", "player": "pb"},
            "addr": "10.0.0.9",
        },
    ),
    (
        Request("pa", p.Host(action="computer", level="easy"), seat="pc"),
        {
            "k": "msg",
            "p": "pa",
            "m": {"type": "host", "action": "computer", "level": "easy"},
            "seat": "pc",
        },
    ),
    (Joined("pa", "player"), {"k": "join", "p": "pa", "role": "player"}),
    (ComputerSeated("pc", "easy"), {"k": "computer-seat", "p": "pc", "level": "easy"}),
    (Gone("pa"), {"k": "gone", "p": "pa"}),
    (Back("pa", 17), {"k": "back", "p": "pa", "since": 17}),
    (Back("pa"), {"k": "back", "p": "pa", "since": None}),
    (
        ComputerMoved("pc", {"moves": []}, {"x": 1, "y": 1}),
        {"k": "computer", "p": "pc", "request": {"moves": []}, "move": {"x": 1, "y": 1}},
    ),
    (Closed(), {"k": "closed"}),
]


@pytest.mark.parametrize(("entry", "stored"), ON_DISK)
def test_each_entry_is_written_and_read_as_the_map_on_disk(
    entry: Entry, stored: journal.JSON
) -> None:
    assert journal.encode(entry) == stored
    assert journal.decode({**stored, "t": T0}) == entry


def test_a_request_is_kept_without_its_id_or_a_password() -> None:
    stored = journal.encode(Request("pa", p.JoinRoom(room="ABCDEF", password="sesame", id=4)))
    assert stored["m"] == {"type": "join-room", "room": "ABCDEF", "role": "player"}


@pytest.mark.parametrize(
    "move",
    [
        p.Move(move={"x": 7, "y": 7}),
        p.Move(move={"x": 0, "y": 14}, id=9),
        p.Move(move={"a": [1, 2], "b": [3, 4], "tile": "k"}, id=0),
    ],
)
def test_a_move_s_entry_made_directly_is_the_request_s(move: p.Move) -> None:
    """The hub journals a move with ``move_entry`` (no Request, no ``to_map``): the
    same map, key for key and in order, as the Request's, so it replays the same."""
    made = journal.move_entry("pa", move)
    assert made == journal.encode(Request("pa", move))
    assert list(made) == list(journal.encode(Request("pa", move)))
    assert list(made["m"]) == ["type", "move"]
    assert journal.decode({**made, "t": T0}) == Request("pa", p.Move(move=move.move))


@pytest.mark.parametrize(
    "stored",
    [
        {"k": "teleport", "p": "pa"},
        {"k": "work", "answer": {}},
        {"p": "pa"},
        {"k": "msg", "p": "pa", "m": {"type": "no-such-message"}},
        {"k": "restored", "down": "x"},
    ],
)
def test_an_entry_this_version_cannot_read_is_refused_as_such(stored: journal.JSON) -> None:
    with pytest.raises(JournalError):
        journal.decode(stored)


def test_a_journal_written_in_today_s_format_replays_into_the_room(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    ann, bob, code = "p351b1882", "p88dad333", "245DB3"
    store.write(
        [
            SaveIdentity(ann, "a" * 64, "Ann", None, None, None),
            SaveIdentity(bob, "b" * 64, "Bob", None, None, None),
            SaveRoom(
                code,
                {
                    "code": code,
                    "game": "gomoku",
                    "options": {"size": 15, "rule": "freestyle"},
                    "creator": ann,
                    "private": False,
                    "password": None,
                    "salt": "fNvjhDi9rtpBsaj5OlrjrA==",
                    "seed": 1716385137836457085,
                    "address": "10.0.0.1",
                    "created_at": T0,
                },
            ),
            Log(code, 1, {"k": "join", "p": ann, "role": "player", "t": T0}),
            Log(
                code,
                2,
                {
                    "k": "msg",
                    "p": bob,
                    "m": {"type": "join-room", "room": code, "role": "player"},
                    "t": T0 + 1,
                },
            ),
            Log(
                code,
                3,
                {
                    "k": "msg",
                    "p": ann,
                    "m": {"type": "move", "move": {"x": 7, "y": 7}},
                    "t": T0 + 2,
                },
            ),
            Log(
                code,
                4,
                {
                    "k": "msg",
                    "p": bob,
                    "m": {"type": "move", "move": {"x": 8, "y": 8}},
                    "t": T0 + 3,
                },
            ),
            Log(code, 5, {"k": "msg", "p": ann, "m": {"type": "chat", "text": "hi"}, "t": T0 + 4}),
            Log(code, 6, {"k": "gone", "p": bob, "t": T0 + 5}),
        ]
    )
    server = FakeServer(store=store)
    server.restore(T0 + 60, T0 + 10)
    room = server.hub.lobby.rooms[code]
    assert room.game is not None and [list(m) for m in room.game.view(None)["moves"]] == [
        [7, 7],
        [8, 8],
    ]
    assert [line["text"] for line in room.chat] == ["hi"]
    assert [m.name for m in room.seated] == ["Ann", "Bob"] and room.status == "playing"
