"""--server parsing and the remembered name/server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gridhall.client import config
from gridhall.protocol.address import AddressError, server_url


@pytest.mark.parametrize(
    ("text", "url"),
    [
        (None, "ws://localhost:8765/"),
        ("", "ws://localhost:8765/"),
        ("192.168.1.20", "ws://192.168.1.20:8765/"),
        ("gamebox:9000", "ws://gamebox:9000/"),
        ("[fe80::1]:9000", "ws://[fe80::1]:9000/"),
        ("::1", "ws://[::1]:8765/"),
        ("ws://host:1234", "ws://host:1234/"),
        ("wss://host/x", "wss://host/x"),
    ],
)
def test_server_forms_become_ws_urls(text: str | None, url: str) -> None:
    assert server_url(text) == url


@pytest.mark.parametrize("text", ["host:0", "host:70000", "host:abc", "http://x", "a b", "[::1"])
def test_bad_server_text_says_why(text: str) -> None:
    with pytest.raises(AddressError, match=r"."):
        server_url(text)


def test_config_round_trips_in_the_env_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path / "cfg"))
    cfg = config.load()
    assert cfg.name  # the login name (or a fallback)
    cfg.name, cfg.server = "ann", "box:9000"
    config.save(cfg)
    assert json.loads((tmp_path / "cfg" / "config.json").read_text())["server"] == "box:9000"
    again = config.load()
    assert (again.name, again.server) == ("ann", "box:9000")


def test_broken_config_falls_back_to_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path))
    (tmp_path / "config.json").write_text("{not json")
    assert config.load().server == "localhost:8765"


def test_xdg_config_home_is_honoured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GRIDHALL_CONFIG_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config.config_dir() == tmp_path / "gridhall"
