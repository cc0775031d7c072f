"""bench/peers/run.py without Node or npm: it says so and measures nothing, or (gridhall
alone) falls back to bench/load.py's Python clients. Never installs anything."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

RUN = Path(__file__).resolve().parent.parent / "bench" / "peers" / "run.py"


def peers(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """run.py with a PATH that has no node, npm or taskset on it."""
    empty = tmp_path / "bin"
    empty.mkdir(exist_ok=True)
    return subprocess.run(
        [sys.executable, str(RUN), "--scratch", str(tmp_path / "scratch"), *args],
        capture_output=True,
        text=True,
        timeout=110,
        env={"PATH": str(empty), "HOME": str(tmp_path)},
    )


def test_without_npm_the_peers_are_not_measured_and_the_exit_is_clean(tmp_path: Path) -> None:
    done = peers(tmp_path, "--quick")
    assert done.returncode == 0, done.stderr
    assert "no `node` or `npm`" in done.stdout
    assert "run 1" not in done.stdout
    assert not (tmp_path / "scratch").exists()


def test_the_python_driver_refuses_the_peers(tmp_path: Path) -> None:
    done = peers(tmp_path, "--driver", "python", "--only", "gridhall", "colyseus")
    assert done.returncode == 2
    assert "gridhall's protocol only" in done.stdout


def test_gridhall_alone_runs_every_phase_without_node(tmp_path: Path) -> None:
    done = peers(
        tmp_path,
        "--only",
        "gridhall",
        "--runs",
        "1",
        "--seconds",
        "1",
        "--fast-rooms",
        "2",
        "--paced-rooms",
        "3",
        "--idle-players",
        "6",
        "--procs",
        "1",
    )
    assert done.returncode == 0, done.stderr
    assert "Python clients" in done.stdout
    table = {
        line.split("|")[1].strip(): line.split("|")[2].strip()
        for line in done.stdout.splitlines()
        if line.startswith("| ") and line.count("|") == 3
    }
    assert re.fullmatch(r"\d+ us", table["server CPU per move"])
    assert int(table["moves/s, one core"].replace(",", "")) > 0
    assert re.fullmatch(r"[\d.]+ / [\d.]+ ms", table["round trip at 6 players p50 / p99"])
    assert re.fullmatch(r"-?[\d.]+ KiB", table["idle memory per seated player"])
    assert re.fullmatch(r"\d+ MiB", table["start-up size"])
