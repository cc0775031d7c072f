"""Build a copy of gridhall whose core is compiled to C with mypyc, for a before/after.

The question it answers: how much of a move's CPU would native code take off, with
no change to the code? It copies ``protocol/``, ``server/`` and ``client/`` into
``OUT/gridhall/``, compiles the modules every move runs through (the codec and
schema, the session, hub, lobby and room, the effects, the Gomoku rules) with mypyc,
and writes ``OUT/python``, an interpreter that imports that copy first. Then:

    .venv/bin/python bench/compiled.py /tmp/gridhall-compiled    # about a minute
    .venv/bin/python bench/load.py --only echo gridhall --quick \\
        --gridhall-python /tmp/gridhall-compiled/python

Needs the ``dev`` extra (mypy ships mypyc), a C compiler and Python's headers. The
compiled copy is a measurement only: nothing installs it, CI does not build it, and
``--breakdown`` cannot time it (compiled classes cannot be patched). The test suite runs
against it (servers the tests start inherit the path too):

    PYTHONPATH=/tmp/gridhall-compiled .venv/bin/python -m pytest -q -p no:cacheprovider
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
    "protocol/schema.py",
    "protocol/delta.py",
    "protocol/errors.py",
    "protocol/cells.py",
    "server/core/hub.py",
    "server/core/room/room.py",
    "server/core/room/events.py",
    "server/core/room/jobs.py",
    "server/core/room/lifecycle.py",
    "server/core/effects.py",
    "server/core/limits.py",
    "server/core/session.py",
    "server/core/lobby.py",
    "server/core/identity.py",
    "server/games/base.py",
    "server/games/gomoku/game.py",
    "server/games/gomoku/rules.py",
    "server/games/gomoku/spec.py",
]
"""What mypyc compiles. ``protocol/messages.py`` is left out: its dataclasses are read
by reflection (``schema``), which mypyc's native classes do not support."""


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
    return python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="where to build the compiled copy")
    python = build(parser.parse_args().out.resolve())
    print(f"compiled copy ready; pass --gridhall-python {python} to bench/load.py")


if __name__ == "__main__":
    main()
