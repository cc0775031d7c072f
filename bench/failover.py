"""Failover: how long clients take to reach another node when theirs is killed.

Starts two ``gridhall-server`` processes on loopback, the first given the second with
``--peer``; ``--clients`` sessions (the shared client session every UI uses, default
backoff) connect to the first. Baseline: every connection is dropped (as a network
failure would) and the time until each is welcomed back by the same node is taken.
Then the first node is killed (SIGKILL) and the time until each session is welcomed
by the second node is taken. Prints median, p99 and max of both, and their ratio.
Both are dominated by the first backoff pause (0.25..0.5 s, jittered on purpose).

    nice -n 10 .venv/bin/python bench/failover.py --clients 8 --runs 5

Clients all come from 127.0.0.1, so ``--clients`` stays within the server's limit of
8 connections per address that have not said hello yet (more would measure that
limit's 429 answers and the backoff after them, not the failover).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gridhall import protocol as p
from gridhall.client.messages import Event
from gridhall.client.session import Session


def node(db: Path, *peers: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gridhall.server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(db),
            "--log-level",
            "WARNING",
            "--no-discovery",
            *(arg for peer in peers for arg in ("--peer", peer)),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    port = int(proc.stdout.readline().rsplit(" ", 1)[1])
    return proc, f"ws://127.0.0.1:{port}/"


async def welcomed_all(sessions: list[Session], since: float, url: str) -> list[float]:
    """Seconds from ``since`` until each session was welcomed at ``url``."""
    times: dict[int, float] = {}
    done = asyncio.Event()

    def watch(i: int, s: Session) -> None:
        def listener(msg: Event) -> None:
            if isinstance(msg, p.Welcome) and s.url == url and i not in times:
                times[i] = time.perf_counter() - since
                if len(times) == len(sessions):
                    done.set()

        s.add_listener(listener)

    for i, s in enumerate(sessions):
        watch(i, s)
    await asyncio.wait_for(done.wait(), 120)
    return sorted(times.values())


def summary(times: list[float]) -> str:
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (
        f"median {statistics.median(times) * 1000:6.0f} ms  p99 {p99 * 1000:6.0f} ms  "
        f"max {times[-1] * 1000:6.0f} ms"
    )


async def main(clients: int, runs: int) -> None:
    base: list[float] = []
    over: list[float] = []
    for _ in range(runs):
        b, o = await one_run(clients)
        base += b
        over += o
    base.sort()
    over.sort()
    print(f"{clients} clients x {runs} runs")
    print(f"reconnect to the same node:  {summary(base)}")
    print(f"failover to the peer node:   {summary(over)}")
    print(f"failover / reconnect (median): {statistics.median(over) / statistics.median(base):.2f}")


async def one_run(clients: int) -> tuple[list[float], list[float]]:
    with tempfile.TemporaryDirectory() as tmp:
        b, url_b = node(Path(tmp) / "b.db")
        a, url_a = node(Path(tmp) / "a.db", url_b)
        sessions = [Session(url_a, f"c{i}") for i in range(clients)]
        first = asyncio.create_task(welcomed_all(sessions, time.perf_counter(), url_a))
        tasks = [asyncio.create_task(s.run()) for s in sessions]
        try:
            await first
            await asyncio.sleep(clients / 10 + 0.5)  # the connect budget refills (10/s)
            start = time.perf_counter()
            for s in sessions:
                s.drop_connection()
            base = await welcomed_all(sessions, start, url_a)
            start = time.perf_counter()
            a.send_signal(signal.SIGKILL)
            over = await welcomed_all(sessions, start, url_b)
            return base, over
        finally:
            for s in sessions:
                await s.close()
            for t in tasks:
                t.cancel()
            for proc in (a, b):
                if proc.poll() is None:
                    proc.terminate()
                proc.wait(20)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--runs", type=int, default=5, help="pairs of nodes, one after another")
    args = parser.parse_args()
    asyncio.run(main(args.clients, args.runs))
