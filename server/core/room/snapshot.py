"""A room as plain data and back: the snapshot the store keeps next to its journal.

A snapshot is what the journal entries before it added up to; a restore loads the
latest snapshot, then replays the entries after it. Taken right after a new game
started, the game itself is not written: it is made again from the room's seed (a
game is a deterministic function of it). Taken ``whole`` mid-game (every
``journal_rows`` entries, when :func:`can_snapshot` says so), the game's own saved
state is written, so the journal before it can go.

The format (:class:`Snapshot`) is what is on disk in rooms saved by every earlier
version: keys are only ever added, with a default for older snapshots.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict, cast

from ...games.base import JSON
from ..hosting import Moderation
from ..identity import Identity

if TYPE_CHECKING:
    from .room import Room


class SavedGame(TypedDict):
    """The game of a snapshot: its players and start, and (``whole``) its state."""

    players: list[str]
    started_at: float
    state: NotRequired[Any]


class Snapshot(TypedDict):
    """A room's state as the store keeps it (a JSON/msgpack map)."""

    seq: int
    chat: list[JSON]
    round: int
    games_started: int
    again: list[str] | None
    seats: list[str | None]
    spectators: list[str]
    grace: dict[str, float]
    game: SavedGame | None
    over_announced: bool
    tickets: NotRequired[int]
    hosting: NotRequired[JSON]
    options: NotRequired[JSON]
    computers: NotRequired[dict[str, str]]
    names: NotRequired[dict[str, str]]
    """Each member's name in the room (a replay needs no identity table for them)."""
    colors: NotRequired[dict[str, str]]


def game_seed(room_seed: int, games_started: int) -> int:
    """The seed of a room's n-th game: derived, so replaying a room's inputs (or
    loading a snapshot) recreates the same boards."""
    digest = hashlib.sha256(f"{room_seed}:{games_started}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def to_snapshot(room: Room, whole: bool = False) -> Snapshot:
    """``room``'s state as plain data (see the module docstring for ``whole``)."""
    game = room.game
    saved: SavedGame | None = None
    if game is not None:
        saved = {"players": list(room.game_players), "started_at": room.game_started_at}
        if whole:
            saved["state"] = game.state() if room.spec.saves_games else None
    return {
        "seq": room.seq,
        "chat": list(room.chat),
        "round": room.round_no,
        "games_started": room.games_started,
        "again": room.again,
        "seats": [s.id if s is not None else None for s in room.seats],
        "spectators": [s.id for s in room.spectators],
        "grace": dict(room.grace),
        "game": saved,
        "over_announced": room.over_announced,
        "tickets": room.jobs.tickets,
        "hosting": room.mod.to_json(),
        "options": room.options,
        "computers": {s.id: s.bot for s in room.seated if s.bot},
        "names": {m.id: m.name for m in room.members},
        "colors": {m.id: m.color for m in room.members if m.color is not None},
    }


def can_snapshot(room: Room) -> bool:
    """Can :func:`to_snapshot` (``whole``) describe the room now? Not while a job is
    out (its answer is journalled after), nor for a game that cannot be saved whole
    mid-game."""
    if room.jobs.pending is not None or room.jobs.start_queued:
        return False
    game = room.game
    return game is None or room.spec.saves_games


def load_snapshot(room: Room, snap: Snapshot | JSON, member: Callable[[str], Identity]) -> None:
    """Make the new ``room`` the one ``snap`` described; ``member`` gives the identity
    each member is replayed as, which takes the member's name and colour in the room
    (older snapshots: what ``member`` has) and whether it was connected then (a human
    is, unless its reconnect grace runs)."""
    data = cast(JSON, snap)
    room.seq = int(data["seq"])
    room.chat.extend(data["chat"])
    room.round_no = int(data["round"])
    room.games_started = int(data["games_started"])
    room.again = data["again"]
    room.grace = {k: float(v) for k, v in data["grace"].items()}
    room.over_announced = bool(data["over_announced"])
    room.jobs.tickets = int(data.get("tickets", 0))
    room.mod = Moderation.from_json(data.get("hosting"), room.creator)
    room.options = data.get("options", room.options)  # a host may swap the computer
    names: dict[str, str] = data.get("names", {})
    colors: dict[str, str] = data.get("colors", {}) if "names" in data else {}

    def arrive(pid: str) -> Identity:
        ident = member(pid)
        ident.name = names.get(pid, ident.name)
        if "names" in data:
            ident.color = colors.get(pid)
        ident.connected = ident.bot is None and pid not in room.grace
        return ident

    for n, pid in enumerate(data["seats"]):
        if pid is not None:
            ident = arrive(pid)
            room.seats[n], ident.room, ident.role = ident, room, "player"
    for pid in data["spectators"]:
        ident = arrive(pid)
        room.spectators.append(ident)
        ident.room, ident.role = room, "spectator"
    game = data["game"]
    if game is not None:
        room.game_players = list(game["players"])
        room.game_started_at = float(game["started_at"])
        if game.get("state") is not None:
            room.game = room.spec.restore_game(game["state"])
        else:
            room.game = room.spec.new_game(
                room.options,
                room.game_players,
                room.round_no,
                game_seed(room.seed, room.games_started - 1),
                room.game_started_at,
            )
    room.life.restore(room.game is not None, room.game is not None and room.game.result is not None)
