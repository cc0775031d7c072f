"""A room: seats, spectators, chat, the game, and the order of everything.

:class:`Room` (``room.py``) is a facade: it holds the room's state and takes its
inputs; parts that are each readable and tested alone do the work:

- ``seating.py``: seats and spectators, arriving, leaving, dropping and coming back;
- ``talk.py``: chat lines, names and colours, mutes that run out;
- ``consent.py``: take-back and draw offers, and play-again;
- ``driver.py``: the game driver, every call into the game's rules and the computers;
- ``rounds.py``: when a game starts and how it ends (announced, kept, rated);
- ``answers.py``: what the room's job answers finish;
- ``views.py``: what members see, events and snapshots;
- ``host_actions.py``: what the room's host may do (lock, kick, mute, hand over, computer);
- ``events.py``: the numbered events, their replay buffer and the views deltas patch;
- ``jobs.py``: the room's one heavy job in flight and its ticket;
- ``snapshot.py``: the room as plain data for the store, and back;
- ``lifecycle.py``: the phases (waiting, playing, over, closed) as one transition table.
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
