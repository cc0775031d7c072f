"""Rated rooms through the hub (no sockets): the option, game-over's ratings, the
rating saved with the game, and rated identities that are kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.server import cli
from gridhall.server.core.effects import ForgetIdentity, SaveGame
from gridhall.server.core.ratings import Rating
from gridhall.server.io.store.store import Store
from tests.server.helpers import T0, Client, FakeServer, connect


def me(client: Client) -> str:
    player: str = client.last(p.Welcome).player
    return player


def pair(server: FakeServer, **options: Any) -> tuple[Client, Client]:
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", options=options)
    bob.send("join-room", room=ann.last(p.Joined).room)
    return ann, bob


def five(black: Client, white: Client, now: float = T0 + 1) -> None:
    """Black's five in eleven stones (a game of fewer than ten is not rated)."""
    for i in range(4):
        black.send("move", now, move={"x": i, "y": 0})
        white.send("move", now, move={"x": i, "y": 2})
    black.send("move", now, move={"x": 10, "y": 10})
    white.send("move", now, move={"x": 10, "y": 12})
    black.send("move", now, move={"x": 4, "y": 0})


def test_a_rated_game_over_carries_each_persons_rating_change() -> None:
    server = FakeServer()
    ann, bob = pair(server, rated=True)
    for c in (ann, bob):  # established players: each counts in full for the other
        server.hub.ratings.table[(me(c), "gomoku")] = Rating(25.0, 3.0, 10, 5)
    assert ann.last(p.State).options["rated"] is True
    five(ann, bob)
    over = bob.last(p.GameOver)
    assert over.ratings is not None and set(over.ratings) == {me(ann), me(bob)}
    assert over.ratings[me(ann)]["before"] == 1640 < over.ratings[me(ann)]["after"]
    assert over.ratings == ann.last(p.GameOver).ratings
    saved = next(e for e in server.other if isinstance(e, SaveGame))
    assert {c.player for c in saved.ratings} == {me(ann), me(bob)}
    assert server.hub.ratings.get(me(ann), "gomoku").games == 11


def test_a_casual_game_changes_no_rating_and_keeps_its_options() -> None:
    server = FakeServer()
    ann, bob = pair(server)
    assert "rated" not in ann.last(p.State).options
    five(ann, bob)
    assert ann.last(p.GameOver).ratings is None
    assert server.hub.ratings.table == {}
    assert p.encode(ann.last(p.GameOver)).find(b"ratings") == -1  # the old wire form


def test_rated_against_the_computer_moves_only_the_person() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"rated": True, "ai": "easy"})
    bot = next(pid for pid in ann.last(p.State).view["colors"] if pid != me(ann))
    answered, stones = 0, 0
    while stones < 10:  # ten stones (the computer's answers given here), then Ann resigns
        thinks = server.thinks()[answered:]
        for think in thinks:
            server.execute(server.hub.computer_move(think, {"x": stones, "y": 0}, T0 + 2))
        answered += len(thinks)
        stones += len(thinks)
        if stones < 10 and not server.thinks()[answered:]:
            ann.send("move", T0 + 1, move={"x": stones, "y": 7})
            stones += 1
    ann.send("resign", T0 + 3)
    over = ann.last(p.GameOver)
    assert over.result["winner"] == bot
    assert over.ratings is not None and list(over.ratings) == [me(ann)]
    assert over.ratings[me(ann)]["after"] < 1000 + 1  # lost to the easy computer
    assert not server.hub.ratings.has(bot)


def test_rated_options_are_checked() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"rated": "yes"})
    assert "rated" in ann.errors()[-1].message
    ann.send("create-room", game="minesweeper", options={"rated": True})
    assert ann.errors()[-1].code == "bad-message"
    ann.send("create-room", game="linkmatch", options={"rated": True})
    assert ann.last(p.State).options["rated"] is True


def test_a_rated_player_is_kept_when_offline_a_casual_one_forgotten(tmp_path: Path) -> None:
    server = FakeServer(store=Store(tmp_path / "g.db"), grace_seconds=60)
    ann, bob = pair(server, rated=True)
    five(ann, bob)
    cy = connect(server, "Cy")
    for c in (ann, bob, cy):
        c.send("leave-room", T0 + 5) if c is not cy else None
        c.drop(T0 + 6)
    server.advance(T0 + 10 * 86400)
    known = server.hub.identities.by_id
    assert me(ann) in known and me(bob) in known and me(cy) not in known
    forgotten = {e.player for e in server.other if isinstance(e, ForgetIdentity)}
    assert me(cy) in forgotten and me(ann) not in forgotten
    again = Client(server, T0 + 10 * 86400)  # Ann comes back days later: same identity
    assert again.hello("Ann", ann.last(p.Welcome).token).player == me(ann)
    # after a restart the kept identities are still there (their expiry is stored)
    restarted = FakeServer(store=server.store, grace_seconds=60)
    assert server.store is not None
    restarted.hub.ratings.load(server.store.ratings.load())
    restarted.restore(T0 + 20 * 86400, T0 + 20 * 86400)
    assert me(bob) in restarted.hub.identities.by_id


@pytest.mark.parametrize(("days", "kept"), [(2.0, False), (0.0, True)])
def test_rated_identity_days_bounds_the_keeping_0_keeps_for_good(days: float, kept: bool) -> None:
    assert cli.build_parser().parse_args(["--rated-identity-days", "2"]).rated_identity_days == 2
    server = FakeServer(grace_seconds=60, rated_identity_days=days)
    ann, bob = pair(server, rated=True)
    five(ann, bob)
    ann.send("leave-room", T0 + 5)
    ann.drop(T0 + 6)
    server.advance(T0 + 3 * 86400)
    assert (me(ann) in server.hub.identities.by_id) is kept
