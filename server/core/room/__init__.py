"""A room: seats, spectators, chat, the game, and the order of everything.

:class:`Room` (``room.py``) composes parts that are each readable and tested alone:

- ``events.py``: the numbered events, their replay buffer and the views deltas patch;
- ``jobs.py``: the room's one heavy job in flight and its ticket;
- ``snapshot.py``: the room as plain data for the store, and back;
- ``lifecycle.py``: the phases (waiting, playing, over, closed) as one transition table;
- ``host_actions.py``: what the room's host may do (lock, kick, mute, hand over, computer).
"""

from __future__ import annotations

from .events import EVERYONE, RECENT_BYTES, RECENT_EVENTS, EventLog
from .jobs import BUSY_RETRY, JobSlot, Pending
from .lifecycle import Lifecycle, LifecycleError, Phase, Step
from .room import CHAT_HISTORY, Room, RoomHost
from .snapshot import Snapshot, game_seed

__all__ = [
    "BUSY_RETRY",
    "CHAT_HISTORY",
    "EVERYONE",
    "RECENT_BYTES",
    "RECENT_EVENTS",
    "EventLog",
    "JobSlot",
    "Lifecycle",
    "LifecycleError",
    "Pending",
    "Phase",
    "Room",
    "RoomHost",
    "Snapshot",
    "Step",
    "game_seed",
]
