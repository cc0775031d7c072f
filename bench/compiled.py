"""Build a copy of gridhall whose core is compiled to C with mypyc, for a before/after.

The question it answers: how much of a move's CPU would native code take off, with
no change to the code? It copies ``protocol/``, ``server/`` and ``client/`` into
``OUT/gridhall/``, compiles the modules every move runs through (:data:`CORE`) with
mypyc, and writes ``OUT/python``, an interpreter that imports that copy first (also as
``OUT/.venv/bin/python``, where ``bench/hotpath.py --against`` looks). Then:

    .venv/bin/python bench/compiled.py /tmp/gridhall-compiled    # about a minute
    .venv/bin/python bench/hotpath.py --against /tmp/gridhall-compiled --rounds 3
    .venv/bin/python bench/hotpath.py --sockets --against /tmp/gridhall-compiled

Needs the ``dev`` extra (mypy ships mypyc), a C compiler and Python's headers. The
compiled copy is a measurement only: nothing installs it and CI does not build it.
It plays Gomoku, which is all the benchmarks above ask of it; the test suite does not
pass on it (``tests/server``: 56 of 543 failed in one run), because mypyc's native
classes cannot be subclassed by interpreted ones, which the other games' rooms and the
tests' doubles do.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = [
    "protocol/codec.py",
    "protocol/delta.py",
    "server/core/session.py",
    "server/core/journal.py",
    "server/core/limits.py",
    "server/core/room/room.py",
    "server/core/room/driver.py",
    "server/core/room/events.py",
    "server/core/room/views.py",
    "server/games/gomoku/game.py",
    "server/games/gomoku/rules.py",
]
"""What mypyc compiles. Left out, each because the copy would not run: the hub
(``server/core/hub.py``, ``hub_core.py``: ``Hub`` mixes in the request handlers, and
mypyc compiles no multiple inheritance), ``server/core/effects.py`` (its dataclasses'
hints are read at import), ``server/games/base.py`` (every game subclasses it), and
``protocol/messages.py`` (msgspec Structs and dataclasses read by reflection)."""


def build(out: Path) -> Path:
    """Copy and compile into ``out``; return the interpreter wrapper."""
    if out.exists():
        shutil.rmtree(out)
    package = out / "gridhall"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for folder in ("protocol", "server", "client"):
        shutil.copytree(
            ROOT / folder, package / folder, ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
    mypyc = Path(sys.executable).with_name("mypyc")
    # the project's mypy settings, read from here: a pyproject.toml inside ``out`` would be
    # taken by the build mypyc runs there as the package's own
    subprocess.run(
        [
            str(mypyc),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            *(f"gridhall/{module}" for module in CORE),
        ],
        cwd=out,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    python = out / "python"
    python.write_text(f'#!/bin/sh\nPYTHONPATH="{out}" exec "{sys.executable}" "$@"\n')
    python.chmod(0o755)
    venv = out / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").symlink_to(python)
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="where to build the compiled copy")
    python = build(parser.parse_args().out.resolve())
    print(f"compiled copy ready: bench/hotpath.py --against {python.parent}")


if __name__ == "__main__":
    main()
