"""``load.py --nodes N``: the cluster under the load bench's clients, in one run.

Starts a throw-away Redis and PostgreSQL (``cluster_services.py``), then, one setup
after the other, with the same client processes and the same phases as ``load.py``
(throughput: rooms moving flat out; latency: 1,000 players in 500 Gomoku rooms, each
moving twice a second, out of step):

- ``sqlite``: the single-node server on SQLite (``load.py``'s gridhall), the reference;
- ``1 node``: one node on Redis + PostgreSQL, every player on it;
- ``N nodes``: N nodes, the rooms spread over them, each room's two players on the SAME
  node (its owner): what adding nodes buys;
- ``N cross``: N nodes, each room's second player on the NEXT node, so that player's
  moves go through Redis to the room's owner and every frame for it comes back the same
  way: what a cross-node move costs against a same-node one.

Each setup gets a fresh database and an emptied Redis. CPU per move is charged to the
nodes and, separately, to Redis and PostgreSQL (their processes' CPU time). Ratios are
printed against the baselines of the same run, with issue 42's targets (one node at
>= 0.8x the SQLite server's moves/s, two nodes at >= 1.8x one, two nodes' p99 within 2x
the SQLite server's; with ``--before``, a cross-node move's extra CPU halved).
Connections come from many 127.x addresses, one each, as in ``load.py``.

``--before PYTHON`` adds the three cluster setups run by another install's interpreter
(an older commit's checkout with its own virtualenv): a before/after in one run.
``--reverse`` runs the setups in the opposite order (a second run, so that a machine
getting busier or quieter during the run favours neither). ``--profile FILE`` samples
every node with py-spy in each throughput and latency run and prints their top functions.

    nice -n 10 .venv/bin/python bench/load.py --nodes 2            # about 6 minutes
    nice -n 10 .venv/bin/python bench/load.py --nodes 2 --quick    # 200 players, 10 s
    nice -n 10 .venv/bin/python bench/load.py --nodes 2 --before /tmp/old/.venv/bin/python
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field

import load
from cluster_services import PostgresServer, RedisServer, cpu_seconds, services

LEASE_MS = 10_000
"""Longer than the nodes' default (3 s): on a shared, overloaded machine a starved node
misses its renewals and its rooms are taken over mid-run (its relayed players are then
closed with 1012), which measures the scheduler, not a move. A takeover during the
run still shows in the report (the nodes' log)."""


def serve_node(db: str, redis_url: str, store_url: str, node_id: str) -> None:
    """One cluster node with the load bench's opened-up limits, printing its port."""
    from gridhall.server.cluster.wiring import ClusterWiring
    from gridhall.server.core.config import ServerConfig
    from gridhall.server.io.net.app import GameServer

    config = ServerConfig(
        host="127.0.0.1",
        port=0,
        db=db,
        max_rooms=10_000,
        max_connections=20_000,
        rate_per_second=1e6,
        rate_burst=10**6,
        cluster=redis_url,
        cluster_secret="bench-load-cluster-secret-0123456789",
        store=store_url,
        node_id=node_id,
        lease_ms=LEASE_MS,
    )
    server = GameServer(config, ClusterWiring())
    from gridhall.server.io.runtime import collector

    collector.install()  # as gridhall-server does
    asyncio.run(server.run_until_signalled(lambda srv: print(srv.port, flush=True)))


@dataclass
class Node:
    """A node process; what it logs (warnings and worse) is kept for the report."""

    proc: subprocess.Popen[str]
    port: int
    log: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        tmp: str,
        name: str,
        redis: RedisServer,
        store_url: str,
        uvloop: bool,
        python: str | None = None,
    ) -> Node:
        """``python``: another install's interpreter runs the node (its gridhall)."""
        args = [
            python or sys.executable,
            __file__,
            "--serve-node",
            f"{tmp}/{name}.db",
            redis.url,
            store_url,
            name,
        ] + (["--uvloop"] if uvloop else [])
        proc = subprocess.Popen(
            args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=load.ROOT
        )
        assert proc.stdout is not None and proc.stderr is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node {name} did not start: {proc.stderr.read()}")
        node = cls(proc, int(line))
        threading.Thread(target=node._read_log, daemon=True).start()
        return node

    def _read_log(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.log.append(line)

    def kill(self) -> None:
        """Throw it away: every node of a setup is killed before any is waited for, so
        none outlives another long enough to take its rooms over (a graceful stop
        would hand them to the survivor, and its log would blame the bench)."""
        self.proc.kill()


class Nodes:
    """The nodes of one setup, measured as one server (``load.Measured``): ``cpu()`` is
    the nodes' CPU; each call also notes Redis's and PostgreSQL's, for :meth:`services`."""

    def __init__(self, nodes: list[Node], redis: RedisServer, postgres: PostgresServer) -> None:
        self.nodes = nodes
        self.redis = redis
        self.postgres = postgres
        self.marks: list[float] = []

    def cpu(self) -> float:
        self.marks.append(self.redis.cpu() + self.postgres.cpu())
        return sum(cpu_seconds(n.proc.pid) for n in self.nodes)

    def services(self) -> float:
        """Redis's and PostgreSQL's CPU seconds between the last two :meth:`cpu` calls
        (a phase's start and end)."""
        return self.marks[-1] - self.marks[-2]

    def split(self) -> tuple[int, float, float, float]:
        raise NotImplementedError("--breakdown is for the single server")


@dataclass
class Setup:
    label: str
    nodes: int
    """0: the single-node SQLite server."""
    cross: bool = False
    python: str | None = None
    """Another install's interpreter runs the nodes (``--before``)."""


@dataclass
class Figures:
    moves_per_s: float = 0.0
    node_us: float = 0.0
    """Nodes' (or the SQLite server's) CPU per move, throughput run."""
    services_us: float = 0.0
    """Redis's + PostgreSQL's CPU per move, throughput run."""
    node_busy: float = 0.0
    """Cores the nodes kept busy in the throughput run."""
    client_busy: float = 0.0
    """Cores the client processes kept busy in the throughput run (the driver: rooms
    wait for their last move's round trip, so nodes idle while clients are starved)."""
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    max_ms: float = 0.0
    paced_us: float = 0.0
    """Everything's CPU (nodes + Redis + PostgreSQL) per move in the latency run."""
    warnings: list[str] = field(default_factory=list)
    failed: str = ""

    @property
    def total_us(self) -> float:
        return self.node_us + self.services_us


def measure(
    setup: Setup, args: argparse.Namespace, redis: RedisServer, postgres: PostgresServer
) -> Figures:
    """One setup's throughput and latency runs on fresh nodes."""
    if setup.nodes == 0:
        base = load.measure("gridhall", args)
        return Figures(
            base.moves_per_s,
            base.cpu_us_per_move,
            0.0,
            base.server_busy,
            base.client_cpu,
            base.p50_ms,
            base.p99_ms,
            base.max_ms,
            base.paced_cpu_us,
        )
    redis.flush()
    store_url = postgres.new_database()
    deltas = not args.full_views
    figures = Figures()
    with tempfile.TemporaryDirectory() as tmp:
        nodes: list[Node] = []
        try:
            for i in range(setup.nodes):
                nodes.append(
                    Node.start(tmp, f"node{i}", redis, store_url, args.uvloop, setup.python)
                )
            group = Nodes(nodes, redis, postgres)
            ports = tuple(n.port for n in nodes)
            spies = [
                load.profile_start(n.proc.pid, args.seconds, f"{args.profile}.{setup.label}.{i}")
                for i, n in enumerate(nodes)
                if args.profile
            ]
            fast = load.run_clients(
                group,
                load.Phase(
                    "gridhall", ports[0], "fast", args.seconds, 0, deltas, ports, setup.cross
                ),
                args.fast_rooms,
                args.procs,
                0,
            )
            for spy in spies:
                spy.wait()
            moves = max(1, fast["moves"])
            figures.moves_per_s = fast["moves"] / args.seconds
            figures.node_us = fast["server_cpu"] / moves * 1e6
            figures.services_us = group.services() / moves * 1e6
            figures.node_busy = fast["server_busy"]
            figures.client_busy = fast["client_cpu"]
            spies = [
                load.profile_start(
                    n.proc.pid, args.seconds, f"{args.profile}.{setup.label}.paced.{i}"
                )
                for i, n in enumerate(nodes)
                if args.profile
            ]
            paced = load.run_clients(
                group,
                load.Phase(
                    "gridhall",
                    ports[0],
                    "paced",
                    args.seconds,
                    args.rate,
                    deltas,
                    ports,
                    setup.cross,
                ),
                args.players // 2,
                args.procs,
                10_000,
            )
            for spy in spies:
                spy.wait()
            rtts = paced["rtts"]
            figures.p50_ms = statistics.median(rtts) * 1e3
            figures.p99_ms = load.percentile(rtts, 0.99) * 1e3
            figures.max_ms = max(rtts) * 1e3
            figures.paced_us = (
                (paced["server_cpu"] + group.services()) / max(1, paced["moves"]) * 1e6
            )
        except RuntimeError as exc:  # a client failed: say so, go on with the next setup
            figures.failed = str(exc)
        finally:
            for i, node in enumerate(nodes):  # what they logged while measured
                figures.warnings += [
                    f"node{i}: {line}"
                    for line in list(node.log)
                    if not line.startswith("open-files limit")
                ]
            for node in nodes:
                node.kill()
            for node in nodes:
                node.proc.wait()
    return figures


def ratio(title: str, new: Figures, old: Figures) -> None:
    print(
        f"{title:34}moves/s x{new.moves_per_s / old.moves_per_s:.2f}, "
        f"CPU/move (all) x{new.total_us / old.total_us:.2f}, "
        f"p50 x{new.p50_ms / old.p50_ms:.2f}, p99 x{new.p99_ms / old.p99_ms:.2f}"
    )


def ratios(figs: dict[str, Figures], labels: list[str]) -> None:
    """One code's three cluster setups against the SQLite server, with the targets."""
    one, many, cross = (figs[label] for label in labels)
    sqlite = figs["sqlite"]
    ratio(f"{labels[0]} / sqlite", one, sqlite)
    ratio(f"{labels[1]} / {labels[0]}", many, one)
    ratio(f"{labels[2]} / {labels[1]}", cross, many)
    targets = [
        ("one node's moves/s >= 0.8x sqlite's", one.moves_per_s / sqlite.moves_per_s, 0.8),
        ("two nodes' moves/s >= 1.8x one's", many.moves_per_s / one.moves_per_s, 1.8),
        ("two nodes' p99 <= 2x sqlite's", sqlite.p99_ms * 2 / many.p99_ms, 1.0),
    ]
    for what, got, least in targets:
        print(f"  {what}: {load.verdict(got >= least)}")
    print(
        f"  a cross-node move costs {cross.total_us - many.total_us:+.1f} us of CPU (all "
        f"processes) and {cross.p50_ms - many.p50_ms:+.2f} ms at p50 over a same-node one"
    )


def report(args: argparse.Namespace, setups: list[Setup], figs: dict[str, Figures]) -> None:
    labels = [s.label for s in setups]
    rows = [
        ("moves/s (throughput run)", "moves_per_s", "{:.0f}"),
        ("CPU us/move: nodes (server)", "node_us", "{:.1f}"),
        ("CPU us/move: Redis + PostgreSQL", "services_us", "{:.1f}"),
        ("CPU us/move: all", "total_us", "{:.1f}"),
        ("  cores busy in the nodes", "node_busy", "{:.2f}"),
        ("  cores busy in the clients", "client_busy", "{:.2f}"),
        (f"RTT p50 ms ({args.players} players)", "p50_ms", "{:.2f}"),
        ("RTT p99 ms", "p99_ms", "{:.2f}"),
        ("RTT max ms", "max_ms", "{:.2f}"),
        ("  CPU us/move, all, latency run", "paced_us", "{:.1f}"),
    ]
    print(f"{'':34}" + "".join(f"{label:>12}" for label in labels))
    for label, attr, fmt in rows:
        print(f"{label:34}" + "".join(f"{fmt.format(getattr(figs[k], attr)):>12}" for k in labels))
    if any(f.failed or not f.moves_per_s or not f.p50_ms for f in figs.values()):
        print("(no ratios: a setup failed)")
    else:
        for i in range(1, len(setups), 3):
            ratios(figs, labels[i : i + 3])
        if len(setups) == 7:
            now, before = (figs[labels[i + 1]].total_us - figs[labels[i]].total_us for i in (2, 5))
            print(
                f"a cross-node move's extra CPU, now / before: {now:+.1f} / {before:+.1f} us, "
                f"x{now / before:.2f} (halved: {load.verdict(now <= before / 2)})"
            )
    for label in labels:
        if figs[label].failed:
            print(f"[{label}] FAILED: {figs[label].failed}")
        lines = figs[label].warnings
        if lines:
            taken = sum("taken over" in line for line in lines)
            print(
                f"[{label}] the nodes logged {len(lines)} lines while measured "
                f"({taken} rooms taken over from a live node); the first:"
            )
        for line in lines[:5]:
            print(f"[{label}]   {line.rstrip()}")


def run_cluster(args: argparse.Namespace) -> None:
    """``load.py --nodes N``: every setup in one run, then the table and the ratios."""
    n = max(2, args.nodes)
    setups = [Setup("sqlite", 0)]
    for python, tag in [(None, "")] + ([(args.before, " old")] if args.before else []):
        setups += [
            Setup(f"1 node{tag}", 1, python=python),
            Setup(f"{n} nodes{tag}", n, python=python),
            Setup(f"{n} cross{tag}", n, cross=True, python=python),
        ]
    args.idle, args.breakdown, args.gridhall_python = [], False, None
    print(
        f"load --nodes {n}: {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.2f}; {args.players} players, {args.fast_rooms} fast rooms, "
        f"{args.seconds:.0f} s runs{', uvloop' if args.uvloop else ''}"
        f"{', in reverse order' if args.reverse else ''}",
        flush=True,
    )
    figs: dict[str, Figures] = {}
    with services() as (redis, postgres):
        for setup in reversed(setups) if args.reverse else setups:
            figs[setup.label] = measure(setup, args, redis, postgres)
            print(f"  {setup.label}: done (load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")
    report(args, setups, figs)
    if args.profile:
        print("--- sqlite:")
        load.profile_report(args.profile, top=15)
        for setup in setups[1:]:
            for i in range(setup.nodes):
                print(f"--- {setup.label}, node{i}:")
                load.profile_report(f"{args.profile}.{setup.label}.{i}", top=15)
                print(f"--- {setup.label}, node{i}, latency run:")
                load.profile_report(f"{args.profile}.{setup.label}.paced.{i}", top=15)


if __name__ == "__main__" and len(sys.argv) > 5 and sys.argv[1] == "--serve-node":
    if "--uvloop" in sys.argv:
        load.use_uvloop()
    serve_node(*sys.argv[2:6])
elif __name__ == "__main__":
    sys.exit("run it as: bench/load.py --nodes N [--quick]")
