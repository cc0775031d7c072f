"""``moved`` as deltas for clients that ask in ``hello``; whole views for the others."""

from __future__ import annotations

from typing import Any

from gridhall import protocol as p
from gridhall.client.messages import is_room_event
from gridhall.client.room import RoomCopy, apply
from gridhall.server.core.room import EVERYONE
from tests.server.helpers import T0, Client, FakeServer

# Gomoku stones that never make five: a long game to fold.
STONES = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 0]
REPLIES = [(x, y) for y in range(15) for x in range(15) if ((x // 2) + y) % 2 == 1]


def join(
    server: FakeServer, name: str, deltas: bool, token: str | None = None, since: int | None = None
) -> Client:
    client = Client(server, T0)
    fields: dict[str, Any] = {"protocol": 1, "name": name}
    if deltas:
        fields["deltas"] = True
    if token is not None:
        fields.update(token=token, since=since)
    client.send("hello", **fields)
    return client


def folded(client: Client, copy: RoomCopy | None = None) -> RoomCopy:
    """Our copy of the room after folding every room event the client got, as the
    Python client does (a roster change asks for a sync it does not need here; a
    ``moved`` that does not fold would too)."""
    me = [m for m in client.received() if isinstance(m, p.Welcome)][-1].player
    for msg in client.received():
        if is_room_event(msg):
            applied = apply(copy, msg, me, T0)
            assert not (applied.sync and isinstance(msg, p.Moved)), f"moved {msg.seq}"
            copy = applied.room
    assert copy is not None and copy.state is not None
    return copy


def moved_frames(client: Client) -> list[tuple[int, p.Moved]]:
    return [
        (len(f), m) for f in client.link.frames if isinstance(m := p.decode(f, "server"), p.Moved)
    ]


def gomoku(server: FakeServer, ann_deltas: bool, bob_deltas: bool) -> tuple[Client, Client]:
    ann, bob = join(server, "Ann", ann_deltas), join(server, "Bob", bob_deltas)
    ann.send("create-room", game="gomoku")
    bob.send("join-room", room=ann.last(p.Joined).room)
    return ann, bob


def play(ann: Client, bob: Client, moves: int, first: int = 0) -> None:
    for n in range(first, first + moves):
        mover = ann if n % 2 == 0 else bob
        x, y = (STONES if n % 2 == 0 else REPLIES)[n // 2]
        mover.send("move", move={"x": x, "y": y})


def test_a_delta_client_folds_each_move_to_the_view_a_full_client_gets() -> None:
    server = FakeServer()
    ann, bob = gomoku(server, ann_deltas=True, bob_deltas=False)
    for n in range(40):
        play(ann, bob, 1, n)
        assert folded(ann).state.view == bob.last(p.Moved).view  # type: ignore[union-attr]
    ann_moves, bob_moves = moved_frames(ann), moved_frames(bob)
    assert all(m.delta is None for _, m in bob_moves)
    late = ann_moves[20:]  # past the first 16 moves the move list is patched
    assert all(m.delta is not None and "moves" not in m.view for _, m in late)
    assert all(
        m.delta == {"moves": {"at": m.seq - ann_moves[0][1].seq, "append": [m.view["last"]]}}
        for _, m in late
    )
    assert max(size for size, _ in late) < 200 < bob_moves[-1][0]


def test_everyone_who_takes_deltas_shares_one_send_of_one_encoding() -> None:
    server = FakeServer()
    ann, bob = gomoku(server, ann_deltas=True, bob_deltas=True)
    play(ann, bob, 20)
    room = server.hub.lobby.rooms[ann.last(p.Joined).room]
    _, sends, _ = room.recent[-1]
    assert list(sends) == [EVERYONE] and len(sends[EVERYONE]) == 1
    to, frame, is_delta = sends[EVERYONE][0]
    assert is_delta and "delta" in p.decode_map(frame)
    assert set(to) == {ann.last(p.Welcome).player, bob.last(p.Welcome).player}


def test_a_big_minesweeper_move_costs_bytes_for_the_cells_it_changed() -> None:
    server = FakeServer()
    ann, bob = join(server, "Ann", True), join(server, "Bob", False)
    ann.send(
        "create-room", game="minesweeper", options={"width": 200, "height": 200, "mines": 4000}
    )
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("move", move={"action": "reveal", "x": 100, "y": 100})
    rows = ann.last(p.Moved).view.get("rows") or folded(ann).state.view["rows"]  # type: ignore[union-attr]
    hidden = [(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"]
    for x, y in hidden[:3]:
        bob.send("move", move={"action": "mark", "x": x, "y": y, "mark": "flag"})
    (delta_size, change), (whole_size, whole) = moved_frames(ann)[-1], moved_frames(bob)[-1]
    x, y = hidden[2]
    assert change.delta["rows"] == {"rows": [[y, x, "F"]]}  # type: ignore[index]
    assert delta_size < 600 and whole_size > 40_000
    assert folded(ann).state.view == whole.view  # type: ignore[union-attr]


def test_a_resumed_delta_client_folds_what_it_missed() -> None:
    server = FakeServer()
    ann, bob = gomoku(server, ann_deltas=True, bob_deltas=True)
    play(ann, bob, 21)
    token, seen = ann.last(p.Welcome).token, folded(ann)
    ann.drop()
    bob.send("chat", text="still there?")
    play(ann, bob, 1, 21)  # bob moves while ann is away
    ann = join(server, "Ann", True, token=token, since=seen.seq)
    play(ann, bob, 4, 22)
    missed = [m for m in ann.received() if isinstance(m, p.Moved)]
    assert len(missed) == 5 and all(m.delta is not None for m in missed)
    assert not any(isinstance(m, p.State) for m in ann.received())
    assert folded(ann, seen).state.view == folded(bob).state.view  # type: ignore[union-attr]


def test_a_full_client_never_gets_a_delta_even_on_resume() -> None:
    server = FakeServer()
    ann, bob = gomoku(server, ann_deltas=True, bob_deltas=True)
    play(ann, bob, 21)
    token, seq = ann.last(p.Welcome).token, folded(ann).seq
    ann.drop()
    play(ann, bob, 1, 21)  # bob's reply: sent only as a delta (nobody takes whole views)
    assert bob.last(p.Moved).seq > seq
    back = join(server, "Ann", False, token=token, since=seq)
    assert not any(isinstance(m, p.Moved) for m in back.received())
    state = back.last(p.State)
    assert state.view == folded(bob).state.view  # type: ignore[union-attr]


def test_a_snapshot_unlike_the_last_event_makes_the_next_move_whole() -> None:
    server = FakeServer()
    ann, bob = gomoku(server, ann_deltas=True, bob_deltas=True)
    play(ann, bob, 20)
    room = server.hub.lobby.rooms[ann.last(p.Joined).room]
    room.events.views[EVERYONE] = {
        **room.events.views[EVERYONE],
        "moves": [],
    }  # out of step, somehow
    cy = join(server, "Cy", True)
    cy.send("join-room", room=room.code, role="spectator")
    play(ann, bob, 1, 20)
    for client in (ann, bob, cy):
        assert client.last(p.Moved).delta is None
    assert folded(cy).state.view == folded(ann).state.view  # type: ignore[union-attr]
    play(ann, bob, 1, 21)
    assert cy.last(p.Moved).delta is not None
