"""Heavy work leaves the room as a job, one per room, and comes back as an input."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from gridhall import protocol as p
from gridhall.server.core.effects import Outbox, Work
from gridhall.server.core.room import BUSY_RETRY
from gridhall.server.games.jobs import BUSY, Job, OutOfTime
from gridhall.server.games.linkmatch.game import LinkMatchGame
from gridhall.server.games.linkmatch.jobs import make_board, shuffle_rows
from gridhall.server.games.linkmatch.spec import SPEC as LINKMATCH
from gridhall.server.games.minesweeper import jobs as ms_jobs
from gridhall.server.games.minesweeper.game import MinesweeperGame, from_layout, replay
from gridhall.server.games.minesweeper.options import parse_options
from gridhall.server.io.store.store import Store
from gridhall.server.io.workers.job_runner import run_job
from tests.server.helpers import T0, Client, FakeServer, connect

BIG = {"width": 60, "height": 40, "mines": 400}
WALLED = [(3, 0), (3, 1), (4, 1)]
"""Mines that wall off the safe corner (4, 0): a reveal elsewhere opens the rest."""


def minesweeper_pair(server: FakeServer, **options: Any) -> tuple[Client, Client, str]:
    ann, bob = connect(server, "Ann"), connect(server, "Bob")
    ann.send("create-room", game="minesweeper", options=options or BIG)
    code = ann.last(p.Joined).room
    bob.send("join-room", room=code)
    return ann, bob, code


def jobs_of(server: FakeServer, kind: str) -> list[Work]:
    return [w for w in server.work if w.job.kind == kind]


def test_the_first_reveal_places_the_mines_in_a_job_and_applies_them_when_answered() -> None:
    server = FakeServer(hold_work=True)
    ann, bob, _ = minesweeper_pair(server)
    ann.send("move", move={"action": "reveal", "x": 30, "y": 20})
    [work] = jobs_of(server, "layout")
    assert not [m for m in bob.received() if isinstance(m, p.Moved)]
    server.finish_work()
    moved = bob.last(p.Moved)
    assert moved.move == {"action": "reveal", "x": 30, "y": 20}
    assert moved.view["rows"][20][30] != "#"
    assert work.job.exclusive


def test_every_move_waits_with_server_busy_while_the_mines_are_placed() -> None:
    server = FakeServer(hold_work=True)
    ann, bob, _ = minesweeper_pair(server)
    ann.send("move", move={"action": "reveal", "x": 30, "y": 20})
    rid = bob.send("move", move={"action": "mark", "x": 0, "y": 0, "mark": "flag"})
    [error] = bob.errors()
    assert error.code == "server-busy" and error.re == rid and error.retry_after == BUSY_RETRY
    server.finish_work()
    assert bob.last(p.Moved).view["rows"][0][0] != "F"  # the refused flag changed nothing


def test_a_hint_is_worked_out_in_a_job_and_shared_when_answered() -> None:
    server = FakeServer()
    ann, bob, _ = minesweeper_pair(server)
    ann.send("move", move={"action": "reveal", "x": 30, "y": 20})
    server.hold_work = True
    ann.send("move", move={"action": "hint"})
    [work] = jobs_of(server, "hint")
    assert work.job.budget is not None and not work.job.exclusive
    server.finish_work()
    hint = bob.last(p.Moved).view["hint"]
    assert set(hint) == {"x", "y", "safe", "risk"}


def test_a_second_hint_while_one_is_out_is_busy_but_other_moves_go_on() -> None:
    server = FakeServer()
    ann, bob, _ = minesweeper_pair(server)
    ann.send("move", move={"action": "reveal", "x": 30, "y": 20})
    server.hold_work = True
    ann.send("move", move={"action": "hint"})
    rid = bob.send("move", move={"action": "hint"})
    assert [(e.code, e.re) for e in bob.errors()] == [("server-busy", rid)]
    assert bob.errors()[0].retry_after == BUSY_RETRY
    bob.send("move", move={"action": "mark", "x": 0, "y": 0, "mark": "question"})
    assert bob.last(p.Moved).view["rows"][0][0] == "?"
    assert len(server.work) == 1  # never a queue: one job per room
    server.finish_work()
    assert ann.last(p.Moved).view["hint"] is not None


def test_a_job_the_pool_had_no_room_for_is_refused_with_retry_after() -> None:
    server = FakeServer()
    ann, _, _ = minesweeper_pair(server)
    ann.send("move", move={"action": "reveal", "x": 30, "y": 20})
    server.hold_work = True
    rid = ann.send("move", move={"action": "hint"})
    server.finish_work(answer=BUSY)
    [error] = ann.errors()
    assert error.code == "server-busy" and error.re == rid and error.retry_after
    ann.send("move", move={"action": "hint"})  # the room is free again
    assert len(jobs_of(server, "hint")) == 1


def test_a_hint_that_found_nothing_says_so_and_costs_no_time() -> None:
    game = from_layout(WALLED, (0, 4), width=5, height=5, players=["a"])
    played = game.apply("a", {"action": "hint"}, 1.0, prepared={"none": "out of budget"})
    assert game.view(None)["hint"] is None and game.penalty == 0
    assert played.notices == [{"type": "hint", "found": False, "why": "out of budget"}]
    assert game.record()["actions"][-1][1] == "hint-none"
    assert replay(game.record()).penalty == 0  # a replay does not ask again


def test_a_hint_for_a_cell_revealed_meanwhile_is_not_shown() -> None:
    game = from_layout(WALLED, (0, 4), width=5, height=5, players=["a"])
    stale = {"x": 2, "y": 2, "safe": True, "risk": 0.0}
    played = game.apply("a", {"action": "hint"}, 1.0, prepared=stale)
    assert game.view(None)["hint"] is None
    assert played.notices[0]["found"] is False


def test_a_hint_out_of_time_answers_that_it_found_no_certain_cell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def slow(rows: list[str], mines: int, avoid: object = ()) -> None:
        raise OutOfTime

    monkeypatch.setattr(ms_jobs, "hint", slow)
    found = ms_jobs.find_hint(["1#", "##"], 1, [])
    assert "none" in found and "budget" in found["none"]


def _forever() -> None:
    while True:
        pass


def _broken() -> None:
    raise RuntimeError("bug")


def test_run_job_stops_a_job_at_its_budget_and_reports_failures() -> None:
    assert run_job(Job(_forever, budget=0.05)) == {"error": "out-of-time"}
    assert run_job(Job(_broken))["error"] == "failed"
    assert run_job(Job(sorted, ([3, 1, 2],))) == {"value": [1, 2, 3]}


def test_a_budget_of_cpu_time_is_not_spent_by_waiting_for_a_cpu() -> None:
    """Issue 40: an analysis answered out-of-time on a busy machine, its worker waiting
    for a CPU while the wall clock ran. Sleeping stands for that wait (no CPU used)."""
    wait = Job(time.sleep, (0.3,), budget=0.1, clock="cpu")
    assert run_job(wait) == {"value": None}
    assert run_job(Job(time.sleep, (0.3,), budget=0.1)) == {"error": "out-of-time"}
    assert run_job(Job(_forever, budget=0.05, clock="cpu")) == {"error": "out-of-time"}


def test_minesweeper_jobs_are_deterministic_and_match_the_inline_game() -> None:
    options = parse_options({"width": 30, "height": 16, "mines": 99, "no_guess": True})
    job = ms_jobs.layout_job(options, 8 * 30 + 15, 77, bytes(30 * 16))
    answer = run_job(job)["value"]
    assert answer == run_job(job)["value"]
    prepared = MinesweeperGame(options, ["a"], 77, 0.0)
    inline = MinesweeperGame(options, ["a"], 77, 0.0)
    move = {"action": "reveal", "x": 15, "y": 8}
    prepared.apply("a", move, 1.0, prepared=answer)
    inline.apply("a", move, 1.0)
    assert prepared.view(None) == inline.view(None)
    assert prepared.record() == inline.record()


def test_a_linkmatch_board_is_made_in_a_job_before_the_race_starts() -> None:
    server = FakeServer(hold_work=True)
    ann = connect(server, "Ann")
    ann.send("create-room", game="linkmatch", options={"width": 6, "height": 4, "countdown": 0})
    ann.clear()
    ann.send("start", T0 + 1)
    [work] = jobs_of(server, "board")
    assert ann.received() == []
    rid = ann.send("start", T0 + 1)
    assert [(e.code, e.re) for e in ann.errors()] == [("server-busy", rid)]
    server.finish_work()
    state = ann.last(p.State)
    assert state.status == "playing" and state.view["rows"] == run_job(work.job)["value"]


def test_a_linkmatch_shuffle_is_a_job_and_one_for_a_changed_board_is_refused() -> None:
    options = LINKMATCH.parse_options({"width": 6, "height": 4, "countdown": 0})
    game = LinkMatchGame(options, ["a"], 5, 0.0)
    job = game.work_for("a", {"action": "shuffle"}, 1.0)
    assert job is not None and job.kind == "shuffle"
    answer = run_job(job)["value"]
    stale = {**answer, "from": [[0] * 6 for _ in range(4)]}
    with pytest.raises(Exception, match="changed"):
        game.apply("a", {"action": "shuffle"}, 1.0, prepared=stale)
    game.apply("a", {"action": "shuffle"}, 1.0, prepared=answer)
    assert game.view("a")["rows"] == answer["rows"]
    assert game.work_for("a", {"action": "hint"}, 1.0) is None  # hints are cheap


def test_linkmatch_jobs_are_deterministic_from_their_seed() -> None:
    board = make_board(30, 16, 36, "down", 9)
    assert board == make_board(30, 16, 36, "down", 9)
    assert shuffle_rows(board, "down", "9/a/0") == shuffle_rows(board, "down", "9/a/0")


def test_a_stale_answer_for_a_room_is_ignored() -> None:
    server = FakeServer(hold_work=True)
    _, _, code = minesweeper_pair(server)
    room = server.hub.lobby.rooms[code]
    out = Outbox()
    room.work_done(out, 99, {"value": {}}, T0)
    assert out.effects == [] and room.pending is None


def _restart(path: Path, now: float) -> FakeServer:
    server = FakeServer(store=Store(path), hold_work=True)
    server.restore(now, now - 1)
    return server


def test_answers_of_jobs_are_journalled_and_a_restart_replays_them(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path))
    ann, _, code = minesweeper_pair(server)
    ann.send("move", T0 + 1, move={"action": "reveal", "x": 30, "y": 20})
    ann.send("move", T0 + 2, move={"action": "hint"})
    rows, hint = ann.last(p.Moved).view["rows"], ann.last(p.Moved).view["hint"]
    server2 = _restart(path, T0 + 50)
    assert not server2.work  # nothing was out: the answers came from the journal
    again = Client(server2, T0 + 51)
    again.send("hello", T0 + 51, protocol=1, name="Ann", token=ann.last(p.Welcome).token)
    view = again.last(p.State).view
    assert again.last(p.State).room == code and view["rows"] == rows and view["hint"] == hint


def test_a_job_out_when_the_server_stopped_is_asked_for_again(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    server = FakeServer(store=Store(path), hold_work=True)
    ann, _, code = minesweeper_pair(server)
    ann.send("move", T0 + 1, move={"action": "reveal", "x": 30, "y": 20})
    [lost] = server.work  # the server stops before the answer comes
    server2 = _restart(path, T0 + 50)
    [again] = server2.work
    assert (again.room, again.ticket, again.job.args) == (code, lost.ticket, lost.job.args)
    server2.finish_work(T0 + 51)
    back = Client(server2, T0 + 52)
    back.send("hello", T0 + 52, protocol=1, name="Ann", token=ann.last(p.Welcome).token)
    assert back.last(p.State).view["rows"][20][30] != "#"


def test_a_job_is_charged_to_whoever_asked_and_a_computer_to_the_rooms_creator() -> None:
    server = FakeServer(hold_work=True)
    owner = connect(server, "Owner", peer="10.0.0.4")
    owner.send("create-room", game="gomoku", password="secret")
    room = owner.last(p.Joined).room
    guest = connect(server, "Guest", peer="10.0.0.3")
    guest.send("join-room", room=room, password="secret")
    [work] = jobs_of(server, "password")
    assert work.address == "10.0.0.3"
    player = connect(server, "Player", peer="10.0.0.2")
    player.send("create-room", game="gomoku", options={"ai": "easy"})
    player.send("move", move={"x": 7, "y": 7})
    [think] = server.thinks()
    assert think.address == "10.0.0.2"


async def test_a_worker_that_dies_does_not_fail_every_later_job() -> None:
    """A worker process killed (out of memory, a crash) breaks a process pool for good;
    the server's pool starts new workers, so rooms and computers get answers again."""
    import asyncio
    import operator
    import os

    from gridhall.server.core.scheduler import Owner
    from gridhall.server.io.workers.work import WorkPool

    pool = WorkPool(1, 4)
    owner = Owner("10.0.0.2", "ROOM")
    loop = asyncio.get_running_loop()
    try:
        died: asyncio.Future[BaseException] = loop.create_future()
        pool.submit(os._exit, 3, owner=owner, done=lambda _: None, failed=died.set_result)
        await died
        answer: asyncio.Future[Any] = loop.create_future()
        pool.submit(
            operator.add, 2, 3, owner=owner, done=answer.set_result, failed=answer.set_exception
        )
        assert await answer == 5
    finally:
        pool.close()


async def test_a_computer_whose_worker_died_is_asked_again() -> None:
    """Without a second ask the computer's seat would wait for a move forever."""
    import asyncio
    from concurrent.futures.process import BrokenProcessPool

    from gridhall.server.core.effects import Think
    from gridhall.server.io.workers.computer import Computers

    loop = asyncio.get_running_loop()

    class DyingOnce:
        """A pool whose first computer job fails as when its worker dies."""

        workers = 1
        thinks = 0
        failure_handled: asyncio.Future[None] = loop.create_future()

        def submit(self, fn: Any, *args: Any, done: Any, failed: Any, **how: Any) -> bool:
            if fn.__name__ == "think":
                self.thinks += 1
                if self.thinks == 1:
                    loop.call_soon(self.fail, failed)
            return True

        def fail(self, failed: Any) -> None:
            failed(BrokenProcessPool("a worker died"))
            self.failure_handled.set_result(None)

    pool = DyingOnce()
    computers = Computers(pool)  # type: ignore[arg-type]
    computers.schedule(Think("ROOM", "pbot", "gomoku", "easy", {"n": 1}), lambda job, move: None)
    await pool.failure_handled
    assert pool.thinks == 2
