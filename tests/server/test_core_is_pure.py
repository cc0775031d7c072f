"""The server's core (``server/core/``) is sans-I/O: it never imports the event loop,
sockets, a database client or threads, so it can be driven from a test, a bench or
another front end (a cluster node) exactly as it is.

Two checks, because each misses what the other sees: importing every core module in a
fresh interpreter shows what really enters ``sys.modules`` (through games, protocol,
third-party packages); reading the import statements of everything the core can reach
catches an import hidden inside a function, which only runs when that function does.

And the core is a deterministic function of its inputs: no module of its own reads a
clock, draws randomness or reads a file (:data:`IMPURE`, :data:`READS`): the time comes
in as ``now`` and randomness as an ``Entropy`` (``server/core/entropy.py``), so the
same inputs give the same outputs, every token included.
"""

from __future__ import annotations

import ast
import json
import secrets
import subprocess
import sys
import tomllib
from pathlib import Path

from gridhall import protocol as p
from tests.server.helpers import FakeServer, Seeded, connect

TOP = Path(__file__).resolve().parents[2]
CORE = TOP / "server" / "core"
FOLDERS = {"protocol": TOP / "protocol", "server": TOP / "server", "client": TOP / "client"}
"""Where each part of the ``gridhall`` import name lives in the checkout (setup.py)."""

FORBIDDEN = (
    "asyncio",
    "websockets",
    "sqlite3",
    "psycopg",
    "asyncpg",
    "redis",
    "socket",
    "threading",
    "concurrent.futures",
)


PISKVORK = "gridhall.server.games.gomoku.piskvork"
WAIVED = {
    ("threading", "gridhall.protocol.codec"),
    ("asyncio", f"{PISKVORK}.bridge"),
    ("websockets", f"{PISKVORK}.bridge"),
    ("asyncio", f"{PISKVORK}.engine"),
    ("asyncio", f"{PISKVORK}.levels"),
}
"""(module, importer) pairs let through, each for a reason: the wire codec (the protocol
layer the core speaks, not the core) keeps one msgpack packer per thread in a
``threading.local``, so a frame encoded off the loop cannot share a buffer; it starts
no thread and waits on nothing. Gomoku's Piskvork sub-package is its plug-in's bridge
to external programs, not its rules: it drives Gomocup engines over their pipes and
seats one in a room as a client; nothing the core imports reaches it."""


def forbidden(module: str) -> bool:
    """Is ``module`` (a dotted name) one of :data:`FORBIDDEN` or inside one?"""
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN)


def core_modules() -> list[str]:
    """Every module under ``server/core/``, as its import name."""
    names = []
    for path in sorted(CORE.rglob("*.py")):
        parts = path.relative_to(TOP).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append("gridhall." + ".".join(parts))
    return names


PROBE = """
import importlib, json, sys

FORBIDDEN = {forbidden!r}
seen = {{}}


class Watch:
    '''Notes who imports a forbidden module (the innermost gridhall frame), imports nothing.'''

    def find_spec(self, name, path=None, target=None):
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN) and name not in seen:
            frame, via = sys._getframe(1), "?"
            while frame is not None:
                module = frame.f_globals.get("__name__", "")
                if module.startswith("gridhall."):
                    via = module
                    break
                frame = frame.f_back
            seen[name] = via
        return None


before = set(sys.modules)
sys.meta_path.insert(0, Watch())
for module in {modules!r}:
    importlib.import_module(module)
entered = sorted(m for m in set(sys.modules) - before
                 if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
print(json.dumps({{"entered": entered, "via": seen}}))
"""


def test_importing_the_core_brings_in_no_io_module() -> None:
    modules = core_modules()
    assert "gridhall.server.core.hub" in modules and "gridhall.server.core.room" in modules
    script = PROBE.format(forbidden=FORBIDDEN, modules=modules)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=TOP, check=False
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.splitlines()[-1])
    unexplained = [m for m in report["entered"] if (m, report["via"].get(m)) not in WAIVED]
    assert unexplained == [], f"imported by (innermost gridhall module): {report['via']}"


def resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name of a ``from ... import`` in module ``importer``."""
    if not node.level:
        return node.module or ""
    package = importer.split(".") if is_package else importer.split(".")[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def source_of(module: str) -> tuple[Path, bool] | None:
    """The file of a ``gridhall`` module in this checkout (and whether it is a package)."""
    parts = module.split(".")
    if parts[0] != "gridhall" or len(parts) < 2 or parts[1] not in FOLDERS:
        return None
    folder = FOLDERS[parts[1]].joinpath(*parts[2:])
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py", True
    if folder.with_suffix(".py").is_file():
        return folder.with_suffix(".py"), False
    return None


def imports_of(module: str, path: Path, is_package: bool) -> list[tuple[str, int]]:
    """Every module an import statement anywhere in ``path`` names (in functions too),
    with its line; ``from X import y`` names ``X`` and, when it is one, the module
    ``X.y``. Imports under ``if TYPE_CHECKING:`` count: they must not name I/O either."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = resolve(module, is_package, node)
            found.append((base, node.lineno))
            found += [
                (f"{base}.{alias.name}", node.lineno)
                for alias in node.names
                if source_of(f"{base}.{alias.name}") is not None
                or forbidden(f"{base}.{alias.name}")
            ]
    return found


def test_no_import_statement_the_core_can_reach_names_an_io_module() -> None:
    """Follows every import statement from the core through gridhall's own modules
    (games, protocol), lazy ones included."""
    todo = core_modules()
    reached: set[str] = set()
    bad: list[str] = []
    while todo:
        module = todo.pop()
        if module in reached:
            continue
        reached.add(module)
        found = source_of(module)
        if found is None:
            continue
        path, is_package = found
        for name, line in imports_of(module, path, is_package):
            where = f"{path.relative_to(TOP)}:{line} imports {name}"
            if forbidden(name) and (name, module) not in WAIVED:
                bad.append(where)
            elif name.startswith("gridhall.server.io") or name == "gridhall.server.cli":
                bad.append(where + " (the core must not reach back into the I/O layer)")
            elif name.startswith("gridhall."):
                todo.append(name)
    assert "gridhall.server.games.base" in reached
    assert not [m for m in reached if m.startswith(PISKVORK)]  # its waivers stay outside
    assert bad == []


def test_the_checks_see_a_lazy_import(tmp_path: Path) -> None:
    """The statement check is not vacuous: an import inside a function is found."""
    path = tmp_path / "lazy.py"
    path.write_text("def later():\n    import sqlite3\n    from concurrent.futures import Future\n")
    names = [name for name, _ in imports_of("gridhall.server.core.lazy", path, False)]
    assert "sqlite3" in names and "concurrent.futures" in names
    assert forbidden("concurrent.futures") and not forbidden("concurrency")


def test_ci_forbids_the_same_modules_and_waives_the_same_import() -> None:
    """CI's import-linter contract (pyproject.toml, ``pure-core``) says what these checks
    say: the same modules (by top-level package, as import-linter names them) and the
    same waiver, so neither can be loosened alone."""
    config = tomllib.loads((TOP / "pyproject.toml").read_text("utf-8"))
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "pure-core"]
    assert set(contract["forbidden_modules"]) == {name.split(".")[0] for name in FORBIDDEN}
    assert "gridhall.server.core" in contract["source_modules"]
    waived = {tuple(reversed(line.split(" -> "))) for line in contract["ignore_imports"]}
    assert waived == WAIVED


IMPURE = (
    "time",
    "secrets",
    "random",
    "uuid",
    "os",
    "pathlib",
    "tempfile",
    "shutil",
    "platformdirs",
)
"""Modules no core module imports itself: clocks, randomness, files and the
environment (games and the protocol may: a game's randomness is its seed's)."""

READS = ("open", "read_text", "read_bytes", "write_text", "write_bytes", "now", "today", "utcnow")
"""Calls no core module makes: files opened or read, the date read."""

PURITY_WAIVED = {
    ("server/core/skeleton.py", "pathlib"): "the path of Unicode's confusables table",
    ("server/core/skeleton.py", "read_text"): "that table is read once, on first use: "
    "data shipped inside the package and never changed, as much a part of the program "
    "as its code (what a name looks like never depends on when or where it is read)",
    ("server/core/config.py", "pathlib"): "the default database path, a setting's value",
    ("server/core/config.py", "platformdirs"): "where that default lies is the platform's "
    "convention; only the I/O layer opens it, and nothing in the core reads the setting",
}
"""(file, module or call) pairs let through, each with the reason."""


def impurities(path: Path) -> list[tuple[str, int]]:
    """The modules of :data:`IMPURE` that ``path`` imports and the calls of
    :data:`READS` it makes, each with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in READS:
                found.append((called, node.lineno))
        found += [(n, node.lineno) for n in names if n.split(".")[0] in IMPURE]
    return found


def test_no_core_module_reads_a_clock_draws_randomness_or_reads_a_file() -> None:
    bad, used = [], set()
    for path in sorted(CORE.rglob("*.py")):
        where = str(path.relative_to(TOP))
        for name, line in impurities(path):
            if (where, name.split(".")[0]) in PURITY_WAIVED:
                used.add((where, name.split(".")[0]))
            else:
                bad.append(f"{where}:{line} {name}")
    assert bad == []
    assert used == set(PURITY_WAIVED), "a waiver no longer needed: drop it"


def test_the_purity_check_sees_clocks_randomness_and_reads(tmp_path: Path) -> None:
    path = tmp_path / "impure.py"
    path.write_text(
        "import time\nfrom secrets import token_hex\nimport os.path\n"
        "def f(p):\n    return open(p), p.read_text(), datetime.now()\n"
    )
    names = [name for name, _ in impurities(path)]
    assert names.count("time") == 1 and "secrets" in names and "os.path" in names
    assert {"open", "read_text", "now"} <= set(names)


def conversation(server: FakeServer) -> list[list[bytes]]:
    """Two people, a Minesweeper room, moves, chat and a link code: every frame each
    of them got."""
    ann, bob = connect(server, "Ann"), connect(server, "Bob", peer="10.0.0.2")
    ann.send("create-room", game="minesweeper", options={"preset": "beginner"})
    code = ann.last(p.State).room
    bob.send("join-room", room=code, role="player")
    for n, (x, y) in enumerate(((4, 4), (0, 0), (8, 8), (0, 8))):
        (ann if n % 2 else bob).send("move", 1_800_000_001.0 + n, move={"x": x, "y": y})
    ann.send("chat", text="gg")
    bob.send("link-code")
    return [ann.link.frames, bob.link.frames]


def test_the_same_inputs_give_the_same_outputs_every_token_included() -> None:
    once, again = (
        conversation(FakeServer(entropy=Seeded(7))),
        conversation(FakeServer(entropy=Seeded(7))),
    )
    assert once == again and sum(map(len, once)) > 10
    other = conversation(FakeServer(entropy=Seeded(8)))
    assert other != once  # the tokens and the room code came from the entropy passed in
    assert conversation(FakeServer(entropy=secrets)) != once
