"""A game that never ends: its journal stays under the cap (mid-game snapshots), its
action log is bounded, and the room still comes back exactly after a restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from gridhall import protocol as p
from gridhall.server.games.minesweeper import game as minesweeper
from gridhall.server.games.minesweeper.game import from_state
from gridhall.server.io.store import journal_table
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect

CAP = 40


def journal_rows(path: Path, room: str) -> int:
    """The room's live journal entries: what its restore replays."""
    with sqlite3.connect(path) as db:
        return journal_table.room_entries(db, room)


def flag_toggling_room(server: FakeServer) -> tuple[list[Client], str, list[tuple[int, int]]]:
    """Eight players in a Minesweeper room with its first cell revealed; the cells
    still hidden."""
    players = [connect(server, f"P{n}") for n in range(8)]
    players[0].send(
        "create-room",
        game="minesweeper",
        options={"width": 16, "height": 16, "mines": 60, "max_players": 8},
    )
    code: str = players[0].last(p.Joined).room
    for other in players[1:]:
        other.send("join-room", room=code)
    players[0].send("move", T0 + 1, move={"action": "reveal", "x": 8, "y": 8})
    rows = players[0].last(p.Moved).view["rows"]
    hidden = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"]
    return players, code, hidden


def toggle(players: list[Client], hidden: list[tuple[int, int]], moves: int, start: float) -> float:
    now = start
    for n in range(moves):
        x, y = hidden[n % len(hidden)]
        mark = "flag" if (n // len(hidden)) % 2 == 0 else "none"
        now = start + n * 0.01
        players[n % len(players)].send(
            "move", now, move={"action": "mark", "x": x, "y": y, "mark": mark}
        )
        if n % 37 == 0:
            players[n % len(players)].send("chat", now, text=f"still flagging {n}")
    return now


def test_a_never_ending_games_journal_stays_under_the_cap_and_restores_exactly(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), journal_rows=CAP)
    players, code, hidden = flag_toggling_room(server)
    most = 0
    now = T0 + 2.0
    for _ in range(10):
        now = toggle(players, hidden, 60, now) + 0.01
        most = max(most, journal_rows(path, code))
    assert most <= CAP
    room = server.hub.lobby.rooms[code]
    assert room.game is not None and room.game.result is None
    before = room.game.state()
    seq, chat, view = room.seq, list(room.chat), room.game.view(None)

    server2 = FakeServer(store=Store(path), journal_rows=CAP)
    server2.restore(now, now)  # no downtime: every clock is where it was
    again = server2.hub.lobby.rooms[code]
    assert again.game is not None and again.game.state() == before
    assert again.seq == seq and list(again.chat) == chat and again.game.view(None) == view
    assert [m.name for m in again.seated] == [f"P{n}" for n in range(8)]

    welcome = players[1].last(p.Welcome)
    back = Client(server2, now + 1)
    back.send("hello", now + 1, protocol=1, name="x", token=welcome.token)
    x, y = hidden[0]
    back.send("move", now + 2, move={"action": "mark", "x": x, "y": y, "mark": "question"})
    moved = back.last(p.Moved)
    assert moved.view["rows"][y][x] == "?" and moved.seq == again.seq


def test_the_action_log_keeps_its_first_entries_and_counts_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(minesweeper, "MAX_ACTIONS", 25)
    game = minesweeper.MinesweeperGame(
        {
            "width": 9,
            "height": 9,
            "mines": 10,
            "first_click": "safe",
            "no_guess": False,
            "max_adjacent": None,
            "lives": 1,
            "max_players": 8,
            "hint_penalty": 10.0,
        },
        ["a"],
        seed=7,
        now=0.0,
    )
    for n in range(100):
        game.apply(
            "a",
            {"action": "mark", "x": 0, "y": 0, "mark": "flag" if n % 2 == 0 else "none"},
            float(n),
        )
    record = game.record()
    assert len(record["actions"]) == 25 and record["actions_omitted"] == 75
    assert record["actions"][0][:2] == ["a", "mark"]


def test_a_saved_minesweeper_game_is_the_same_game(tmp_path: Path) -> None:
    server = FakeServer()
    players, code, hidden = flag_toggling_room(server)
    toggle(players, hidden, 30, T0 + 2)
    x, y = hidden[-1]
    players[2].send("move", T0 + 3, move={"action": "reveal", "x": x, "y": y})
    game = server.hub.lobby.rooms[code].game
    assert game is not None
    copy = from_state(game.state())
    assert copy.state() == game.state() and copy.view(None) == game.view(None)
    assert copy.record() == game.record()
    assert bytes(copy.revealed) == bytes(game.revealed)
    assert bytes(copy.flagged) == bytes(game.flagged)
    assert bytes(copy.questioned) == bytes(game.questioned)


def test_a_gomoku_game_kept_going_by_take_backs_stays_under_the_cap_and_restores(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), journal_rows=CAP)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", options={"clock": {"minutes": 10, "increment": 0}})
    code: str = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    ann.send("move", T0 + 1, move={"x": 7, "y": 7})
    now = T0 + 2
    most = 0
    for n in range(150):  # bob plays, asks to take it back, ann agrees: forever
        now = T0 + 2 + n
        bob.send("move", now, move={"x": n % 15, "y": 0})
        bob.send("offer", now + 0.1, kind="takeback")
        ann.send("answer", now + 0.2, kind="takeback", accept=True)
        ann.send("chat", now + 0.3, text=f"again {n}")
        most = max(most, journal_rows(path, code))
    assert most <= CAP
    room = server.hub.lobby.rooms[code]
    assert room.game is not None and room.game.result is None
    before, seq = room.game.state(), room.seq

    server2 = FakeServer(store=Store(path), journal_rows=CAP)
    server2.restore(now + 1, now + 1)
    again = server2.hub.lobby.rooms[code]
    assert again.game is not None and again.game.state() == before and again.seq == seq
    back = Client(server2, now + 2)
    back.send("hello", now + 2, protocol=1, name="x", token=bob.last(p.Welcome).token)
    back.send("move", now + 3, move={"x": 8, "y": 8})
    assert back.last(p.Moved).view["moves"] == [[7, 7], [8, 8]]


def test_a_linkmatch_race_with_endless_wrong_links_stays_under_the_cap_and_restores(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), journal_rows=CAP)
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send(
        "create-room",
        game="linkmatch",
        options={"width": 6, "height": 4, "kinds": 3, "countdown": 0},
    )
    code: str = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    ann.send("start", T0 + 1)
    most = 0
    for n in range(200):  # wrong links are counted (and journalled): at the message rate
        (ann if n % 2 else bob).send(
            "move", T0 + 2 + n * 0.1, move={"action": "link", "a": [0, 0], "b": [0, 0]}
        )
        most = max(most, journal_rows(path, code))
    assert most <= CAP
    room = server.hub.lobby.rooms[code]
    assert room.game is not None and room.game.result is None
    before, seq, view = room.game.state(), room.seq, room.game.view(me(ann))
    now = T0 + 30

    server2 = FakeServer(store=Store(path), journal_rows=CAP)
    server2.restore(now, now)
    again = server2.hub.lobby.rooms[code]
    assert again.game is not None and again.game.state() == before and again.seq == seq
    assert again.game.view(me(ann)) == view
    assert again.game.record()["actions"] == room.game.record()["actions"]


def me(client: Client) -> str:
    player: str = client.last(p.Welcome).player
    return player
