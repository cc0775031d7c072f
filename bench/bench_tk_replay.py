"""The Tk replay window on a big co-op Minesweeper field: what stepping and jumping cost.

A W x W field (default 100) is opened in N steps (default 400), each step opening
random cells, with two players' colour frames. Measured: loading the replay, a jump
to the end, 20 single steps back, and a jump to the start, against the baseline of
the same window drawing every jump cell by cell (the live board's way, which is
right for one move's few cells and not for a jump over thousands).

Needs a display: ``xvfb-run -a .venv/bin/python bench/bench_tk_replay.py [--size 100]``.
"""

from __future__ import annotations

import argparse
import random
import time
import tkinter as tk
from collections.abc import Callable
from typing import Any

from gridhall.client.tk import theme
from gridhall.client.tk.answers import Answers
from gridhall.client.tk.boards import minesweeper as mines_board
from gridhall.client.tk.replay import ReplayWindow

PLAYERS = [
    {"player": "a", "name": "ann", "seat": 0, "color": "#ff0000"},
    {"player": "b", "name": "bob", "seat": 1, "color": "#0000ff"},
]


def answer(size: int, steps: int, seed: int = 1) -> dict[str, Any]:
    """A replay answer: ``steps`` frames, each opening ``size * size / (2 * steps)`` cells."""
    rng = random.Random(seed)
    rows = [["#"] * size for _ in range(size)]
    start = {"width": size, "height": size, "mines": size, "rows": ["".join(r) for r in rows]}
    out = []
    per = max(1, size * size // (2 * steps))
    for k in range(steps):
        for _ in range(per):
            rows[rng.randrange(size)][rng.randrange(size)] = "0"
        out.append(
            {
                "t": float(k),
                "by": "ab"[k % 2],
                "delta": {},
                "view": {**start, "rows": ["".join(r) for r in rows]},
            }
        )
    return {
        "type": "replay",
        "game_id": 1,
        "game": "minesweeper",
        "options": {},
        "players": PLAYERS,
        "result": {},
        "start": start,
        "steps": out,
        "re": 1,
    }


def timed(root: tk.Tk, run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    root.update()
    return time.perf_counter() - start


def measure(root: tk.Tk, data: dict[str, Any]) -> dict[str, float]:
    answers = Answers(lambda _request, then: then(1))
    window = ReplayWindow(root, answers, "ws://127.0.0.1:8765/", 1)
    root.update()
    out = {"load": timed(root, lambda: answers.take(data))}
    out["jump to the end"] = timed(root, window.to_end)

    def back() -> None:
        for _ in range(20):
            window.back()
            root.update()

    out["20 steps back"] = timed(root, back)
    out["jump to the start"] = timed(root, lambda: window.go(0))
    window.destroy()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    root = tk.Tk(className="gridhall")
    theme.apply(root)
    root.withdraw()
    data = answer(args.size, args.steps)
    now = measure(root, data)
    keep = mines_board.REPAINT_OVER
    mines_board.REPAINT_OVER = 10**9  # baseline: every jump cell by cell
    try:
        base = measure(root, data)
    finally:
        mines_board.REPAINT_OVER = keep
    print(
        f"Minesweeper {args.size}x{args.size}, {args.steps} steps "
        f"(seconds; baseline: jumps drawn cell by cell)"
    )
    for key, value in now.items():
        ratio = base[key] / value if value else float("inf")
        print(f"  {key:18} {value:7.2f}   baseline {base[key]:7.2f}   x{ratio:.1f} faster")
    root.destroy()


if __name__ == "__main__":
    main()
