"""Remember the player's name, last server, and each server's token between runs.

A tiny JSON file, ``config.json``, in ``$GRIDHALL_CONFIG_DIR`` (tests point
this at a temp dir), else ``$XDG_CONFIG_HOME/gridhall``, else
``~/.config/gridhall``. A missing or unreadable file means defaults: a broken
config must never stop someone from playing.

``tokens`` maps a server's URL to the secret token it gave us, so a client
started again (after a crash, a closed terminal, a reboot) says hello with it and
goes straight back to its seat. The file is written readable by its owner only.
"""

from __future__ import annotations

import getpass
import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from gridhall.protocol import DEFAULT_PORT
from gridhall.protocol.address import DEFAULT_HOST

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


MAX_TOKENS = 32
"""Servers whose tokens we keep (the most recently used)."""


@dataclass
class Config:
    """What we remember: the display name, the last server typed, and tokens."""

    name: str
    server: str = f"{DEFAULT_HOST}:{DEFAULT_PORT}"
    tokens: dict[str, str] = field(default_factory=dict)
    """Server URL -> the token that server gave us (most recently used last)."""


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
        tokens = data.get("tokens")
        if isinstance(tokens, dict):
            cfg.tokens = {
                k: v
                for k, v in tokens.items()
                if isinstance(k, str) and isinstance(v, str) and 0 < len(v) <= 128
            }
    return cfg


def save(cfg: Config) -> None:
    """Write the config atomically; failures are ignored (best effort)."""
    directory = config_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / (FILE_NAME + ".tmp")
        tmp.touch(mode=0o600)
        tmp.chmod(0o600)  # it holds tokens: the owner's eyes only
        tmp.write_text(json.dumps(asdict(cfg), indent=2) + "\n", "utf-8")
        tmp.replace(directory / FILE_NAME)
    except OSError:
        pass


def saved_token(url: str) -> str | None:
    """The token ``url``'s server gave us last time, if we kept one."""
    return load().tokens.get(url)


def save_token(url: str, token: str) -> None:
    """Keep ``url``'s token for the next run (re-reads the file: another client
    instance may have saved meanwhile)."""
    cfg = load()
    if cfg.tokens.get(url) == token and list(cfg.tokens)[-1:] == [url]:
        return
    tokens = {k: v for k, v in cfg.tokens.items() if k != url}
    tokens[url] = token
    cfg.tokens = dict(list(tokens.items())[-MAX_TOKENS:])
    save(cfg)
