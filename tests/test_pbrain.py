"""gridhall-pbrain over a real subprocess pipe, and the bridge that seats brains."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from gridhall.server.games.gomoku.ai import choose_move
from gridhall.server.games.gomoku.piskvork.engine import PbrainEngine, PbrainError

BRAIN = [sys.executable, "-m", "gridhall.server.games.gomoku.piskvork.brain"]


class Pipe:
    """Drive the brain line by line; MESSAGE / DEBUG lines are skipped."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            BRAIN, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\r\n")  # managers end lines with CR LF
        self.proc.stdin.flush()

    def recv(self) -> str:
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            assert line, "brain exited"
            line = line.strip()
            if line and not line.startswith(("MESSAGE", "DEBUG")):
                return line

    def ask(self, *lines: str) -> str:
        self.send(*lines)
        return self.recv()

    def move(self, *lines: str) -> tuple[int, int]:
        x, y = self.ask(*lines).split(",")
        return int(x), int(y)


@pytest.fixture
def brain() -> Iterator[Pipe]:
    pipe = Pipe()
    pipe.send("INFO timeout_turn 300", "INFO timeout_match 100000")
    yield pipe
    if pipe.proc.poll() is None:
        pipe.proc.kill()
    pipe.proc.wait()


def test_start_begin_turn_play_moves(brain: Pipe) -> None:
    assert brain.ask("START 15") == "OK"
    assert brain.move("BEGIN") == (7, 7)
    x, y = brain.move("TURN 8,8")
    assert 0 <= x < 15 and 0 <= y < 15 and (x, y) not in {(7, 7), (8, 8)}


def test_board_done_answers_a_move_and_blocks_a_four(brain: Pipe) -> None:
    assert brain.ask("START 15") == "OK"
    lines = [
        "BOARD",
        "0,0,1",
        "10,3,2",
        "14,14,1",
        "10,4,2",
        "0,14,1",
        "10,5,2",
        "10,2,1",
        "10,6,2",
        "DONE",
    ]
    assert brain.move(*lines) == (10, 7)


def test_board_field_decides_our_colour(brain: Pipe) -> None:
    # field 1 marks our stones: four in a row (equal counts, so we are black) -> five
    assert brain.ask("START 15") == "OK"
    lines = [
        "BOARD",
        "7,7,2",
        "3,3,1",
        "8,8,2",
        "4,3,1",
        "0,14,2",
        "5,3,1",
        "14,0,2",
        "6,3,1",
        "DONE",
    ]
    assert brain.move(*lines) in {(2, 3), (7, 3)}


def test_takeback_removes_a_stone(brain: Pipe) -> None:
    assert brain.ask("START 15") == "OK"
    first = brain.move("BEGIN")
    assert brain.ask(f"TAKEBACK {first[0]},{first[1]}") == "OK"
    assert brain.ask("TAKEBACK 3,3").startswith("ERROR")
    assert brain.move("BEGIN") == first  # the board is empty again


def test_restart_about_unknown_and_errors(brain: Pipe) -> None:
    assert brain.ask("START 15") == "OK"
    assert 'name="gridhall"' in brain.ask("ABOUT")
    assert brain.ask("FROBNICATE 1").startswith("UNKNOWN")
    assert brain.ask("RESTART") == "OK"
    assert brain.ask("START 40").startswith("ERROR")
    assert brain.ask("RECTSTART 15,20").startswith("ERROR")
    assert brain.ask("RECTSTART 20,20") == "OK"
    assert brain.move("BEGIN") == (10, 10)
    assert brain.ask("TURN 10,10").startswith("ERROR")  # occupied


def test_info_rule_renju_keeps_black_legal(brain: Pipe) -> None:
    # we are black with a double-three point at (7,7); under renju we must not take it
    assert brain.ask("START 15") == "OK"
    brain.send("INFO rule 4")
    lines = [
        "BOARD",
        "5,7,1",
        "0,0,2",
        "6,7,1",
        "14,0,2",
        "7,5,1",
        "0,14,2",
        "7,6,1",
        "14,14,2",
        "DONE",
    ]
    assert brain.move(*lines) != (7, 7)


def test_end_exits_quietly(brain: Pipe) -> None:
    assert brain.ask("START 15") == "OK"
    brain.send("END")
    assert brain.proc.wait(timeout=5) == 0


def test_time_left_shrinks_the_budget() -> None:
    from gridhall.server.games.gomoku.piskvork.brain import Brain

    b = Brain(sys.stdout)
    b.handle("INFO timeout_turn 5000")
    assert 4.0 < b.budget() <= 4.5  # most of the turn is used, a margin is kept
    b.handle("INFO time_left 3000")
    assert b.budget() <= 0.25


async def test_bridge_round_trip_and_takeback() -> None:
    engine = await PbrainEngine.start(BRAIN, 15, "standard", 300)
    try:
        first = await engine.move([])
        assert first == (7, 7)
        reply = await engine.move([first, (8, 8)])
        assert reply not in {first, (8, 8)}
        # a takeback is just a shorter move list
        again = await engine.move([first])
        assert again != first
        four = [(0, 0), (10, 3), (14, 14), (10, 4), (0, 14), (10, 5), (10, 2), (10, 6)]
        assert await engine.move(four) == (10, 7)
    finally:
        await engine.close()
    assert engine.proc.returncode is not None


async def test_bridge_plays_a_game_against_easy() -> None:
    engine = await PbrainEngine.start(BRAIN, 15, "freestyle", 200)
    moves: list[tuple[int, int]] = []
    try:
        for _ in range(30):
            if len(moves) % 2 == 0:
                moves.append(await engine.move(moves))
            else:
                moves.append(choose_move(moves, 15, "freestyle", "easy"))
            assert len(set(moves)) == len(moves)
    finally:
        await engine.close()


async def test_bridge_reports_a_broken_engine() -> None:
    with pytest.raises(PbrainError):
        await PbrainEngine.start([sys.executable, "-c", "print('nonsense')"], 15, "standard", 200)
    with pytest.raises(PbrainError):
        await PbrainEngine.start(["/nonexistent/pbrain-none"], 15, "standard", 200)


async def test_bridge_times_out_a_silent_engine() -> None:
    silent = [sys.executable, "-c", "import sys, time\nprint('OK', flush=True)\ntime.sleep(30)"]
    engine = await PbrainEngine.start(silent, 15, "standard", 100)
    try:
        engine.timeout_turn_ms = 0  # reply_timeout becomes 2 s
        with pytest.raises(PbrainError):
            await engine.move([(7, 7)])
    finally:
        await engine.close(grace=0.2)
