"""A referee for Gomoku engine matches: each side thinks in its own worker process.

The harness, not the engines, keeps the clock: a side that has not answered
within its budget plus `GRACE` seconds is killed, a fresh worker is started off
the clock, and the engine's own quick fallback move is played for it (counted as
an overrun). So no engine can win by thinking longer than the other, and our
engine's worst move time is measured from outside, pipe and all.

Games are written as Gomocup-style .psq records (1-based x,y,milliseconds per
move) so that losses can be replayed and studied.
"""

from __future__ import annotations

import multiprocessing as mp
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
)
"""Black at the centre, white near it: one per game pair, so the games of a match differ."""


def _make_engine(kind: str, budget: float) -> Any:
    if kind.startswith("gridhall-"):
        return _Ours(kind.removeprefix("gridhall-"), budget)
    from gomoku_engines import ENGINES  # bench/ is on sys.path in the worker too

    return ENGINES[kind].factory(budget)


class _Ours:
    """Our engine through the same entry point the server's process pool uses."""

    def __init__(self, level: str, budget: float) -> None:
        from gridhall.server.games.gomoku.ai import choose_move

        self.choose = choose_move
        self.level = level
        self.budget = budget

    def move(self, moves: list[Point]) -> Point:
        return self.choose(moves, SIZE, "freestyle", self.level, self.budget)

    def fallback(self, moves: list[Point]) -> Point:
        return self.choose(moves, SIZE, "freestyle", "easy", self.budget)


def _worker(conn: Connection, kind: str, budget: float, path: list[str]) -> None:
    import sys

    sys.path[:0] = path
    engine = _make_engine(kind, budget)
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            return
        what, moves = msg
        try:
            move = engine.move(moves) if what == "move" else engine.fallback(moves)
            conn.send(("ok", (int(move[0]), int(move[1]))))
        except Exception as exc:  # an engine bug loses its game; report it, do not hang
            conn.send(("error", f"{type(exc).__name__}: {exc}"))


class Side:
    """One engine in its worker process, with the harness's clock on every move."""

    def __init__(self, kind: str, budget: float) -> None:
        self.kind = kind
        self.budget = budget
        self.proc: Any = None
        self.conn: Connection | None = None
        self._start()

    def _start(self) -> None:
        import sys

        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        self.proc = ctx.Process(
            target=_worker, args=(child, self.kind, self.budget, list(sys.path)), daemon=True
        )
        self.proc.start()
        self.conn = parent
        if not parent.poll(120) or parent.recv() != "ready":
            raise RuntimeError(f"{self.kind}: worker did not start")

    def ask(self, moves: list[Point]) -> tuple[Point | None, float, str]:
        """(move or None on an engine error, seconds, 'ok' | 'overrun' | error text)."""
        assert self.conn is not None
        start = time.perf_counter()
        self.conn.send(("move", list(moves)))
        if self.conn.poll(self.budget + GRACE):
            status, value = self.conn.recv()
            took = time.perf_counter() - start
            if status == "ok":
                return value, took, "ok"
            return None, took, value
        took = time.perf_counter() - start
        self.close()
        self._start()
        assert self.conn is not None
        self.conn.send(("fallback", list(moves)))
        status, value = self.conn.recv()
        return (value if status == "ok" else None), took, "overrun"

    def close(self) -> None:
        if self.proc is not None and self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.proc = None


def five_at(stones: set[Point], p: Point) -> bool:
    """Freestyle: five or more in a row through p."""
    x, y = p
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            k = 1
            while (x + s * k * dx, y + s * k * dy) in stones:
                n += 1
                k += 1
        if n >= 5:
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
    g = Game(black.kind, white.kind, opening)
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
