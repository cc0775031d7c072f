"""Peers: gridhall, Colyseus and boardgame.io on the same Gomoku workload, in one run.

Issue 42's side-by-side table, so anyone can check its ratios. Each server runs pinned
to one core (``taskset``), the driver on the other; every server is driven by the same
driver (``driver.cjs``: one Node process, the same seating, move pattern and pacing for
all; see README.md for why Node) through its own protocol. For each server, in order:

1. throughput: every room moving as fast as its two players allow (a move counts when
   both players have it): moves/s on one core, and the server's CPU time per move (its
   user + system time from /proc/<pid>/stat over the phase, not wall time);
2. latency: 200, then 500 rooms (400 and 1,000 players) moving twice a second, rooms
   out of step: round trip (send -> both players have it) p50 and p99;
3. memory, on a fresh server process: its start-up RSS, then the RSS growth per seated
   (joined, idle) player, past a first tenth of them (what the first rooms load once, such
   as code compiled or imported on first use, is not a player's).

The servers: gridhall on asyncio's loop and on uvloop (``bench/load.py``'s server, the
journal in SQLite, limits opened up for load); Colyseus 0.18 with a schema room, the
patch sent at once after each move with its tick kept ("patch at once") and without
it (``patchRate = null``, "no tick"), and with its default 50 ms tick alone ("tick");
boardgame.io 0.50 in memory; and, when named in ``--only``, the floors
(``floor_server.py``: gridhall's protocol on its stack with no game server, on gridhall's
I/O path, with a SQLite commit, or on websockets' API; the ratios are then also given to
the first floor named). The peers are installed with npm into a scratch folder
outside the repository (pinned by package.json and package-lock.json beside this file),
once, before anything is measured; without npm the script says so and stops (exit 0).
Two runs by default, the second in reverse order; the table gives each figure's range
over the runs, and the ratios are taken within each run.

    .venv/bin/python bench/peers/run.py                    # about 20 minutes
    .venv/bin/python bench/peers/run.py --quick            # a smoke run, one pass
    .venv/bin/python bench/peers/run.py --only gridhall    # our server alone
    .venv/bin/python bench/peers/run.py --only gridhall --driver python   # no Node needed
    .venv/bin/python bench/peers/run.py --only gridhall floor colyseus   # against the floor
    .venv/bin/python bench/peers/run.py --only gridhall gridhall-base colyseus \
        --base-python /tmp/main/.venv/bin/python --quick   # this tree beside main's
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import load  # noqa: E402

NODE_FILES = ("driver.cjs", "gomoku_rules.cjs", "colyseus_server.cjs", "bgio_server.cjs")
PINS = ("package.json", "package-lock.json")
CELLS = [(load.BLACK if ply % 2 == 0 else load.WHITE)[ply // 2] for ply in range(225)]
"""Each game's moves in order: bench/load.py's full board with no five (a draw)."""
FIRST = {"fast": 0, "paced": 1_000, "idle": 5_000}
"""Each phase's first room number: its players' loopback addresses are its own."""


@dataclass(frozen=True)
class Server:
    name: str
    label: str
    driver: str
    """The driver's adapter: gridhall, colyseus or bgio."""
    args: tuple[str, ...]
    program: str = ""
    """A Python server script beside this file (the floors; ``{db}`` in ``args`` is its
    database), else gridhall's (``bench/load.py --serve-gridhall``)."""

    @property
    def node(self) -> bool:
        return self.driver != "gridhall"


SERVERS = (
    Server("gridhall", "gridhall (asyncio)", "gridhall", ()),
    Server("gridhall-uvloop", "gridhall (uvloop)", "gridhall", ("--uvloop",)),
    Server("gridhall-base", "gridhall base (asyncio)", "gridhall", ()),
    Server("gridhall-base-uvloop", "gridhall base (uvloop)", "gridhall", ("--uvloop",)),
    Server("colyseus", "Colyseus (patch at once)", "colyseus", ("colyseus_server.cjs", "at-once")),
    Server(
        "colyseus-no-tick", "Colyseus (no tick)", "colyseus", ("colyseus_server.cjs", "no-tick")
    ),
    Server("colyseus-tick", "Colyseus (50 ms tick)", "colyseus", ("colyseus_server.cjs", "tick")),
    Server("boardgame.io", "boardgame.io", "bgio", ("bgio_server.cjs",)),
    Server("floor", "floor (gridhall's I/O)", "gridhall", (), "floor_server.py"),
    Server(
        "floor-sqlite",
        "floor + SQLite commit",
        "gridhall",
        ("--sqlite", "{db}"),
        "floor_server.py",
    ),
    Server(
        "floor-websockets",
        "floor (websockets' API)",
        "gridhall",
        ("--transport", "websockets"),
        "floor_server.py",
    ),
)
BY_NAME = {s.name: s for s in SERVERS}
BASES = ("gridhall-base", "gridhall-base-uvloop")
"""Another tree's gridhall (``--base-python``, e.g. main's), for a before/after in one run;
not run unless named in ``--only``."""
FLOORS = ("floor", "floor-sqlite", "floor-websockets")
"""``floor_server.py``: gridhall's protocol on its stack with no game server (see README);
not run unless named in ``--only``. The table then gives every server's ratio to the first
floor named."""


# ----------------------------------------------------------------------- the install


def scratch_default() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "gridhall-peers"


def install(scratch: Path, allow: bool) -> None:
    """Put the pinned peers in ``scratch`` (npm ci, no install scripts) unless the same
    pins are there already, and copy our rooms and driver beside them."""
    scratch.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(b"".join((HERE / p).read_bytes() for p in PINS)).hexdigest()
    stamp = scratch / ".pins"
    if not (stamp.exists() and stamp.read_text() == digest and (scratch / "node_modules").is_dir()):
        if not allow:
            raise SystemExit(f"peers: {scratch} holds no install of these pins (--no-install)")
        for name in PINS:
            shutil.copy(HERE / name, scratch / name)
        print(f"peers: installing the pinned peers with npm into {scratch}", flush=True)
        command = ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
        if subprocess.run(command, cwd=scratch).returncode != 0:
            raise SystemExit(
                f"peers: npm could not install the pinned peers into {scratch} (offline?); "
                "`--only gridhall --driver python` needs no npm"
            )
        stamp.write_text(digest)
    for name in NODE_FILES:
        shutil.copy(HERE / name, scratch / name)


def versions(scratch: Path) -> str:
    found = []
    for package in ("@colyseus/core", "@colyseus/schema", "boardgame.io"):
        meta = json.loads((scratch / "node_modules" / package / "package.json").read_text())
        found.append(f"{package} {meta['version']}")
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    return f"Node {node}, " + ", ".join(found)


# ----------------------------------------------------------------------- processes


@dataclass
class Pins:
    """Where the servers and the drivers run: one core each, when there are two."""

    server: list[str] = field(default_factory=list)
    note: str = "not pinned"

    @classmethod
    def choose(cls, server_core: int, driver_core: int) -> Pins:
        cores = os.sched_getaffinity(0)
        if shutil.which("taskset") is None or not {server_core, driver_core} <= cores:
            return cls([], f"not pinned (needs taskset and cores {server_core}, {driver_core})")
        os.sched_setaffinity(0, {driver_core})  # this process and the drivers it starts
        return cls(
            ["taskset", "-c", str(server_core)],
            f"server on core {server_core}, driver on core {driver_core}",
        )


def start_server(server: Server, args: argparse.Namespace, pins: Pins, db: str) -> load.ServerProc:
    """Start ``server`` pinned and wait for the port it prints; gridhall's journal in a
    new ``db`` each time (a used one would restore its rooms at start)."""
    if server.node:
        command = ["node", *server.args]
        cwd, env = str(args.scratch), {**os.environ, "NODE_ENV": "production"}
    elif server.program:
        command = [sys.executable, str(HERE / server.program)]
        command += [a.replace("{db}", db) for a in server.args]
        cwd, env = str(load.ROOT), dict(os.environ)
    else:
        python = args.gridhall_python or sys.executable
        if server.name in BASES:
            python = args.base_python
        command = [python, str(Path(load.__file__)), "--serve-gridhall", db]
        command += list(server.args)
        cwd, env = str(load.ROOT), dict(os.environ)
    proc = subprocess.Popen(
        pins.server + command, stdout=subprocess.PIPE, text=True, cwd=cwd, env=env
    )
    assert proc.stdout is not None
    line = read_line(proc, 120)
    while server.node and not line.startswith("PORT "):
        line = read_line(proc, 120)
    return load.ServerProc(server.name, proc, int(line.removeprefix("PORT ")))


def read_line(proc: subprocess.Popen[str], timeout: float) -> str:
    """The process's next line of output; it is killed if none comes in ``timeout`` s."""
    assert proc.stdout is not None
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        line = proc.stdout.readline()
    finally:
        timer.cancel()
    if not line:
        raise RuntimeError(f"{proc.args!r} ended (exit {proc.wait()}) before saying anything")
    return line.strip()


# ----------------------------------------------------------------------- drivers


@dataclass
class Phase:
    mode: str
    rooms: int
    seconds: float = 0.0
    rate: float = 0.0
    warm: int = 0
    """Idle: rooms seated before the memory's baseline is taken (see ``measure``)."""


def node_driver(
    server: Server, proc: load.ServerProc, phase: Phase, scratch: Path
) -> dict[str, Any]:
    """Run one phase with driver.cjs. Idle: seat the rooms, then return the server's RSS
    growth while they sit (the driver holds them until its input ends)."""
    driver = subprocess.Popen(
        ["node", "driver.cjs"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=scratch,
    )
    assert driver.stdin is not None
    config = {
        "kind": server.driver,
        "port": proc.port,
        "mode": phase.mode,
        "rooms": phase.rooms,
        "first": FIRST[phase.mode],
        "seconds": phase.seconds,
        "rate": phase.rate,
        "cells": CELLS,
        "warm": phase.warm,
    }
    try:
        return drive(driver, proc, phase, json.dumps(config))
    finally:
        assert driver.stdin is not None
        try:
            driver.stdin.close()  # the players leave and the driver ends
        except BrokenPipeError:  # it ended already (its error is on stderr)
            pass
        try:
            driver.wait(30)
        except subprocess.TimeoutExpired:
            driver.kill()
            driver.wait()


def drive(
    driver: subprocess.Popen[str], proc: load.ServerProc, phase: Phase, config: str
) -> dict[str, Any]:
    assert driver.stdin is not None
    driver.stdin.write(config + "\n")
    driver.stdin.flush()
    if phase.mode == "idle":
        json.loads(read_line(driver, 900))  # the warm-up rooms are seated
        time.sleep(1.0)
        rss0 = proc.rss()
        driver.stdin.write("more\n")
        driver.stdin.flush()
        json.loads(read_line(driver, 900))
        time.sleep(2.0)
        return {"rss": proc.rss() - rss0}
    json.loads(read_line(driver, 900))  # every room seated
    (user0, sys0), wall0 = proc.cpu_split(), time.perf_counter()
    driver.stdin.write("go\n")
    driver.stdin.flush()
    result: dict[str, Any] = json.loads(read_line(driver, phase.seconds + 600))
    (user, system), wall = proc.cpu_split(), time.perf_counter() - wall0
    cpu = user - user0 + system - sys0
    return {
        "server_system": system - sys0,
        "moves": result["moves"],
        "rtts": [t / 1e3 for t in result["rtts"]],
        "client_cpu": result["cpu"] / phase.seconds,
        "server_cpu": cpu,
        "server_busy": cpu / wall,
    }


def python_driver(proc: load.ServerProc, phase: Phase, procs: int) -> dict[str, Any]:
    """The same phase with bench/load.py's Python clients (gridhall only): no Node needed."""
    if phase.mode == "idle":
        return asyncio.run(python_idle(proc, phase))
    play = load.Phase("gridhall", proc.port, phase.mode, phase.seconds, phase.rate, True)
    return load.run_clients(proc, play, phase.rooms, procs, FIRST[phase.mode])


async def python_idle(proc: load.ServerProc, phase: Phase) -> dict[str, Any]:
    first = FIRST["idle"]
    seated = [await load.gridhall_room(proc.port, first + n, True) for n in range(phase.warm)]
    await asyncio.sleep(1.0)
    rss0 = proc.rss()
    for n in range(phase.warm, phase.rooms):
        seated.append(await load.gridhall_room(proc.port, first + n, True))
    await asyncio.sleep(2.0)
    rss = proc.rss() - rss0
    for room in seated:
        await room.black.close()
        await room.white.close()
    return {"rss": rss}


# ----------------------------------------------------------------------- measuring


@dataclass
class Figures:
    cpu_us: float = 0.0
    moves_per_s: float = 0.0
    busy: float = 0.0
    driver_cpu: float = 0.0
    paced: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    """Players -> (p50 ms, p99 ms, server CPU us per move)."""
    idle_kib: float = 0.0
    startup_mib: float = 0.0
    system_us: float = 0.0
    """Of ``cpu_us``, the kernel's (system time: socket calls, the journal's writes)."""


def measure(server: Server, args: argparse.Namespace, pins: Pins) -> Figures:
    figures = Figures()

    def phase(proc: load.ServerProc, p: Phase) -> dict[str, Any]:
        if args.driver == "node":
            return node_driver(server, proc, p, args.scratch)
        return python_driver(proc, p, args.procs)

    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(server, args, pins, f"{tmp}/play.db")
        try:
            fast = phase(proc, Phase("fast", args.fast_rooms, args.seconds))
            figures.moves_per_s = fast["moves"] / args.seconds
            figures.cpu_us = fast["server_cpu"] / max(1, fast["moves"]) * 1e6
            figures.system_us = fast.get("server_system", 0.0) / max(1, fast["moves"]) * 1e6
            figures.busy, figures.driver_cpu = fast["server_busy"], fast["client_cpu"]
            for rooms in args.paced_rooms:
                paced = phase(proc, Phase("paced", rooms, args.seconds, args.rate))
                rtts = paced["rtts"] or [0.0]
                figures.paced[2 * rooms] = (
                    statistics.median(rtts) * 1e3,
                    load.percentile(rtts, 0.99) * 1e3,
                    paced["server_cpu"] / max(1, paced["moves"]) * 1e6,
                )
        finally:
            proc.stop()
        proc = start_server(server, args, pins, f"{tmp}/idle.db")
        try:
            time.sleep(1.0)
            figures.startup_mib = proc.rss() / 2**20
            rooms = args.idle_players // 2
            warm = max(1, rooms // 10)
            idle = phase(proc, Phase("idle", rooms, warm=warm))
            figures.idle_kib = idle["rss"] / (2 * (rooms - warm)) / 1024
        finally:
            proc.stop()
    return figures


def run_all(
    servers: list[Server], args: argparse.Namespace, pins: Pins
) -> list[dict[str, Figures]]:
    runs: list[dict[str, Figures]] = []
    for n in range(args.runs):
        order = servers if n % 2 == 0 else servers[::-1]
        print(f"run {n + 1}: " + ", ".join(s.name for s in order), flush=True)
        figs: dict[str, Figures] = {}
        for server in order:
            start = time.perf_counter()
            figs[server.name] = measure(server, args, pins)
            f = figs[server.name]
            print(
                f"  {server.name}: {f.cpu_us:.0f} us/move, {f.moves_per_s:,.0f} moves/s "
                f"(server busy {f.busy:.0%}), {f.idle_kib:.1f} KiB/player "
                f"({time.perf_counter() - start:.0f} s, load average {os.getloadavg()[0]:.2f})",
                flush=True,
            )
        runs.append(figs)
    return runs


# ----------------------------------------------------------------------- the table


def span(values: list[float], fmt: str) -> str:
    """The range of ``values`` as the issue writes it: ``lo-hi`` (``lo to hi`` when one is
    negative), or one figure."""
    lo, hi = fmt.format(min(values)), fmt.format(max(values))
    return lo if lo == hi else f"{lo}{' to ' if min(values) < 0 else '-'}{hi}"


def rows(runs: list[dict[str, Figures]], players: list[int]) -> list[tuple[str, Any, str, str]]:
    """(label, figure of a Figures, format, unit) for each row of the table."""
    table: list[tuple[str, Any, str, str]] = [
        ("server CPU per move", lambda f: f.cpu_us, "{:.0f}", " us"),
        ("  of which the kernel's (system time)", lambda f: f.system_us, "{:.0f}", " us"),
        ("moves/s, one core", lambda f: f.moves_per_s, "{:,.0f}", ""),
        ("  server busy / driver CPU (throughput)", None, "", ""),
    ]
    for n in players:
        table.append((f"round trip at {n:,} players p50 / p99", n, "", " ms"))
        table.append((f"  server CPU per move at {n:,} players", ("cpu", n), "{:.0f}", " us"))
    table.append(("idle memory per seated player", lambda f: f.idle_kib, "{:.1f}", " KiB"))
    table.append(("start-up size", lambda f: f.startup_mib, "{:.0f}", " MiB"))
    return table


def cell(runs: list[dict[str, Figures]], name: str, row: tuple[str, Any, str, str]) -> str:
    _, what, fmt, unit = row
    figs = [run[name] for run in runs]
    if what is None:
        return f"{span([f.busy * 100 for f in figs], '{:.0f}')}% / {span([f.driver_cpu for f in figs], '{:.2f}')}"
    if isinstance(what, int):
        p50 = span([f.paced[what][0] for f in figs], "{:.2f}")
        return f"{p50} / {span([f.paced[what][1] for f in figs], '{:.1f}')}{unit}"
    if isinstance(what, tuple):
        return span([f.paced[what[1]][2] for f in figs], fmt) + unit
    return span([what(f) for f in figs], fmt) + unit


RATIOS: tuple[tuple[str, Any], ...] = (
    ("CPU per move", lambda f: f.cpu_us),
    ("moves/s", lambda f: f.moves_per_s),
    ("idle memory per seated player", lambda f: f.idle_kib),
    ("start-up size", lambda f: f.startup_mib),
)


def caveats(runs: list[dict[str, Figures]], servers: list[Server]) -> list[str]:
    """Which throughput figures were not the server's own limit: a driver near its
    core's end, or a server kept off its core (other load on the machine)."""
    driven, starved = [], []
    for s in servers:
        figs = [run[s.name] for run in runs]
        driver, busy = max(f.driver_cpu for f in figs), min(f.busy for f in figs)
        if driver >= 0.8:
            full = 1e6 / max(f.cpu_us for f in figs)
            driven.append(f"{s.label} (driver {driver:.2f} cores; 1 s / CPU per move: {full:,.0f})")
        elif busy < 0.9 and s.name != "colyseus-tick":
            starved.append(f"{s.label} {busy:.0%}")
    said = []
    if starved:
        said.append(
            "- servers that had less than their core in the throughput phase (the rest went "
            "to other load on the machine, or to waiting; CPU per move holds, moves/s is not "
            "one core's): " + ", ".join(starved)
        )
    if driven:
        said.append("- moves/s may be the driver's: " + ", ".join(driven))
    return said


def report(runs: list[dict[str, Figures]], servers: list[Server], players: list[int]) -> None:
    names = [s.name for s in servers]
    print("\n| | " + " | ".join(s.label for s in servers) + " |")
    print("|---" * (len(servers) + 1) + "|")
    for row in rows(runs, players):
        print(f"| {row[0].strip()} | " + " | ".join(cell(runs, n, row) for n in names) + " |")
    said = caveats(runs, servers)
    if said:
        print("\n" + "\n".join(said))
    ratios = list(RATIOS)
    for n in players:
        ratios.append((f"p99 at {n:,} players", lambda f, n=n: f.paced[n][1]))
    if "gridhall" in names and len(names) > 1:
        others = [s for s in servers if s.name != "gridhall"]
        print("\nRatios, gridhall (asyncio) / each, taken within each run:\n")
        print("| gridhall (asyncio) / | " + " | ".join(s.label for s in others) + " |")
        print("|---" * (len(others) + 1) + "|")
        for label, what in ratios:
            print(
                f"| {label} | "
                + " | ".join(ratio(runs, "gridhall", s, what) for s in others)
                + " |"
            )
    floor = next((BY_NAME[n] for n in FLOORS if n in names), None)
    if floor is None or len(names) < 2:
        return
    others = [s for s in servers if s is not floor]
    print(f"\nRatios, each / {floor.label}, taken within each run:\n")
    print("| / " + floor.label + " | " + " | ".join(s.label for s in others) + " |")
    print("|---" * (len(others) + 1) + "|")
    for label, what in ratios:
        print(f"| {label} | " + " | ".join(ratio(runs, s.name, floor, what) for s in others) + " |")
    above = [
        span([r[s.name].cpu_us - r[floor.name].cpu_us for r in runs], "{:.0f}") for s in others
    ]
    print("| CPU per move above the floor's | " + " us | ".join(above) + " us |")


def ratio(runs: list[dict[str, Figures]], name: str, base: Server, what: Any) -> str:
    """``name``'s figure over ``base``'s, the range over the runs."""
    values = [what(r[name]) / what(r[base.name]) for r in runs if what(r[base.name])]
    return span(values, "{:.2f}") + "x" if values else "-"


# ----------------------------------------------------------------------- main


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_sizes(parser)
    add_setup(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.fast_rooms, args.paced_rooms, args.idle_players = 4.0, 20, [50, 100], 200
        args.runs = args.runs or 1
    args.runs = args.runs or 2
    if args.idle_players < 4 or args.fast_rooms < 1 or min(args.paced_rooms) < 1:
        parser.error("at least 1 room per phase and 4 idle players")
    args.only = list(dict.fromkeys(args.only))
    if any(name in BASES for name in args.only) and not args.base_python:
        parser.error("the gridhall-base servers need --base-python")
    return args


def add_sizes(parser: argparse.ArgumentParser) -> None:
    """What runs, and how much of it."""
    parser.add_argument(
        "--only",
        nargs="+",
        choices=list(BY_NAME),
        metavar="SERVER",
        default=[name for name in BY_NAME if name not in BASES + FLOORS],
        help="the servers to run, in this order (default: all but the gridhall-base and "
        "floor ones: %(choices)s)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        help="passes over the servers, every other one reversed (default 2; --quick: 1)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=15.0,
        help="length of each timed phase (default %(default)s)",
    )
    parser.add_argument(
        "--fast-rooms",
        type=int,
        default=50,
        help="rooms in the throughput phase (default %(default)s)",
    )
    parser.add_argument(
        "--paced-rooms",
        type=int,
        nargs="+",
        default=[200, 500],
        help="rooms in each latency phase, two players each (default %(default)s)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=2.0,
        help="moves a second per room when paced (default %(default)s)",
    )
    parser.add_argument(
        "--idle-players", type=int, default=2000, help="seated idle players (default %(default)s)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: one pass, 4 s phases, 20/50/100 rooms, 200 idle players",
    )


def add_setup(parser: argparse.ArgumentParser) -> None:
    """How it runs: the driver, the install, the cores, another gridhall."""
    parser.add_argument(
        "--driver",
        choices=("node", "python"),
        default="node",
        help="node: driver.cjs for every server (default); python: bench/load.py's clients, gridhall only",
    )
    parser.add_argument(
        "--procs",
        type=int,
        default=2,
        help="client processes of the Python driver (default %(default)s)",
    )
    parser.add_argument(
        "--scratch",
        type=Path,
        default=scratch_default(),
        help="where npm installs the peers (default %(default)s)",
    )
    parser.add_argument(
        "--no-install",
        action="store_true",
        help="never run npm: fail when the scratch folder lacks the pinned peers",
    )
    parser.add_argument(
        "--server-core", type=int, default=0, help="the servers' core (default %(default)s)"
    )
    parser.add_argument(
        "--driver-core", type=int, default=1, help="the drivers' core (default %(default)s)"
    )
    parser.add_argument(
        "--gridhall-python",
        metavar="PYTHON",
        help="run gridhall's server with this interpreter (another install, for a before/after)",
    )
    parser.add_argument(
        "--base-python",
        metavar="PYTHON",
        help="the interpreter of another install (e.g. main's, in a `git worktree`) for the "
        "gridhall-base servers, run beside this tree's in the same run",
    )


def node_ready(args: argparse.Namespace, servers: list[Server]) -> bool:
    """Can the Node driver run? Installs the peers when npm is there; without it, says
    what runs instead. False: nothing can run (the message is printed)."""
    if shutil.which("node") and shutil.which("npm"):
        install(args.scratch, not args.no_install)
        print(f"peers: {versions(args.scratch)} (in {args.scratch})")
        return True
    if all(not s.node for s in servers):
        print(
            "peers: no Node.js/npm here: gridhall is driven by bench/load.py's Python clients (--driver python)"
        )
        args.driver = "python"
        return True
    print(
        "peers: Node.js and npm are needed to install and drive Colyseus and boardgame.io, "
        "and this machine has no `node` or `npm` on its PATH: nothing measured. Install "
        "Node.js (20 or later) with npm, or run `--only gridhall`."
    )
    return False


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    servers = [BY_NAME[name] for name in args.only]
    if args.driver == "python" and any(s.node for s in servers):
        print("peers: the Python driver speaks gridhall's protocol only (use --only gridhall ...)")
        return 2
    if args.driver == "node" and not node_ready(args, servers):
        return 0
    pins = Pins.choose(args.server_core, args.driver_core)
    print(
        f"peers: {os.cpu_count()} cores ({pins.note}), load average {os.getloadavg()[0]:.2f}; "
        f"{args.driver} driver; {args.seconds:g} s phases, {args.fast_rooms} rooms flat out, "
        f"{' and '.join(str(2 * r) for r in args.paced_rooms)} players at {args.rate:g} moves/s "
        f"a room, {args.idle_players} idle players; {args.runs} run(s)",
        flush=True,
    )
    runs = run_all(servers, args, pins)
    print(f"(load average at the end {os.getloadavg()[0]:.2f})")
    report(runs, servers, [2 * r for r in args.paced_rooms])
    return 0


if __name__ == "__main__":
    sys.exit(main())
