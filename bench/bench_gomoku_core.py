"""Nodes per second of the hard engine: the compiled core (ai/_core.c) vs pure Python.

    nice -n 10 .venv/bin/python bench/bench_gomoku_core.py [--budget 1] [--size 15]

The same quiet and sharp positions (freestyle) are searched by both paths of
`hard.choose` on the CPU clock (so the machine's load does not enter), one
after the other in one run; it prints per position the nodes, depth and
nodes/s of each, then the totals and the ratio. GRIDHALL_PURE_PYTHON is what
selects the Python path (see ai/core.py).

Measured 2026-11-24 on the shared 2-core machine (load about 10), --budget 1:

    nice -n 10 .venv/bin/python bench/bench_gomoku_core.py
    C core 781,767 nodes/s, Python 13,694 nodes/s: 57.1x
    (depth 9-10 in the C core where Python completes 5-6, in the same CPU second)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridhall.server.games.gomoku.ai import clock, core, hard, warm_up  # noqa: E402

POSITIONS: list[list[tuple[int, int]]] = [
    [(7, 7), (8, 8)],
    [(7, 7), (8, 7), (6, 8), (8, 9)],
    [(7, 7), (7, 8), (8, 8), (6, 6), (9, 9), (10, 10), (8, 6)],
    [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9), (6, 6), (9, 9), (10, 8)],
    [(7, 7), (8, 6), (6, 8), (8, 8), (8, 7), (6, 7), (9, 6), (5, 8), (7, 9), (7, 6)],
]
"""Openings and middle games, quiet and sharp; the side to move varies."""


def run(pure: bool, budget: float, size: int) -> tuple[int, float]:
    """Search every position on one path: (total nodes, total CPU seconds)."""
    if pure:
        os.environ[core.ENV] = "1"
    else:
        os.environ.pop(core.ENV, None)
    label = "python" if pure else "C core"
    nodes, seconds = 0, 0.0
    off = (size - 15) // 2
    for moves in POSITIONS:
        moves = [(x + off, y + off) for x, y in moves]
        st = hard.Stats()
        move = hard.choose(moves, size, "freestyle", budget, st)
        nodes += st.nodes
        seconds += st.seconds
        rate = st.nodes / max(st.seconds, 1e-9)
        print(
            f"{label:7} {len(moves):2} stones: {move!s:9} {st.reason:12} depth {st.depth:2} "
            f"{st.nodes:9,} nodes {st.seconds:5.2f} s {rate:11,.0f} nodes/s"
        )
    return nodes, seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--budget", type=float, default=1.0, help="seconds (CPU) per move")
    ap.add_argument("--size", type=int, default=15)
    args = ap.parse_args()
    if not core.built():
        sys.exit("the C core is not built (pip install -e . with a C compiler)")
    clock.use("cpu")
    os.environ[core.ENV] = "1"
    warm_up(("freestyle",))  # the Python engine's lazy tables, off the clock
    c_nodes, c_secs = run(False, args.budget, args.size)
    p_nodes, p_secs = run(True, args.budget, args.size)
    c_rate, p_rate = c_nodes / max(c_secs, 1e-9), p_nodes / max(p_secs, 1e-9)
    print(f"C core {c_rate:,.0f} nodes/s, Python {p_rate:,.0f} nodes/s: {c_rate / p_rate:.1f}x")


if __name__ == "__main__":
    main()
