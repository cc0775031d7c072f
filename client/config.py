"""Remember the player's name and last server between runs.

A tiny JSON file, ``config.json``, in ``$GRIDHALL_CONFIG_DIR`` (tests point
this at a temp dir), else ``$XDG_CONFIG_HOME/gridhall``, else
``~/.config/gridhall``. A missing or unreadable file means defaults: a broken
config must never stop someone from playing.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

from gridhall.client.address import DEFAULT_HOST
from gridhall.protocol import DEFAULT_PORT

FILE_NAME = "config.json"


def config_dir() -> Path:
    """Where the config lives, honouring the env overrides."""
    if explicit := os.environ.get("GRIDHALL_CONFIG_DIR"):
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gridhall"


def default_name() -> str:
    """The login name, trimmed to the protocol's 32 characters."""
    try:
        name = getpass.getuser()
    except Exception:  # noqa: BLE001 - no passwd entry, odd containers
        name = ""
    return (name.strip() or "player")[:32]


@dataclass
class Config:
    """What we remember: the display name and the last server typed."""

    name: str
    server: str = f"{DEFAULT_HOST}:{DEFAULT_PORT}"


def load() -> Config:
    """Read the config, falling back to defaults for anything missing or bad."""
    cfg = Config(name=default_name())
    try:
        data = json.loads((config_dir() / FILE_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return cfg
    if isinstance(data, dict):
        if isinstance(data.get("name"), str) and data["name"].strip():
            cfg.name = data["name"].strip()[:32]
        if isinstance(data.get("server"), str) and data["server"].strip():
            cfg.server = data["server"].strip()
    return cfg


def save(cfg: Config) -> None:
    """Write the config atomically; failures are ignored (best effort)."""
    directory = config_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / (FILE_NAME + ".tmp")
        tmp.write_text(json.dumps(asdict(cfg), indent=2) + "\n", "utf-8")
        tmp.replace(directory / FILE_NAME)
    except OSError:
        pass
