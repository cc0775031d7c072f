"""Bringing rooms back from the store after a restart (or a cluster takeover).

A room is its snapshot plus the journal entries after it (``server/core/journal.py``),
replayed through the code paths that first handled them. Two rules keep that safe:

- **Replay never needs the identity table to be complete.** Each room replays on a
  :class:`Cast` of its own: a fresh copy of everyone its snapshot and journal name,
  made on first mention from the stored identity if there still is one, else as a
  stand-in (a guest who watched, chatted or was kicked and whose grace ended since,
  a computer a host removed). Entries carry the name and colour someone arrived
  under, and snapshots each member's, so a stand-in replays exactly as the person
  did. Only the room's final members become live identities again (:meth:`Restorer.bind`);
  the rest of the cast is dropped, as a live server forgot them.
- **Identities never depend on their room.** Every stored identity comes back on its
  own; a room that cannot be replayed (a game this version does not host, an entry it
  cannot read, a bug) is set aside, its rows and the reason kept under a quarantine
  the operator sees (the start-up log, the admin page, ``gridhall-server rooms
  --quarantined``), never tried again at each start, never deleted without the
  operator. Its members keep their identities and are told ``room-lost`` when they
  say hello with their token.

Old host actions and game starts are not logged again while a journal replays
(:func:`quietly`); each restored room gets one summary line instead.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from ..games.base import JSON
from .effects import DropRoom, Effect, Outbox, Quarantine, Wake
from .identity import Identity
from .journal import (
    Back,
    Closed,
    ComputerMoved,
    ComputerSeated,
    Gone,
    JobAnswered,
    Joined,
    JournalError,
    Request,
    Restored,
    Tick,
)
from .journal import decode as decode_entry
from .names import computer_name
from .room import Room

if TYPE_CHECKING:
    from .hub import Hub, SavedRoom

log = logging.getLogger("gridhall.hub")


@dataclass
class Quarantined:
    """A room set aside because it could not be restored: why, when, and who was in
    it (to be told ``room-lost``). Its rows stay in the store as they were."""

    code: str
    game: str
    reason: str
    at: float
    members: list[str] = field(default_factory=list)

    def to_json(self) -> JSON:
        return {"game": self.game, "reason": self.reason, "at": self.at, "members": self.members}

    @classmethod
    def from_json(cls, code: str, data: JSON) -> Quarantined:
        return cls(
            code,
            str(data.get("game", "")),
            str(data.get("reason", "")),
            float(data.get("at", 0.0)),
            [str(m) for m in data.get("members", [])],
        )


def lost_message(code: str, reason: str) -> str:
    """``room-lost``'s sentence (the client shows its own, translated, from ``room`` and
    ``reason``)."""
    return (
        f"Your room {code} could not be restored after the server restarted ({reason}); "
        "the server's operator keeps it aside. You are in the lobby."
    )


def room_lost(q: Quarantined) -> p.Error:
    return p.Error(
        code=ErrorCode.ROOM_LOST.value,
        message=lost_message(q.code, q.reason),
        room=q.code,
        reason=q.reason,
    )


class _Quiet(logging.Filter):
    """Drops the rooms' and the hub's log lines while a journal replays: what they
    say happened before the restart, and was logged then."""

    depth = 0

    def filter(self, record: logging.LogRecord) -> bool:
        return self.depth == 0


_QUIET = _Quiet()
for _name in ("gridhall.room", "gridhall.hub"):
    logging.getLogger(_name).addFilter(_QUIET)


@contextlib.contextmanager
def quietly() -> Iterator[None]:
    _QUIET.depth += 1
    try:
        yield
    finally:
        _QUIET.depth -= 1


class Cast:
    """The people one room's replay acts on (see the module docstring): copies, so a
    replay changes nobody's live state, made from ``known`` (the stored identity)
    or as stand-ins for those forgotten since."""

    def __init__(self, known: Callable[[str], Identity | None]) -> None:
        self.known = known
        self.people: dict[str, Identity] = {}
        self.stand_ins = 0
        """People the store no longer has (left, and forgotten since)."""

    def get(self, pid: str) -> Identity:
        ident = self.people.get(pid)
        if ident is None:
            live = self.known(pid)
            if live is None:
                self.stand_ins += 1
                ident = Identity(id=pid, token_hash="gone:" + pid, name="?")
            else:
                ident = Identity(
                    id=pid,
                    token_hash=live.token_hash,
                    name=live.name,
                    color=live.color,
                    bot=live.bot,
                )
            self.people[pid] = ident
        return ident

    def arrive(self, pid: str, name: str | None, color: str | None) -> Identity:
        """Someone arriving under ``name`` and ``color`` (None: not journalled, an older
        entry: as the store has them)."""
        ident = self.get(pid)
        if name is not None:
            ident.name, ident.color = name, color
        return ident

    def computer(self, pid: str, level: str) -> Identity:
        """A computer player seated at ``level`` (named for it, as when it was made)."""
        ident = self.get(pid)
        if ident.bot is None or ident.token_hash.startswith("gone:"):
            ident.token_hash = "computer:" + pid
        ident.bot, ident.name = level, computer_name(level)
        return ident


@dataclass
class Replayed:
    """What replaying one stored room gave: the room (None if it closed in its own
    journal, or could not be restored: then ``reason`` says why)."""

    room: Room | None
    cast: Cast
    entries: int = 0
    reason: str | None = None
    members: list[str] = field(default_factory=list)
    error: BaseException | None = None


class Restorer:
    """Brings one hub's rooms back (see the module docstring)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # -- a whole restart ------------------------------------------------------
    def restore(
        self,
        rows: list[JSON],
        rooms: Iterable[SavedRoom],
        now: float,
        down_since: float,
        quarantined: Iterable[Quarantined] = (),
    ) -> list[Effect]:
        hub = self.hub
        out = Outbox()
        for q in quarantined:
            hub.set_aside(q)
        restored: list[Room] = []
        for saved in rooms:
            room = self.bring_back(out, saved, now, down_since)
            if room is not None:
                restored.append(room)
        self.sweep(out, {row["id"]: row["expires"] for row in rows}, now)
        log.info(
            "restored %d rooms and %d identities after %.0f s down%s",
            len(restored),
            len(hub.identities),
            max(0.0, now - down_since),
            f"; {len(hub.quarantine)} rooms set aside (gridhall-server rooms --quarantined)"
            if hub.quarantine
            else "",
        )
        return out.effects

    def bring_back(
        self, out: Outbox, saved: SavedRoom, now: float, down_since: float
    ) -> Room | None:
        """Replay one stored room and make it live (its clocks past the time since
        ``down_since`` or its last entry, everyone given the grace period from now);
        set it aside if it cannot be restored, drop it if its journal closed it."""
        hub = self.hub
        replayed = self.replay_room(saved)
        room = replayed.room
        code = str(saved.row["code"])
        if room is None:
            if replayed.reason is None:
                out.add(DropRoom(code))
                return None
            q = Quarantined(code, str(saved.row.get("game", "")), replayed.reason, now)
            q.members = [m for m in replayed.members if not _is_computer(replayed.cast, m)]
            hub.set_aside(q)
            out.add(Quarantine(code, q.to_json()))
            log.error(
                "room %s could not be restored (%s); set aside with its rows for the "
                "operator (gridhall-server rooms --quarantined); %d members told room-lost",
                code,
                q.reason,
                len(q.members),
                extra={"room": code},
                exc_info=replayed.error,
            )
            return None
        self.bind(room, replayed.cast)
        last_seen = max([down_since, *(float(e["t"]) for _, e in saved.entries)])
        downtime = max(0.0, now - last_seen)
        hub._input(
            out,
            room,
            Restored(downtime),
            now,
            functools.partial(room.restored, out, now, downtime),
            force=True,
        )
        log.info("%s", summary(room, replayed, downtime), extra={"room": code})
        return room

    def sweep(self, out: Outbox, expiries: dict[str, float | None], now: float) -> None:
        """Every identity that came back roomless is kept or forgotten as a live server
        would have, all connections having dropped at the restart: a computer goes, a
        person is kept for its stored expiry, or (online when the server stopped) for
        the grace period from now (longer with a rating or a live link code); a member
        of a room set aside is kept until told ``room-lost``."""
        hub = self.hub
        for ident in list(hub.identities.by_id.values()):
            if ident.room is not None or ident.id in hub.lost:
                continue
            if ident.bot is not None:
                hub._forget(out, ident)
                continue
            at = expiries.get(ident.id)
            code_end = hub.links.expires(ident.id)  # kept while its link code works
            if at is not None and code_end is not None and code_end > max(at, now):
                at = code_end
            if at is None:
                hub._expire_later(out, ident, now)
            elif at <= now:
                hub._forget(out, ident)
            else:
                hub._expiry[ident.id] = at
                out.add(Wake("@" + ident.id, at))

    # -- one room ---------------------------------------------------------------
    def replay_room(self, saved: SavedRoom) -> Replayed:
        """Replay one stored room on a cast of its own (nothing live is touched)."""
        hub = self.hub
        cast = Cast(hub.identities.by_id.get)
        try:
            room = self.new_room(saved.row)
        except Exception as exc:  # a row this version cannot read
            reason = f"its row: {type(exc).__name__}: {exc}"
            return Replayed(None, cast, reason=reason, members=_named(saved), error=exc)
        if room is None:
            reason = f"this server does not host the game {saved.row['game']!r} any more"
            return Replayed(None, cast, reason=reason, members=_named(saved))
        hub.lobby.rooms[room.code] = room
        hub._journal_n[room.code] = saved.base
        hub._snapshot_n[room.code] = saved.base
        hub._replaying, hub._cast = True, cast
        done = 0
        where = "its snapshot"
        failure: str | None = None
        error: BaseException | None = None
        try:
            with quietly():
                if saved.snapshot is not None:
                    for pid, level in saved.snapshot.get("computers", {}).items():
                        cast.computer(pid, level)
                    room.load_snapshot(saved.snapshot, cast.get)
                for n, entry in saved.entries:
                    where = f"journal entry {n}"
                    self.replay_entry(room, cast, entry)
                    hub._journal_n[room.code] = n
                    done += 1
        except Exception as exc:
            failure, error = f"{where}: {type(exc).__name__}: {exc}", exc
        finally:
            hub._replaying, hub._cast = False, None
        if failure is not None:
            members = room.member_ids() or _named(saved)
            hub.forget_room(room.code)
            return Replayed(None, cast, done, failure, members, error)
        if room.closed:
            hub.forget_room(room.code)
            return Replayed(None, cast, done)
        room.max_spectators = hub.config.max_spectators  # none while its journal replays
        room.ratings = hub.ratings  # nor ratings: the store holds what its games changed
        return Replayed(room, cast, done)

    def new_room(self, row: JSON) -> Room | None:
        """The room a stored row describes, empty (None: its game is not hosted here)."""
        hub = self.hub
        spec = hub.lobby.games.get(row["game"])
        if spec is None:
            return None
        return Room(
            hub,
            row["code"],
            spec,
            row["options"],
            row["creator"],
            bool(row["private"]),
            _unb64(row["password"]),
            _unb64(row["salt"]) or b"",
            int(row["seed"]),
            hub.config.grace_seconds,
            address=row.get("address", ""),
        )

    def replay_entry(self, room: Room, cast: Cast, data: JSON) -> None:
        """Feed one journal entry through the code path that first handled it, as the
        cast member it names."""
        hub = self.hub
        out = Outbox()  # everything sent during a replay was sent before the restart
        now = float(data["t"])
        try:
            entry = decode_entry(data)
            match entry:
                case Tick():
                    room.tick(out, now)
                case Restored(down=down):
                    room.restored(out, now, down)
                case JobAnswered(ticket=ticket, answer=answer, player=player):
                    if player is not None:  # a job's answer, as it came (never asked again)
                        asker = cast.arrive(player, entry.name, entry.color)
                        # one in another room by then is, to this room, as good as gone
                        asker.connected = bool(entry.connected) and not entry.elsewhere
                    room.work_done(out, ticket, answer, now)
                case Closed():
                    raise JournalError("a closed room's input is never journalled")
                case Request(player=player, message=msg):
                    # The sender was connected and in this room (or joining it) back then.
                    joining = isinstance(msg, p.JoinRoom)
                    ident = (
                        cast.arrive(player, entry.name, entry.color)
                        if joining
                        else cast.get(player)
                    )
                    ident.connected = True
                    ident.room = None if joining else room
                    hub.replay_request(out, ident, msg, now, entry)
                case Joined(player=player, role=role):
                    ident = cast.arrive(player, entry.name, entry.color)
                    ident.connected = True
                    room.enter(out, ident, role, now, None)
                case ComputerSeated(player=player, level=level):
                    room.seat_computer(out, cast.computer(player, level), now)
                case Gone(player=player):
                    ident = cast.get(player)
                    ident.connected = False
                    room.disconnected(out, ident, now)
                case Back(player=player, since=since):
                    ident = cast.get(player)
                    ident.connected = True
                    room.resumed(out, ident, now, None, since)
                case ComputerMoved(player=player, request=request, move=move):
                    bot = cast.get(player)
                    room.thinking[bot.id] = request
                    room.computer_move(out, bot, request, move, now)
        except ProtocolError:
            pass  # it was refused the first time too (and journalled for its side effect)

    def bind(self, room: Room, cast: Cast) -> None:
        """The replayed room's final members become live identities: the stored one
        (taking the name and colour the room gave it), or, for a member the store lost
        (it never should), the cast's copy itself. The rest of the cast is dropped."""
        hub = self.hub

        def live(member: Identity, role: Any) -> Identity:
            ident = hub.identities.by_id.get(member.id)
            if ident is None:
                ident = member
                hub.identities.add(ident)
            else:
                ident.name, ident.color, ident.bot = member.name, member.color, member.bot
            ident.room, ident.role = room, role
            hub.lost.pop(ident.id, None)
            return ident

        for n, seat in enumerate(room.seats):
            if seat is not None:
                room.seats[n] = live(seat, "player")
        room.spectators = [live(s, "spectator") for s in room.spectators]
        pending = room.jobs.pending
        if pending is not None and pending.ident is not None:
            found = room.member(pending.ident.id)
            if found is not None:
                pending.ident = found


def summary(room: Room, replayed: Replayed, downtime: float) -> str:
    """One line saying what came back (instead of the replayed inputs' own lines)."""
    host = room.member(room.mod.host) if room.mod.host else None
    parts = [
        f"room {room.code} restored: {room.spec.name}, {room.status}, round {room.round_no + 1}",
        f"seq {room.seq}",
        "seated " + (", ".join(s.name for s in room.seated) or "nobody"),
        f"{len(room.spectators)} spectators",
        f"host {host.name if host else 'nobody'}",
    ]
    if room.mod.locked:
        parts.append("locked")
    if room.mod.muted:
        parts.append(f"{len(room.mod.muted)} muted")
    if room.mod.kicked:
        parts.append(f"{len(room.mod.kicked)} kicked")
    parts.append(f"{replayed.entries} journal entries replayed")
    if replayed.cast.stand_ins:
        parts.append(f"{replayed.cast.stand_ins} members forgotten since replayed as stand-ins")
    parts.append(f"clocks skip {downtime:.0f} s")
    return "; ".join(parts)


def _named(saved: SavedRoom) -> list[str]:
    """Who a stored room's snapshot seats or watches, for a room never replayed."""
    snap = saved.snapshot or {}
    found = [pid for pid in snap.get("seats", []) if pid is not None]
    found += list(snap.get("spectators", []))
    for _, entry in saved.entries:  # and whoever its journal let in since
        if entry.get("k") == "join" or (
            entry.get("k") == "msg" and (entry.get("m") or {}).get("type") == "join-room"
        ):
            found.append(str(entry.get("p")))
    return list(dict.fromkeys(found))


def _is_computer(cast: Cast, pid: str) -> bool:
    ident = cast.people.get(pid) or cast.known(pid)
    return ident is not None and ident.bot is not None


def _unb64(text: str | None) -> bytes | None:
    return None if text is None else base64.b64decode(text)
