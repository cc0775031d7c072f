"""A referee for Gomoku engine matches: each side thinks in its own worker process.

The harness, not the engines, keeps the clock: a side that has used its budget
plus `GRACE` seconds is killed, a fresh worker is started off the clock, and
the engine's own quick fallback move is played for it (counted as an overrun).
So no engine can win by thinking longer than the other, and our engine's worst
move time is measured from outside.

Two clocks. "cpu" (the default) charges each move the CPU time the worker
used, read from /proc while it thinks: on a shared machine a niced process may
get a tenth of a core, and then a wall-clock second is a tenth of a second of
thought that the scheduler hands out unevenly. Engines that keep time
themselves are told to read CPU time too (ours through `clock.use("cpu")`,
pygomoku's MCTS by its clock). "wall" charges wall time, pipe and all.

Games are written as Gomocup-style .psq records (1-based x,y,milliseconds per
move) so that losses can be replayed and studied.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

Point = tuple[int, int]
SIZE = 15
GRACE = 0.25
"""Seconds past the budget before the harness takes the move away: pipe, process
wake-up and scheduler latency on a loaded, shared machine (runs are niced)."""

OPENINGS: tuple[tuple[Point, ...], ...] = (
    ((7, 7), (8, 8)),
    ((7, 7), (8, 7)),
    ((7, 7), (6, 8)),
    ((7, 7), (7, 6)),
    ((7, 7), (9, 8)),
    ((7, 7), (8, 5)),
    ((7, 7), (6, 6)),
    ((7, 7), (9, 7)),
    ((7, 7), (7, 8)),
    ((7, 7), (6, 7)),
    ((7, 7), (8, 6)),
    ((7, 7), (6, 9)),
    ((7, 7), (7, 9)),
    ((7, 7), (5, 6)),
    ((7, 7), (9, 6)),
)
"""Black at the centre, white near it: one per game pair, so the games of a match differ
(15, as Gomocup-style matches use: white on each of the eight neighbours of the centre,
and seven a knight's move or two points away)."""


def _make_engine(kind: str, budget: float, clock_kind: str) -> Any:
    if kind.startswith("gridhall-"):
        from gridhall.server.games.gomoku.ai import clock

        clock.use(clock_kind)
        return _Ours(kind.removeprefix("gridhall-"), budget)
    import gomoku_engines  # bench/ is on sys.path in the worker too

    gomoku_engines.CLOCK = clock_kind
    return gomoku_engines.engine_spec(kind).factory(budget)


class _Ours:
    """Our engine through the same entry point the server's process pool uses."""

    def __init__(self, level: str, budget: float) -> None:
        from gridhall.server.games.gomoku.ai import choose_move, warm_up

        warm_up(("freestyle",))  # like the others' imports and model loads: off the clock
        self.choose = choose_move
        self.level = level
        self.budget = budget
        self.stats: tuple[int, int, float, str] | None = None
        """The last move's (depth, nodes, seconds, reason), for the bench's report."""

    def move(self, moves: list[Point]) -> Point:
        if self.level != "hard":
            return self.choose(moves, SIZE, "freestyle", self.level, self.budget)
        from gridhall.server.games.gomoku.ai import hard

        st = hard.Stats()  # what choose_move runs for "hard", with its stats kept
        move = hard.choose(moves, SIZE, "freestyle", self.budget, st)
        self.stats = (st.depth, st.nodes, st.seconds, st.reason)
        return move

    def fallback(self, moves: list[Point]) -> Point:
        return self.choose(moves, SIZE, "freestyle", "easy", self.budget)


def _worker(conn: Connection, kind: str, budget: float, clock_kind: str, path: list[str]) -> None:
    import sys

    sys.path[:0] = path
    engine = _make_engine(kind, budget, clock_kind)
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            return
        what, moves = msg
        try:
            move = engine.move(moves) if what == "move" else engine.fallback(moves)
            conn.send(("ok", (int(move[0]), int(move[1])), getattr(engine, "stats", None)))
        except Exception as exc:  # an engine bug loses its game; report it, do not hang
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process and its live descendants have used so far,
    from /proc: a pbrain opponent thinks in a child of its worker."""
    total = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / _TICKS
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo += [int(c) for c in f.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue  # a child that just exited: its time is no longer the move's
    return total


_TICKS = os.sysconf("SC_CLK_TCK")


class Side:
    """One engine in its worker process, with the harness's clock on every move."""

    def __init__(self, kind: str, budget: float, clock: str = "cpu") -> None:
        self.kind = kind
        self.budget = budget
        self.clock = clock
        self.proc: Any = None
        self.conn: Connection | None = None
        self.walls: list[float] = []
        """Wall seconds of every move asked, for the report."""
        self.stats: list[tuple[int, int, float, str]] = []
        """(depth, nodes, seconds, reason) of every move an engine reported them for."""
        self._start()

    def _start(self) -> None:
        import sys

        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker,
            args=(child, self.kind, self.budget, self.clock, list(sys.path)),
            daemon=True,
        )
        self.proc.start()
        self.conn = parent
        if not parent.poll(120) or parent.recv() != "ready":
            raise RuntimeError(f"{self.kind}: worker did not start")

    def ask(self, moves: list[Point]) -> tuple[Point | None, float, str]:
        """(move or None on an engine error, seconds charged, 'ok' | 'overrun' | error).

        On the cpu clock the seconds charged are the worker's CPU time for the
        move; a wall-clock limit far beyond the budget still stops a worker
        that the machine starves completely."""
        assert self.conn is not None and self.proc is not None
        limit = self.budget + GRACE
        start = time.perf_counter()
        cpu0 = cpu_seconds(self.proc.pid) if self.clock == "cpu" else 0.0
        self.conn.send(("move", list(moves)))
        wall_limit = limit if self.clock == "wall" else 30 * limit + 30
        used = 0.0
        while not self.conn.poll(0.02):
            wall = time.perf_counter() - start
            used = cpu_seconds(self.proc.pid) - cpu0 if self.clock == "cpu" else wall
            if used > limit or wall > wall_limit:
                break
        else:
            status, value, *extra = self.conn.recv()
            if extra and extra[0] is not None:
                self.stats.append(extra[0])
            wall = time.perf_counter() - start
            used = cpu_seconds(self.proc.pid) - cpu0 if self.clock == "cpu" else wall
            self.walls.append(wall)
            if used > limit:
                self._restart()
                return self._fallback(moves), used, "overrun"
            if status == "ok":
                return value, used, "ok"
            return None, used, value
        self.walls.append(time.perf_counter() - start)
        self._restart()
        return self._fallback(moves), used, "overrun"

    def _restart(self) -> None:
        self.close()
        self._start()

    def _fallback(self, moves: list[Point]) -> Point | None:
        assert self.conn is not None
        self.conn.send(("fallback", list(moves)))
        status, value, *_ = self.conn.recv()
        return value if status == "ok" else None

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.proc = None


def five_at(stones: set[Point], p: Point, exact: bool = False) -> bool:
    """Five in a row through p (the benches' own referee): five or more, or with
    ``exact`` five only (standard rules, and black under Renju)."""
    x, y = p
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while (x + s * k * dx, y + s * k * dy) in stones:
                n += 1
                k += 1
        if n == 5 or (n > 5 and not exact):
            return True
    return False


@dataclass
class Game:
    black: str
    white: str
    opening: tuple[Point, ...]
    moves: list[Point] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    winner: int = 0  # 1 black, 2 white, 0 draw
    reason: str = ""
    overruns: dict[int, int] = field(default_factory=lambda: {1: 0, 2: 0})


def play(black: Side, white: Side, opening: tuple[Point, ...]) -> Game:
    """One game from `opening`; ends on a five, a bad move (it loses) or a full board."""
    g = Game(f"{black.kind}@{black.budget:g}s", f"{white.kind}@{white.budget:g}s", opening)
    stones: dict[int, set[Point]] = {1: set(), 2: set()}
    for i, p in enumerate(opening):
        g.moves.append(p)
        g.times.append(0.0)
        stones[1 + i % 2].add(p)
    while len(g.moves) < SIZE * SIZE:
        colour = 1 + len(g.moves) % 2
        side = black if colour == 1 else white
        move, took, status = side.ask(g.moves)
        if status == "overrun":
            g.overruns[colour] += 1
        if move is None or move in g.moves or not all(0 <= v < SIZE for v in move):
            g.winner, g.reason = 3 - colour, f"{side.kind} bad move {move} ({status})"
            return g
        g.moves.append(move)
        g.times.append(took)
        stones[colour].add(move)
        if five_at(stones[colour], move):
            g.winner, g.reason = colour, "five"
            return g
    g.reason = "full board"
    return g


def write_psq(g: Game, path: Path) -> None:
    """Gomocup .psq: header, one `x,y,ms` line per move (1-based), then the players."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"Piskvorky {SIZE}x{SIZE}, 11:11, 0"]
    lines += [f"{x + 1},{y + 1},{round(t * 1000)}" for (x, y), t in zip(g.moves, g.times)]
    result = {0: "draw", 1: "black wins", 2: "white wins"}[g.winner]
    lines += [f"{g.black}", f"{g.white}", f"-1 {result} ({g.reason})"]
    path.write_text("\n".join(lines) + "\n")
