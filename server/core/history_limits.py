"""How much history the store keeps, as settings: the limits without the pruning.

The pruning itself runs SQL and lives in ``server/io/store/retention.py``; the limits are
plain settings the pure :class:`~gridhall.server.core.config.ServerConfig` hands over.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """What the store keeps; 0 for any of them means no limit of that kind."""

    chat_days: float = 30.0
    chat_rows_per_room: int = 500
    chat_rows: int = 200_000
    games_days: float = 365.0
    games_rows: int = 10_000
    games_mb: float = 256.0
