"""`gridhall-pbrain`: the hard Gomoku engine as a Piskvork (Gomocup) brain.

The manager talks over stdin/stdout, one command per line; every answer is
flushed at once. Supported: START, RECTSTART (square only), RESTART, BEGIN,
TURN, BOARD ... DONE, TAKEBACK, INFO, ABOUT, END; anything else gets UNKNOWN.
The thinking time per move is taken from INFO timeout_turn and time_left
(milliseconds), with a safety margin for process and pipe overhead.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from gridhall.server.games.gomoku.ai import hard
from gridhall.server.games.gomoku.ai.position import Position
from gridhall.server.games.gomoku.renju import BLACK, WHITE

ABOUT = 'name="gridhall", version="0.1.0", author="gridhall team", country="LAN"'
MAX_SIZE = 20
MIN_SIZE = 5


class Brain:
    """Protocol state: board stones (own / opponent), rule and clock settings."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.size = 0
        self.own: list[tuple[int, int]] = []
        self.opp: list[tuple[int, int]] = []
        self.rule = "freestyle"
        self.timeout_turn = 5000
        self.time_left: int | None = None
        self.board_lines: list[str] | None = None

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    # time --------------------------------------------------------------------
    def budget(self) -> float:
        """Seconds to think: most of timeout_turn (the engine stops at hard.CAP of
        it, the rest covers the pipe), and a slice of the match clock."""
        turn = self.timeout_turn / 1000 if self.timeout_turn > 0 else 0.05
        seconds = turn * 0.9 - 0.03
        if self.time_left is not None:
            seconds = min(seconds, self.time_left / 1000 / 15)
        return max(0.02, seconds)

    # commands ------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one line; False after END."""
        if self.board_lines is not None:
            if line.upper() == "DONE":
                self._board_done()
            else:
                self.board_lines.append(line)
            return True
        word, _, arg = line.partition(" ")
        cmd = word.upper()
        arg = arg.strip()
        if cmd == "END":
            return False
        handler = {
            "START": self._start,
            "RECTSTART": self._rectstart,
            "RESTART": self._restart,
            "BEGIN": self._begin,
            "TURN": self._turn,
            "BOARD": self._board,
            "TAKEBACK": self._takeback,
            "INFO": self._info,
            "ABOUT": self._about,
        }.get(cmd)
        if handler is None:
            self.send(f"UNKNOWN command {word!r}")
        else:
            handler(arg)
        return True

    def _start(self, arg: str) -> None:
        try:
            size = int(arg)
        except ValueError:
            self.send("ERROR START needs a board size")
            return
        if not MIN_SIZE <= size <= MAX_SIZE:
            self.send(f"ERROR board size {size} unsupported (use {MIN_SIZE}..{MAX_SIZE})")
            return
        self.size = size
        self.own, self.opp = [], []
        self.send("OK")

    def _rectstart(self, arg: str) -> None:
        try:
            w, h = (int(v) for v in arg.split(","))
        except ValueError:
            self.send("ERROR RECTSTART needs width,height")
            return
        if w != h:
            self.send("ERROR rectangular boards are not supported")
            return
        self._start(str(w))

    def _restart(self, _arg: str) -> None:
        if not self.size:
            self.send("ERROR no board: send START first")
            return
        self.own, self.opp = [], []
        self.send("OK")

    def _point(self, text: str) -> tuple[int, int] | None:
        try:
            x, y = (int(v) for v in text.split(",")[:2])
        except ValueError:
            return None
        if not (0 <= x < self.size and 0 <= y < self.size):
            return None
        return x, y

    def _free(self, p: tuple[int, int]) -> bool:
        return p not in self.own and p not in self.opp

    def _begin(self, _arg: str) -> None:
        if not self.size:
            self.send("ERROR no board: send START first")
            return
        self._play()

    def _turn(self, arg: str) -> None:
        p = self._point(arg)
        if not self.size or p is None or not self._free(p):
            self.send(f"ERROR bad move {arg!r}")
            return
        self.opp.append(p)
        self._play()

    def _board(self, _arg: str) -> None:
        self.board_lines = []

    def _board_done(self) -> None:
        lines, self.board_lines = self.board_lines or [], None
        self.own, self.opp = [], []
        for line in lines:
            parts = line.split(",")
            p = self._point(line)
            if p is None or len(parts) < 3 or not self._free(p):
                self.send(f"ERROR bad BOARD line {line!r}")
                return
            (self.own if parts[2].strip() == "1" else self.opp).append(p)
        self._play()

    def _takeback(self, arg: str) -> None:
        p = self._point(arg)
        for stones in (self.own, self.opp):
            if p in stones:
                stones.remove(p)
                self.send("OK")
                return
        self.send(f"ERROR no stone at {arg!r}")

    def _info(self, arg: str) -> None:
        key, _, value = arg.partition(" ")
        key = key.lower()
        try:
            number = int(value.strip())
        except ValueError:
            return  # e.g. INFO folder; nothing to answer
        if key == "timeout_turn":
            self.timeout_turn = number
        elif key == "time_left":
            self.time_left = number
        elif key == "rule":
            self.rule = "renju" if number & 4 else "standard" if number & 1 else "freestyle"

    def _about(self, _arg: str) -> None:
        self.send(ABOUT)

    # thinking ------------------------------------------------------------------
    def _play(self) -> None:
        start = time.perf_counter()
        if len(self.own) + len(self.opp) >= self.size * self.size:
            self.send("ERROR the board is full")
            return
        # Colours follow from the counts: with equal counts we are black.
        me = BLACK if len(self.own) == len(self.opp) else WHITE
        black, white = (self.own, self.opp) if me == BLACK else (self.opp, self.own)
        pos = Position(self.size, self.rule, [], (black, white, me))
        stats = hard.Stats()
        x, y = hard.choose_in(pos, self.budget(), start, stats)
        self.own.append((x, y))
        self.send(f"MESSAGE depth {stats.depth} nodes {stats.nodes} ({stats.reason})")
        self.send(f"{x},{y}")


def run(inp: TextIO, out: TextIO) -> None:
    brain = Brain(out)
    for raw in iter(inp.readline, ""):
        line = raw.strip()
        if line and not brain.handle(line):
            break


def main(argv: list[str] | None = None) -> None:
    """Speak the brain protocol on stdin/stdout; ``--help`` only prints usage (a person
    trying the command should not be left at a silent prompt)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="gridhall-pbrain",
        description="gridhall's hard Gomoku engine as a Gomocup (Piskvork) brain: a "
        "tournament manager, or gridhall-bridge, starts it and talks to it on stdin/stdout "
        "(START 15, BEGIN, TURN x,y, BOARD ... DONE, INFO, END).",
        epilog="To seat it in a gridhall room: gridhall-bridge --engine gridhall-pbrain "
        "--server HOST:PORT.",
    )
    parser.parse_args(argv)
    if sys.stdin.isatty():
        print(
            "gridhall-pbrain: waiting for a Gomocup manager's commands on stdin "
            "(try START 15, then BEGIN; END quits; --help explains)",
            file=sys.stderr,
        )
    run(sys.stdin, sys.stdout)


if __name__ == "__main__":
    main()
