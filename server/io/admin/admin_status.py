"""What the admin page shows: the ``admin-status`` message, built from the server's
state once a second while a page is open (PROTOCOL.md, "The admin channel").

Rooms' age, moves and last activity are not kept by the rooms themselves: the I/O
layer sees every journal entry it writes (:class:`RoomActivity`), which says when
a room was made, what moved and when anything last happened, without touching the
pure core or its hot path beyond one dict update per stored input.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ...core import cluster_settings
from ...core.effects import DropRoom, Log, SaveRoom, Stored
from ...core.hub import SavedRoom
from ...core.room import Room

if TYPE_CHECKING:
    from ..net.app import GameServer

HIDDEN = "(hidden)"
"""What the settings list shows for the admin token and the cluster secret."""
SECRET_SETTINGS = frozenset({"admin_token", "cluster_secret"})
URL_SETTINGS = frozenset({"cluster", "store"})
"""Settings whose URL may hold a password (shown without it)."""


class RoomActivity:
    """Per live room: when it was made, moves played, when anything last happened."""

    def __init__(self) -> None:
        self.created: dict[str, float] = {}
        self.moves: dict[str, int] = {}
        self.last: dict[str, float] = {}

    def stored(self, effect: Stored) -> None:
        """An effect the server is about to write (on the path of every move: cheap)."""
        if type(effect) is Log:
            entry, room = effect.entry, effect.room
            kind = entry.get("k")
            if kind == "msg":
                message = entry.get("m")
                if isinstance(message, dict) and message.get("type") == "move":
                    self.moves[room] = self.moves.get(room, 0) + 1
            elif kind == "computer":
                self.moves[room] = self.moves.get(room, 0) + 1
            self.last[room] = entry.get("t", 0.0)
        elif isinstance(effect, SaveRoom):
            now = float(effect.row.get("created_at") or time.time())
            self.created[effect.room] = self.last[effect.room] = now
        elif isinstance(effect, DropRoom):
            self.created.pop(effect.room, None)
            self.moves.pop(effect.room, None)
            self.last.pop(effect.room, None)

    def restored(self, rooms: Iterable[SavedRoom], now: float) -> None:
        """Rooms brought back at start: their age from their row, their last input
        from their journal (moves count from this start)."""
        for saved in rooms:
            code = saved.row["code"]
            self.created[code] = float(saved.row.get("created_at") or now)
            times = [float(e.get("t", 0.0)) for _, e in saved.entries]
            self.last[code] = max([self.created[code], *times])


def memory_bytes() -> int:
    """The server process's resident memory (its peak where /proc is missing)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def database_bytes(path: str) -> int:
    """The database file with its WAL and shared-memory files."""
    total = 0
    for name in (path, path + "-wal", path + "-shm"):
        with contextlib.suppress(OSError):
            total += os.path.getsize(name)
    return total


def _room(room: Room, activity: RoomActivity, now: float) -> dict[str, Any]:
    line = room.summary()  # the lobby's line names the host and says if it is locked
    host = line.get("host")
    if "host" not in line:  # a server without room hosts: the creator, while present
        creator = next((m for m in room.members if m.id == room.creator), None)
        host = creator.name if creator is not None else None
    created = activity.created.get(room.code, now)
    members = [
        {
            "player": m.id,
            "name": m.name,
            "role": "player" if room.seat_of(m) is not None else "spectator",
            "bot": m.bot,
            "connected": m.online,
            "address": m.address,
        }
        for m in room.members
    ]
    return {
        "room": room.code,
        "game": room.spec.name,
        "status": room.status,
        "private": room.private,
        "locked": bool(line.get("locked", False)),
        "host": host,
        "age_s": round(max(0.0, now - created), 3),
        "moves": activity.moves.get(room.code, 0),
        "last_activity_s": round(max(0.0, now - activity.last.get(room.code, created)), 3),
        "members": members,
    }


def figures(server: GameServer, now: float) -> dict[str, Any]:
    """The live figures (counters come from ``server.stats``)."""
    rooms = [r for r in server.hub.lobby.rooms.values() if not r.closed]
    by_game: Counter[str] = Counter(r.spec.name for r in rooms)
    stats = server.stats
    p50, p99 = stats.commit_percentiles()
    return {
        "players": len(server.sessions),
        "connections": len(server.connections),
        "spectators": sum(len(r.spectators) for r in rooms),
        "rooms": len(rooms),
        "rooms_by_game": dict(sorted(by_game.items())),
        "messages_per_second": round(stats.messages_per_second(now), 3),
        "refusals": dict(sorted(stats.refusals.items())),
        "commit_p50_ms": None if p50 is None else round(p50 * 1000, 3),
        "commit_p99_ms": None if p99 is None else round(p99 * 1000, 3),
        "worker_queue": stats.worker_queue(),
        "worker_busy": stats.worker_busy(),
        "memory_bytes": memory_bytes(),
        "database_bytes": database_bytes(server.config.db),
        "uptime_s": round(stats.uptime(now), 3),
    }


def settings(server: GameServer) -> list[dict[str, Any]]:
    """Every setting, its value and where it came from; retention set from the admin
    page shows ``admin page``. The admin token's and the cluster secret's values are
    never shown, nor the passwords in the Redis and PostgreSQL URLs."""
    found: dict[str, tuple[object, str]] = {}
    if server.settings is not None:
        found.update(server.settings.effective())
    else:  # started from code (tests, tools): the config is all there is
        found.update((name, (value, "default")) for name, value in vars(server.config).items())
    for key, value in server.admin_settings.items():
        found[key] = (value, "admin page")
    listed = []
    for key, (value, source) in sorted(found.items()):
        if key in SECRET_SETTINGS and value is not None:
            value = HIDDEN
        elif key in URL_SETTINGS and isinstance(value, str):
            value = cluster_settings.redacted(value)
        if isinstance(value, tuple):
            value = list(value)
        listed.append({"key": key, "value": value, "source": source})
    return listed


def status(server: GameServer, now: float) -> dict[str, Any]:
    """The whole ``admin-status`` message."""
    hub = server.hub
    rooms = [r for r in hub.lobby.rooms.values() if not r.closed]
    players = [
        {
            "player": s.identity.id,
            "name": s.identity.name,
            "address": s.identity.address,
            "room": s.identity.room.code if s.identity.room is not None else None,
        }
        for s in server.sessions.values()
        if s.identity is not None
    ]
    return {
        "type": "admin-status",
        "figures": figures(server, now),
        "rooms": [_room(r, server.activity, now) for r in rooms],
        "players": players,
        "bans": [b.to_map() for b in hub.bans.live(now)],
        "settings": settings(server),
        "retention": {key: getattr(server.config, key) for key in RETENTION_KEYS},
        "audit": server.store.admin.recent_audit(50),
        "quarantined": quarantined(server),
    }


def quarantined(server: GameServer) -> list[dict[str, Any]]:
    """The rooms set aside because they could not be restored (oldest first), with
    their members' names where the server still knows them."""
    known = server.hub.identities.by_id
    return [
        {
            "room": q.code,
            "game": q.game,
            "reason": q.reason,
            "at": q.at,
            "members": [
                {"player": pid, "name": known[pid].name if pid in known else None}
                for pid in q.members
            ],
        }
        for q in sorted(server.hub.quarantine.values(), key=lambda q: (q.at, q.code))
    ]


RETENTION_KEYS = (
    "chat_days",
    "chat_rows_per_room",
    "chat_rows",
    "games_days",
    "games_rows",
    "games_mb",
    "journal_rows",
)
"""The knobs the admin page's ``retention`` action may change (``server/io/store/retention.py``
and the journal's snapshot interval), named as their settings-file keys."""
