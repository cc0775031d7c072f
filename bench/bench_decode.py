"""Decode and check an incoming request: msgspec (now) against the hand-made schema
(before issue 38 item 5, kept in ``bench/decode_baseline/``), in the same run.

Run: ``nice -n 10 .venv/bin/python bench/bench_decode.py [--rounds 7] [--n 50000]``.

Each frame is decoded ``n`` times per round by each decoder in turn; the figure is the
best round's time per frame (the least disturbed on a shared machine) and the ratio
old / new. The ``move`` frames are the server's per-move path (a Gomoku stone, a
Link-match pair); the others are for comparison. A refused frame (a name too long)
takes the slow way in both.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import decode_baseline as old
import msgpack

from gridhall import protocol as p

FRAMES: dict[str, dict[str, Any]] = {
    "move (Gomoku)": {"type": "move", "move": {"x": 7, "y": 8}, "id": 41},
    "move (Link-match)": {
        "type": "move",
        "move": {"action": "link", "a": [3, 4], "b": [9, 2]},
        "id": 42,
    },
    "chat": {"type": "chat", "text": "  good game  ", "id": 43},
    "hello": {
        "type": "hello",
        "protocol": 1,
        "name": "Ann",
        "token": "t" * 32,
        "deltas": True,
        "device": {"kind": "tk", "platform": "Linux"},
        "id": 1,
    },
    "refused (name too long)": {"type": "hello", "protocol": 1, "name": "x" * 40, "id": 2},
}


def _per_frame(decode: Callable[[bytes], Any], frame: bytes, n: int) -> float:
    """Seconds per call of ``decode(frame)`` over ``n`` calls (refusals included)."""
    start = time.perf_counter()
    for _ in range(n):
        try:
            decode(frame)
        except p.ProtocolError:
            pass
    return (time.perf_counter() - start) / n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--n", type=int, default=50_000)
    args = parser.parse_args()
    print(f"{'frame':<26} {'before (us)':>11} {'after (us)':>11} {'before/after':>13}")
    for label, fields in FRAMES.items():
        frame = msgpack.packb(fields, use_bin_type=True)
        before = after = float("inf")
        for _ in range(args.rounds):  # interleaved, so load hits both alike
            before = min(before, _per_frame(old.decode, frame, args.n))
            after = min(after, _per_frame(p.decode, frame, args.n))
        print(f"{label:<26} {before * 1e6:>11.2f} {after * 1e6:>11.2f} {before / after:>12.1f}x")


if __name__ == "__main__":
    main()
