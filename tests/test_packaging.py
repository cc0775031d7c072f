"""The Docker build context leaves out what must never go into an image (a virtualenv
of tens of megabytes, game databases) and keeps everything the Dockerfile copies."""

from __future__ import annotations

import fnmatch
from pathlib import Path

TOP = Path(__file__).resolve().parents[1]


def ignored(path: str, patterns: list[str]) -> bool:
    parts = path.split("/")
    return any(
        fnmatch.fnmatch(path, p)
        or fnmatch.fnmatch(parts[0], p)
        or fnmatch.fnmatch(parts[-1], p.removeprefix("**/"))
        for p in patterns
    )


def test_dockerignore_leaves_out_the_venv_and_databases_but_not_the_sources() -> None:
    patterns = [
        ln.strip()
        for ln in (TOP / ".dockerignore").read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    for path in (
        ".venv/bin/python",
        "gridhall.db",
        "gridhall.db-wal",
        ".git/HEAD",
        "server/__pycache__/app.cpython-311.pyc",
    ):
        assert ignored(path, patterns), path
    copied = [
        src
        for ln in (TOP / "Dockerfile").read_text().splitlines()
        if ln.startswith("COPY ")
        for src in ln.split()[1:-1]
    ]
    for source in copied:
        assert not ignored(source, patterns), source
    assert {"protocol", "server", "client", "pyproject.toml", "README.md"} <= set(copied)
