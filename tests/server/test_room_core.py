"""The room as a state machine: inputs with a time, effects out, no sockets."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.protocol.games.gomoku import GomokuEnd
from gridhall.server.core.effects import SaveChat, SaveGame, Think
from gridhall.server.core.room import game_seed
from tests.server.helpers import T0, Client, FakeServer, connect


def gomoku_pair(server: FakeServer, **options: Any) -> tuple[Client, Client, str]:
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="gomoku", options=options)
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    return ann, bob, code


def me(client: Client) -> str:
    player: str = client.last(p.Welcome).player
    return player


def test_the_second_player_starts_the_game_with_one_seq_for_both() -> None:
    server = FakeServer()
    ann, bob, _ = gomoku_pair(server)
    a_state, b_state = ann.last(p.State), bob.last(p.State)
    assert a_state.status == b_state.status == "playing"
    assert a_state.seq == b_state.seq and a_state.turn == b_state.turn == me(ann)
    assert a_state.view["colors"] == {me(ann): "black", me(bob): "white"}


def test_a_move_reaches_both_with_the_view_and_whose_turn_is_next() -> None:
    server = FakeServer()
    ann, bob, _ = gomoku_pair(server)
    ann.send("move", move={"x": 7, "y": 7})
    for client in (ann, bob):
        moved = client.last(p.Moved)
        assert moved.by == me(ann) and moved.view["moves"] == [[7, 7]]
        assert moved.turn == me(bob)


def test_refused_moves_change_nothing_and_answer_only_the_sender() -> None:
    server = FakeServer()
    ann, bob, _ = gomoku_pair(server)
    seq = bob.last(p.State).seq
    bob.clear()
    ann.clear()
    bob.send("move", move={"x": 7, "y": 7})
    ann.send("move", move={"x": 15, "y": 0})
    ann.send("move", move={"x": "a", "y": 0})
    assert [e.code for e in bob.errors()] == ["not-your-turn"]
    assert [e.code for e in ann.errors()] == ["illegal-move", "bad-message"]
    assert len(bob.received()) == 1 and len(ann.received()) == 2
    ann.send("move", move={"x": 0, "y": 0})
    assert bob.last(p.Moved).seq == seq + 1  # nothing took a seq in between


def test_spectators_watch_but_cannot_move() -> None:
    server = FakeServer()
    _, _, code = gomoku_pair(server)
    cy = connect(server, "Cy")
    cy.send("join-room", room=code, role="spectator")
    assert cy.last(p.State).spectators == ["Cy"]
    cy.send("move", move={"x": 1, "y": 1})
    assert cy.errors()[-1].code == "not-a-player"


def test_a_dropped_player_keeps_the_seat_until_the_grace_ends() -> None:
    server = FakeServer(grace_seconds=60)
    ann, bob, code = gomoku_pair(server)
    bob.drop(T0 + 5)
    info = ann.last(p.PlayerInfoEvent)
    assert info.player == me(bob) and not info.connected
    assert server.wakes[code] == T0 + 65
    server.advance(T0 + 64)
    assert ann.last(p.State).status == "playing"
    server.advance(T0 + 65)
    over = ann.last(p.GameOver)
    assert over.result["reason"] == "disconnect" and over.result["winner"] == me(ann)
    assert code not in server.wakes


def test_a_player_resuming_in_time_gets_the_seat_and_a_state() -> None:
    server = FakeServer(grace_seconds=60)
    ann, bob, code = gomoku_pair(server)
    token = bob.last(p.Welcome).token
    bob.drop(T0 + 5)
    again = Client(server, T0 + 30)
    again.hello("Bob", token, now=T0 + 30)
    state = again.last(p.State)
    assert [pl["connected"] for pl in state.players] == [True, True]
    assert ann.last(p.PlayerInfoEvent).connected
    assert code not in server.wakes
    server.advance(T0 + 200)
    assert ann.last(p.State).status == "playing"


def test_the_last_member_leaving_closes_the_room_and_forgets_offline_players() -> None:
    server = FakeServer(grace_seconds=60)
    ann, bob, code = gomoku_pair(server)
    bob.drop(T0 + 1)
    ann.send("leave-room", T0 + 2)
    server.advance(T0 + 61)  # bob's grace ends with nobody left: the room closes
    assert code not in server.hub.lobby.rooms
    assert me(bob) not in server.hub.identities.by_id
    assert me(ann) in server.hub.identities.by_id  # still connected, in the lobby
    assert not any(key == code for key in server.wakes)


def test_chat_is_broadcast_and_stored() -> None:
    server = FakeServer()
    ann, bob, code = gomoku_pair(server)
    ann.send("chat", T0 + 3, text="  gl hf ")
    chat = bob.last(p.ChatEvent)
    assert (chat.sender, chat.name, chat.text, chat.ts) == (me(ann), "Ann", "gl hf", T0 + 3)
    assert SaveChat(code, me(ann), "Ann", "gl hf", T0 + 3) in server.other


def play_five(ann: Client, bob: Client) -> None:
    for i in range(5):
        ann.send("move", move={"x": i, "y": 0})
        if i < 4:
            bob.send("move", move={"x": i, "y": 1})


def test_a_five_ends_the_game_stores_it_and_play_again_swaps_colours() -> None:
    server = FakeServer()
    ann, bob, code = gomoku_pair(server)
    play_five(ann, bob)
    result = bob.last(p.GameOver).result
    assert result["winner"] == me(ann) and p.Outcome.from_map(result).termination == GomokuEnd.FIVE
    [saved] = [e for e in server.other if isinstance(e, SaveGame)]
    assert saved.room == code and saved.record["moves"][0] == [0, 0]
    bob.send("agree-again")
    assert bob.errors()[-1].code == "no-pending-request"
    bob.send("play-again")
    ann.send("agree-again")
    state = ann.last(p.State)
    assert state.status == "playing" and state.round == 1
    assert state.view["colors"][me(bob)] == "black" and state.turn == me(bob)


def test_the_log_counts_rounds_from_one_as_the_screens_do(caplog: pytest.LogCaptureFixture) -> None:
    server = FakeServer()
    with caplog.at_level(logging.INFO, logger="gridhall.room"):
        ann, bob, code = gomoku_pair(server)
        play_five(ann, bob)
        bob.send("play-again")
        ann.send("agree-again")
    starts = [r.getMessage() for r in caplog.records if "starts" in r.getMessage()]
    assert starts == [f"room {code}: gomoku round 1 starts", f"room {code}: gomoku round 2 starts"]
    assert ann.last(p.State).round == 1  # the wire keeps counting from 0


def test_a_gomoku_clock_running_out_ends_the_game_on_time() -> None:
    server = FakeServer()
    _, bob, code = gomoku_pair(server, clock="1+0")
    assert server.wakes[code] == T0 + 60
    server.advance(T0 + 60)
    result = bob.last(p.GameOver).result
    assert result["reason"] == "timeout" and result["winner"] == me(bob)


def test_a_loss_on_time_sends_the_final_view_with_the_losers_clock_at_zero() -> None:
    server = FakeServer()
    ann, bob, _ = gomoku_pair(server, clock="1+0")
    ann.send("move", T0 + 20, move={"x": 7, "y": 7})
    a, b = me(ann), me(bob)
    bob.clear()
    server.advance(T0 + 20 + 60)  # bob's minute runs out
    final, over = bob.received()[-2:]
    assert isinstance(final, p.State) and isinstance(over, p.GameOver)
    assert final.view["clock"]["remaining"] == {a: 40.0, b: 0.0}
    assert final.view["clock"]["running"] is None and over.seq == final.seq + 1


def test_a_move_after_the_clock_ran_out_loses_on_time_even_before_the_timer_fires() -> None:
    server = FakeServer()
    ann, bob, code = gomoku_pair(server, clock="1+0")
    ann.send("move", T0 + 59, move={"x": 7, "y": 7})  # in time: played (no tick needed)
    assert server.wakes[code] == T0 + 59 + 60  # bob's flag falls then; nobody fires it here
    bob.send("move", T0 + 59 + 61, move={"x": 8, "y": 8})  # late, before the timer
    result = ann.last(p.GameOver).result
    assert result["reason"] == "timeout" and result["winner"] == me(ann)
    assert bob.errors()[-1].code == "not-playing"  # judged after the clock, so refused
    assert [m.move for m in ann.received() if isinstance(m, p.Moved)] == [{"x": 7, "y": 7}]


def test_the_computer_is_asked_to_think_and_its_stale_answers_are_dropped() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    state = ann.last(p.State)
    bot = next(pl["player"] for pl in state.players if pl.get("bot") == "easy")
    assert state.turn == me(ann) and not server.thinks()
    ann.send("move", move={"x": 7, "y": 7})
    [job] = server.thinks()
    assert job.bot == bot and job.level == "easy" and job.request["moves"] == [[7, 7]]
    ann.send("offer", kind="takeback")  # the computer accepts: the board changes under it
    assert ann.last(p.AnswerEvent).accept
    hub = server.hub
    server.execute(hub.computer_move(job, {"x": 8, "y": 8}, T0 + 1))
    assert ann.last(p.State).view["moves"] == []  # the stale answer was not played
    ann.send("move", move={"x": 3, "y": 3})
    fresh = server.thinks()[-1]
    assert fresh.request["moves"] == [[3, 3]]
    server.execute(hub.computer_move(fresh, {"x": 4, "y": 4}, T0 + 2))
    moved = ann.last(p.Moved)
    assert moved.by == bot and moved.view["moves"] == [[3, 3], [4, 4]] and moved.turn == me(ann)
    server.execute(hub.computer_move(fresh, {"x": 5, "y": 5}, T0 + 3))  # answered already
    assert ann.last(p.Moved).view["moves"] == [[3, 3], [4, 4]]


def test_the_computer_declines_draws() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", options={"ai": "easy"})
    ann.send("move", move={"x": 7, "y": 7})
    job = server.thinks()[-1]
    server.execute(server.hub.computer_move(job, {"x": 8, "y": 8}, T0 + 1))
    ann.send("offer", kind="draw")
    assert not ann.last(p.AnswerEvent).accept and ann.last(p.Moved).turn == me(ann)


def test_game_seeds_derive_from_the_room_seed() -> None:
    assert game_seed(42, 0) == game_seed(42, 0)
    assert len({game_seed(42, n) for n in range(100)}) == 100
    assert game_seed(42, 0) != game_seed(43, 0)
    assert all(0 <= game_seed(s, 0) < 2**63 for s in (0, 1, 2**62))


def test_a_linkmatch_wrong_link_is_refused_and_counted_for_its_racer() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send(
        "create-room",
        game="linkmatch",
        options={"width": 4, "height": 4, "kinds": 2, "countdown": 0},
    )
    ann.send("start", T0 + 1)
    ann.send("move", T0 + 2, move={"action": "link", "a": [0, 0], "b": [0, 0]})
    assert ann.errors()[-1].code == "illegal-move"
    ann.send("sync", T0 + 3)
    assert ann.last(p.State).view["wrong"] == 1


def test_think_effects_name_a_game_with_a_computer() -> None:
    job = Think("ROOM01", "p1", "gomoku", "easy", {"moves": [], "size": 15, "rule": "freestyle"})
    from gridhall.server.io.computer import think

    move = think(job.game, job.request, job.level, 0.1)
    assert set(move) == {"x", "y"} and 0 <= move["x"] < 15 and 0 <= move["y"] < 15
