"""Server settings, with defaults chosen for a LAN game server."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

from gridhall.protocol import DEFAULT_PORT


def default_db_path() -> Path:
    """Where the server keeps its database unless told otherwise: the user's data
    folder by the platform's convention (e.g. ~/.local/share/gridhall on Linux)."""
    return platformdirs.user_data_path("gridhall", appauthor=False) / "gridhall.db"


@dataclass
class ServerConfig:
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    name: str = "gridhall"
    db: str = field(default_factory=lambda: str(default_db_path()))
    grace_seconds: float = 60.0
    """How long a dropped player's seat is kept for a reconnect."""
    max_rooms: int = 200
    max_connections: int = 500
    max_connections_per_ip: int = 50
    rate_per_second: float = 20.0
    """Sustained messages per second per connection; normal play is far below."""
    rate_burst: int = 60
    chat_lines: int = 8
    chat_window: float = 10.0
    """At most ``chat_lines`` chat messages per ``chat_window`` seconds."""
    max_bad_messages: int = 50
    """Bad frames tolerated on one connection before it is closed with 1008."""
    max_rate_strikes: int = 100
    ping_interval: float = 10.0
    ping_timeout: float = 10.0
    """A dead peer is noticed within ping_interval + ping_timeout (about 20 s)."""
    send_queue: int = 512
    """Frames queued for one slow client before it is dropped (never stalls a room)."""
    durable_commits: bool = False
    """Sync the store on every commit (survives power loss; slower). See server/store.py."""
    ai_workers: int = 2
    ai_budget: float = 2.0
    """Seconds the hard computer opponent may think per move."""
