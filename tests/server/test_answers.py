"""Every request with an ``id`` is answered: the paths where one used to get nothing.

Each test sends a request whose answer used to be lost on a path where the room
moved on while the request waited (a job out, the room closing, a second click),
and checks the sender gets a frame with its ``re``.
"""

from __future__ import annotations

from gridhall import protocol as p
from tests.server.helpers import FakeServer, connect


def errors_for(client: object, rid: int) -> list[p.Error]:
    return [e for e in client.errors() if e.re == rid]  # type: ignore[attr-defined]


def test_a_password_guess_is_answered_when_the_room_closes_before_it_is_checked() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="gomoku", password="sesame")
    code = ann.last(p.Joined).room
    bob = connect(server, "Bob", peer="10.0.0.2")
    server.hold_work = True
    rid = bob.send("join-room", room=code, password="sesame")
    ann.send("leave-room")  # the last one in it: the room closes while the guess is out
    server.finish_work()
    [error] = errors_for(bob, rid)
    assert error.code == "no-such-room"
    assert not any(isinstance(m, p.Joined) for m in bob.received())


def test_a_move_waiting_for_its_job_is_answered_when_the_mover_leaves() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob", peer="10.0.0.2")
    ann.send("create-room", game="minesweeper", options={"preset": "beginner"})
    bob.send("join-room", room=ann.last(p.Joined).room)
    server.hold_work = True
    rid = ann.send("move", move={"action": "reveal", "x": 4, "y": 4})  # the mines: a job
    assert [w.job.kind for w in server.work] == ["layout"]
    ann.send("leave-room")
    server.finish_work()
    [error] = errors_for(ann, rid)
    assert error.code == "not-in-room"
    assert not any(isinstance(m, p.Moved) for m in bob.received())  # never played


def test_a_start_whose_board_could_not_be_made_is_refused_with_its_id() -> None:
    server = FakeServer()
    ann = connect(server, "Ann")
    ann.send("create-room", game="linkmatch", options={"width": 8, "height": 6})
    server.hold_work = True
    rid = ann.send("start")
    server.finish_work(answer={"error": "busy"})
    [error] = errors_for(ann, rid)
    assert error.code == "server-busy" and error.retry_after


def test_a_second_agree_again_is_answered() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob", peer="10.0.0.2")
    ann.send("create-room", game="gomoku")
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("resign")
    ann.send("play-again")
    rid = ann.send("agree-again")  # she already agreed by asking
    [error] = errors_for(ann, rid)
    assert error.code == "no-pending-request"
    bob.send("agree-again")
    assert ann.last(p.State).status == "playing"  # the refusal changed nothing


def test_a_second_agree_again_that_starts_a_race_is_answered_if_the_board_fails() -> None:
    server = FakeServer()
    ann, bob = connect(server, "Ann"), connect(server, "Bob", peer="10.0.0.2")
    ann.send("create-room", game="linkmatch", options={"width": 4, "height": 4, "countdown": 0})
    bob.send("join-room", room=ann.last(p.Joined).room)
    ann.send("start")
    ann.send("resign")
    bob.send("resign")
    assert ann.last(p.GameOver)
    ann.send("play-again")
    bob.send("leave-room")  # Ann alone has agreed: her second click starts the next race
    server.hold_work = True
    rid = ann.send("agree-again")
    server.finish_work(answer={"error": "busy"})
    [error] = errors_for(ann, rid)
    assert error.code == "server-busy"
