"""What one commit to PostgreSQL writes: the live effects of one or more event-loop
turns (a group commit), each room fenced by the epoch its owner writes it under.

The turns of a group are written in ONE transaction, in the order they were made. Its
first statement locks the owner rows of every room it writes that this node still owns
under the epoch the turn named (:data:`LOCK`), so a takeover waits for the commit; every
later statement carries the same fence (:data:`FENCE`, or a join on ``room_owner``),
so a room whose epoch moved on writes nothing at all, whatever the rows locked. The
rooms the lock did not return are the ones another node owns now (lost).

A group of journal entries only (the common case: moves) is one statement,
:data:`TURN`: the lock and the insert together, in autocommit, one round trip.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import msgpack

from ..core.effects import (
    DropRoom,
    ForgetIdentity,
    Log,
    Quarantine,
    SaveIdentity,
    SaveRoom,
    SaveSnapshot,
    Stored,
)
from .pg_links import LINK_KINDS, PgLinks

FENCE = (
    "EXISTS (SELECT 1 FROM room_owner WHERE room = %(room)s AND epoch = %(epoch)s"
    " AND node = %(node)s)"
)
"""The condition every write of one room's state carries: its writer still owns it."""

LOCK = (
    "SELECT o.room FROM room_owner o"
    " JOIN unnest(%(fence_rooms)s::text[], %(fence_epochs)s::bigint[]) AS f(room, epoch)"
    " ON o.room = f.room AND o.epoch = f.epoch AND o.node = %(node)s"
    " ORDER BY o.room FOR UPDATE OF o"
)
"""The rooms of a group this node still owns, their owner rows locked to the commit."""

JOURNAL = (
    "INSERT INTO room_journal (room, seq, epoch, entry)"
    " SELECT t.room, t.seq, t.epoch, t.entry FROM unnest(%(rooms)s::text[],"
    " %(seqs)s::bigint[], %(epochs)s::bigint[], %(entries)s::bytea[])"
    " AS t(room, seq, epoch, entry)"
    " JOIN room_owner o ON o.room = t.room AND o.epoch = t.epoch AND o.node = %(node)s"
)
"""Journal entries of any number of rooms, each fenced by its room's epoch."""

TURN = (
    "WITH owned AS MATERIALIZED (" + LOCK + "), written AS ("
    "INSERT INTO room_journal (room, seq, epoch, entry)"
    " SELECT t.room, t.seq, t.epoch, t.entry FROM unnest(%(rooms)s::text[],"
    " %(seqs)s::bigint[], %(epochs)s::bigint[], %(entries)s::bytea[])"
    " AS t(room, seq, epoch, entry) WHERE t.room IN (SELECT room FROM owned))"
    " SELECT room FROM owned"
)
"""A group of journal entries only, in one statement: lock, fence, insert; it returns
the rooms that passed (the others wrote nothing)."""
TURN_PARAMS = ("fence_rooms", "fence_epochs", "node", "rooms", "seqs", "epochs", "entries")
TURN_TYPES = ("text[]", "bigint[]", "text", "text[]", "bigint[]", "bigint[]", "bytea[]")


def numbered(sql: str, names: Iterable[str]) -> str:
    """``sql`` with ``%(name)s`` placeholders as PostgreSQL's ``$1``, ``$2``..."""
    number = {name: i for i, name in enumerate(names, 1)}
    return re.sub(r"%\((\w+)\)s", lambda m: f"${number[m.group(1)]}", sql)


CREATE_OWNERS = (
    "INSERT INTO room_owner (room, epoch, node)"
    " SELECT r, 1, %(node)s FROM unnest(%(rooms)s::text[]) AS r ON CONFLICT (room) DO NOTHING"
)
"""New rooms: this node is their first owner (a code another node holds stays its)."""

_pack = msgpack.Packer(use_bin_type=True).pack


def pack_entry(entry: dict[str, Any]) -> bytes:
    """MessagePack, or JSON text for what MessagePack cannot hold (an entry is a map,
    so JSON starts with ``{``, which MessagePack never does for a map)."""
    try:
        packed: bytes = _pack(entry)
    except (TypeError, ValueError, OverflowError):
        return json.dumps(entry, separators=(",", ":")).encode()
    return packed


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def room_of(effect: Stored) -> str | None:
    if isinstance(effect, (Log, SaveSnapshot, SaveRoom, DropRoom, Quarantine)):
        return effect.room
    return None


@dataclass(eq=False)
class Turn:
    """One event-loop turn's live effects, each room's under the epoch this node owned
    it under when the turn was made; ``then`` runs once they are committed (its frames
    go out), after every earlier turn's."""

    effects: list[Stored]
    epochs: dict[str, int | None]
    then: Callable[[], None] | None = None


class Statements(list[tuple[str, Any]]):
    """Statements recorded in order (what :class:`PgLinks` writes, among them)."""

    def execute(self, sql: str, params: Any = None) -> None:
        self.append((sql, params))


@dataclass
class Plan:
    """The statements of one group commit and what its outcome means."""

    node: str
    fence: dict[str, int] = field(default_factory=dict)
    """The rooms written, each with the epoch it is written under."""
    created: list[str] = field(default_factory=list)
    """Rooms first written here (their owner row is made in the transaction)."""
    refused: set[str] = field(default_factory=set)
    """Rooms a turn wrote that this node did not own (lost without a statement)."""
    statements: Statements = field(default_factory=Statements)
    journaled: set[str] = field(default_factory=set)
    dropped: list[str] = field(default_factory=list)
    simple: bool = True
    """Only journal entries: the one statement :data:`TURN`."""
    _rows: list[tuple[str, int, int, bytes]] = field(default_factory=list)
    _pending: set[str] = field(default_factory=set)

    @property
    def writes(self) -> bool:
        return bool(self.fence or self.statements or self._rows)

    def add(self, effect: Stored, epoch: int | None) -> None:
        if isinstance(effect, Log):
            assert epoch is not None
            self._rows.append((effect.room, effect.n, epoch, pack_entry(effect.entry)))
            self._pending.add(effect.room)
            self.journaled.add(effect.room)
            return
        self.simple = False
        room = room_of(effect)
        if room in self._pending:  # its entries go before what follows them
            self.flush_journal()
        if room is None:
            self._unfenced(effect)
        else:
            assert epoch is not None
            self._fenced(effect, {"room": room, "epoch": epoch, "node": self.node})

    def flush_journal(self) -> None:
        """The entries so far as one statement (the general path)."""
        if self._rows:
            self.statements.execute(JOURNAL, {"node": self.node, **self.journal_params()})
            self._rows = []
            self._pending.clear()

    def journal_params(self) -> dict[str, list[Any]]:
        rows = self._rows
        return {
            "rooms": [r[0] for r in rows],
            "seqs": [r[1] for r in rows],
            "epochs": [r[2] for r in rows],
            "entries": [r[3] for r in rows],
        }

    def lock_params(self) -> dict[str, Any]:
        rooms = sorted(self.fence)
        return {
            "fence_rooms": rooms,
            "fence_epochs": [self.fence[r] for r in rooms],
            "node": self.node,
        }

    def _fenced(self, e: Stored, at: dict[str, Any]) -> None:
        run = self.statements.execute
        if isinstance(e, SaveSnapshot):
            run(
                "UPDATE live_rooms SET snapshot = %(snap)s, base = %(n)s"
                " WHERE room = %(room)s AND " + FENCE,
                {**at, "snap": _json(e.snapshot), "n": e.n},
            )
            run(
                "DELETE FROM room_journal WHERE room = %(room)s AND seq <= %(n)s AND " + FENCE,
                {**at, "n": e.n},
            )
        elif isinstance(e, SaveRoom):
            run(
                "INSERT INTO live_rooms (room, row) SELECT %(room)s, %(row)s WHERE NOT EXISTS"
                " (SELECT 1 FROM live_rooms WHERE room = %(room)s) AND " + FENCE,
                {**at, "row": _json(e.row)},
            )
        elif isinstance(e, Quarantine):  # by the room's owner, which could not replay it
            run(
                "UPDATE live_rooms SET quarantine = %(info)s WHERE room = %(room)s AND " + FENCE,
                {**at, "info": _json(e.info)},
            )
        elif isinstance(e, DropRoom):
            run("DELETE FROM live_rooms WHERE room = %(room)s AND " + FENCE, at)
            run("DELETE FROM room_journal WHERE room = %(room)s AND " + FENCE, at)
            run(
                "DELETE FROM room_owner WHERE room = %(room)s AND epoch = %(epoch)s"
                " AND node = %(node)s",
                at,
            )
            self.dropped.append(e.room)

    def _unfenced(self, e: Stored) -> None:
        if isinstance(e, SaveIdentity):
            self.statements.execute(
                "INSERT INTO identities (id, token_hash, name, color, bot, expires)"
                " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO UPDATE SET"
                " token_hash = EXCLUDED.token_hash, name = EXCLUDED.name,"
                " color = EXCLUDED.color, bot = EXCLUDED.bot, expires = EXCLUDED.expires",
                (e.player, e.token_hash, e.name, e.color, e.bot, e.expires),
            )
        elif isinstance(e, ForgetIdentity):
            self.statements.execute("DELETE FROM identities WHERE id = %s", (e.player,))
            PgLinks(lambda: self.statements).forget(e.player)
        elif isinstance(e, LINK_KINDS):
            PgLinks(lambda: self.statements).apply(e)


def plan(turns: Iterable[Turn], node: str, current: Callable[[str, int], bool]) -> Plan:
    """The group commit of ``turns``. A room whose turn named an epoch this node no
    longer owns it under (``current`` says; a room let go while the turn waited) is
    left out: only what this node still owns is written."""
    group = Plan(node)
    for turn in turns:
        for effect in turn.effects:
            room = room_of(effect)
            epoch: int | None = None
            if room is not None:
                epoch = turn.epochs.get(room)
                if epoch is None or not current(room, epoch):
                    if epoch is None:
                        group.refused.add(room)
                    continue
                group.fence[room] = epoch
                if isinstance(effect, SaveRoom) and epoch == 1 and room not in group.created:
                    group.created.append(room)
            group.add(effect, epoch)
    if group.created:
        group.simple = False
    if not group.simple:
        group.flush_journal()
    return group
