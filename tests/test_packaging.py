"""What ships: the Docker build context leaves out what must never go into an image (a
virtualenv of tens of megabytes, game databases) and keeps everything the Dockerfile
copies; the wheel's package data holds what the clients load, and no test-only file."""

from __future__ import annotations

import fnmatch
import tomllib
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


def package_data() -> set[str]:
    """The files pyproject's package-data globs take into the wheel, resolved in each
    package's folder as setuptools resolves them (setup.py maps ``gridhall.X`` onto
    ``X/``)."""
    config = tomllib.loads((TOP / "pyproject.toml").read_text("utf-8"))
    found: set[str] = set()
    for package, patterns in config["tool"]["setuptools"]["package-data"].items():
        folder = TOP.joinpath(*package.split(".")[1:])
        for pattern in patterns:
            found |= {p.relative_to(TOP).as_posix() for p in folder.glob(pattern) if p.is_file()}
    return found


def test_the_wheel_ships_what_the_page_loads_but_not_the_test_only_axe() -> None:
    shipped = package_data()
    assert {
        "client/web/index.html",
        "client/web/vendor/msgpack.min.js",
        "client/web/vendor/msgpack.LICENSE",
        "client/web/vendor/qrcode.mjs",
    } <= shipped
    assert [f for f in shipped if "axe" in f] == []
    # Nor can it come in as a package folder's other data (include-package-data):
    assert [p for p in (TOP / "client").rglob("axe*")] == []
    assert (TOP / "tests" / "web" / "vendor" / "axe.min.js").is_file()
    assert (TOP / "tests" / "web" / "vendor" / "axe.LICENSE").is_file()
