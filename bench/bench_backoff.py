"""What one failure from a new address costs as the backoff tables fill (issue 41, item 7).

Link-code guesses, admin tokens and room passwords back off per address
(``server/core/fairness.py``): each wrong one from an address the table does not hold
yet adds an entry, on the event loop. An attacker with many addresses (an IPv6 /64
holds 2**64) fills the table; what matters is whether the next entry then costs more.
For tables holding 4,096 and 40,000 live (not yet forgotten) addresses this times
``Backoff.failed`` and ``PerAddress.take`` (room creations and connects per address)
for new addresses, best of several rounds, and prints the microseconds per call and
the ratio of the 40,000 cost to the 4,096 one (1.0: the size does not matter). It also
says how many entries 10,000 addresses of one IPv6 /64 made (the guess backoffs count a
/64 as one address; the buckets count addresses one by one, within ``MAX_KEYS``).
``--server-path DIR`` runs the same on another tree (a folder holding ``gridhall/``),
in a process of its own, for a before/after in one run.

    .venv/bin/python bench/bench_backoff.py [--server-path /tmp/before] [--rounds 7]
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SIZES = (4096, 40_000)
NEW = 400
"""New addresses timed per round (the table grows by 1% at the larger size)."""
T0 = 1_800_000_000.0
V6_ADDRESSES = 10_000
"""Addresses of one IPv6 /64 that fail once each (an attacker's for free)."""


def v4(n: int) -> str:
    return str(ipaddress.IPv4Address(0x0A000000 + n))


def v6(n: int) -> str:
    return str(ipaddress.IPv6Address((0x20010DB8 << 96) + n))


class Table:
    """One kind of table, made afresh for each round, hit the way its callers hit it."""

    def __init__(self, kind: str) -> None:
        from gridhall.server.core import fairness

        self.fairness = fairness
        self.kind = kind
        self.keyed: Callable[[str], str] = getattr(fairness, "address_key", str)
        self.table: Any = self.make()

    def make(self) -> Any:
        if self.kind == "Backoff.failed":
            return self.fairness.Backoff(free=5, base=1.0, cap=60.0, forget=600.0)
        return self.fairness.PerAddress(rate=10.0 / 60.0, burst=10)

    def hit(self, address: str) -> None:
        if self.kind == "Backoff.failed":  # keyed as link codes, tokens, passwords key it
            self.table.failed(self.keyed(address), T0)
        else:
            self.table.take(address, T0)

    def fill(self, size: int) -> None:
        """A new table with ``size`` live entries, put straight in (the old table's own
        way of adding them would take minutes: that is the bug)."""
        self.table = self.make()
        for n in range(size):
            if self.kind == "Backoff.failed":
                self.table._keys[v4(n)] = self.fairness._Strikes(1, T0)
            else:
                bucket = self.fairness.TokenBucket(self.table.rate, self.table.burst, T0)
                bucket.take(T0)
                self.table._buckets[v4(n)] = bucket

    def entries(self) -> int:
        return len(getattr(self.table, "_keys", getattr(self.table, "_buckets", ())))


def timed(table: Table, size: int, rounds: int) -> float:
    """Best microseconds per call for a new address, with ``size`` live ones first."""
    best = float("inf")
    for r in range(rounds):
        table.fill(size)
        start = time.perf_counter()
        for n in range(NEW):
            table.hit(v4(size + r * NEW + n))
        best = min(best, (time.perf_counter() - start) / NEW * 1e6)
    return best


def measure(rounds: int) -> list[tuple[str, float, float, str]]:
    """(table, us at 4,096, us at 40,000, what IPv6 did) for this tree's tables."""
    rows = []
    for kind in ("Backoff.failed", "PerAddress.take"):
        table = Table(kind)
        small, large = (timed(table, size, rounds) for size in SIZES)
        table.table = table.make()
        for n in range(V6_ADDRESSES):
            table.hit(v6(n))
        ipv6 = f"{V6_ADDRESSES:,} of one /64 made {table.entries():,} entries"
        rows.append((kind, small, large, ipv6))
    return rows


def report(label: str, rows: list[tuple[str, float, float, str]]) -> None:
    for name, small, large, ipv6 in rows:
        print(
            f"{label:<7} {name:<16} {small:7.2f} us at {SIZES[0]:,}  {large:7.2f} us at "
            f"{SIZES[1]:,}  ratio {large / small:5.2f}   {ipv6}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--server-path", default=None, help="also measure this tree (before)")
    parser.add_argument("--only-here", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only_here:
        for name, small, large, ipv6 in measure(args.rounds):
            print(f"{name}\t{small}\t{large}\t{ipv6}")
        return
    if args.server_path:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [args.server_path, env.get("PYTHONPATH")]))
        out = subprocess.run(
            [sys.executable, __file__, "--only-here", "--rounds", str(args.rounds)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        before = []
        for line in out.splitlines():
            name, small, large, ipv6 = line.split("\t")
            before.append((name, float(small), float(large), ipv6))
        report("before", before)
    report("this", measure(args.rounds))


if __name__ == "__main__":
    main()
