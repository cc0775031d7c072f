"""The server's layers (ARCHITECTURE.md: cli | cluster | io | core | games | protocol,
clients apart from the server) as pyproject.toml's import-linter contracts state them:
every contract is kept, and the I/O layer meets the cluster only through the small
interface of ``server/io/clustering.py``, which the command line fills in."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from gridhall.server import cli
from gridhall.server.cluster.wiring import ClusterWiring
from gridhall.server.core.config import ServerConfig
from gridhall.server.io.app import GameServer

TOP = Path(__file__).resolve().parents[2]


def contracts() -> list[dict[str, object]]:
    config = tomllib.loads((TOP / "pyproject.toml").read_text("utf-8"))
    found: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return found


def test_every_layer_contract_is_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=TOP, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    for contract in contracts():
        assert f"{contract['name']} KEPT" in done.stdout, contract["name"]


def test_the_contracts_name_the_layers_and_waive_nothing_unexplained() -> None:
    by_id = {c["id"]: c for c in contracts()}
    layers = by_id["server-layers"]
    assert layers["layers"] == [
        "__main__",
        "cli",
        "rooms_command",
        "cluster",
        "io",
        "core | bots",
        "games",
    ]
    assert layers["exhaustive"] is True and "ignore_imports" not in layers
    assert by_id["clients-apart"]["modules"] == ["gridhall.client", "gridhall.server"]
    assert by_id["protocol-at-the-bottom"]["source_modules"] == ["gridhall.protocol"]
    waived = [c["id"] for c in contracts() if c.get("ignore_imports")]
    assert waived == ["pure-core"]  # its one waiver is the purity test's WAIVED


def test_a_server_built_without_the_cluster_wiring_refuses_a_shared_store(
    tmp_path: Path,
) -> None:
    db = tmp_path / "gridhall.db"
    for config in (
        ServerConfig(db=str(db), store="postgresql://127.0.0.1:1/gridhall"),
        ServerConfig(db=str(db), cluster="redis://127.0.0.1:1/0", store="postgresql://h/g"),
    ):
        with pytest.raises(ValueError, match="cluster's wiring"):
            GameServer(config)
    assert not db.exists()  # refused before anything was opened


def test_the_command_line_builds_every_server_with_the_cluster_wiring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[GameServer] = []
    monkeypatch.setattr(cli, "serve", lambda server, *_, **__: built.append(server))
    monkeypatch.setattr(cli.loops, "run", lambda main, factory: None)
    monkeypatch.setattr(cli.collector, "install", lambda: None)
    cli.main(["--port", "0", "--no-discovery", "--db", str(tmp_path / "a.db")])
    try:
        (server,) = built
        assert isinstance(server.clustering, ClusterWiring)
        assert server.cluster is None  # a single process: nothing to join
    finally:
        server.work.close()
        server.store.close()
