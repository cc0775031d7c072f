"""Our copy of the room we are in, and how room events fold into it. No I/O.

The server sends a full ``state`` on join, resume and ``sync``, and between
snapshots only events (``moved``, ``chat``, ``game-over`` ...); a ``moved`` may carry
its view as changes to the one we hold (``delta``, which we ask for in ``hello``). :func:`apply`
folds one typed event into a :class:`RoomCopy` and says whether the copy can
no longer be trusted (a ``seq`` skipped, a delta that does not fit) so the session
should ask for a ``sync``. Arrivals and departures (``joined``, ``left``,
``player-info``) carry what the roster needs and are folded in: a room full of
coming and going spectators costs its members no ``sync``.

Nothing here is ever changed in place: every event makes a new
:class:`RoomCopy` (and a new ``State`` through ``dataclasses.replace``), and
maps inside a state are replaced, never edited. So a UI may keep a copy, or
hand it to another thread, without locks or deep copies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from gridhall import protocol as p
from gridhall.client import hosting
from gridhall.client.bounds import view_problem
from gridhall.client.messages import RoomEvent
from gridhall.protocol import delta, schema

CHAT_KEEP = 200
"""Chat lines kept in the copy (the server's snapshot holds the last 50)."""
NOTE_KEY = "event"
"""The key of a line in our copy's ``state.chat`` that is not chat but a note (a host
event, an announcement: :func:`note`) holding the event's wire map."""
KNOWN_KEEP = 512
"""Member names remembered by id (:attr:`RoomCopy.known`)."""


@dataclass(frozen=True)
class RoomCopy:
    """The last ``state`` with later events folded in, plus the transient facts a
    UI shows but a snapshot does not carry."""

    room: str
    seq: int
    state: p.State | None = None
    """None until the first snapshot arrives (right after ``joined``)."""
    again: tuple[str, ...] = ()
    """Players who asked for or agreed to another game since the last one ended."""
    declined: tuple[str, ...] = ()
    last_actions: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Each player's latest accepted move, e.g. to mark others' clicks."""
    syncing: bool = False
    """A fresh snapshot was asked for (or is due); events meanwhile are provisional."""
    view_at: float = 0.0
    """Wall-clock time the view last changed: clocks the view gives "as of the
    latest event" (``elapsed``, ``starts_in``) count on from here."""
    skew: float = 0.0
    """Our clock minus the server's, as the latest move showed it: a clock given by
    the server's time (Gomoku's ``since``) runs from our time less this, so a machine
    whose clock is off does not show the clocks off (as the browser corrects it)."""
    known: dict[str, str] = field(default_factory=dict)
    """Member id -> name, for members the state names only (spectators): learnt from
    ``joined``, ``chat`` and ``host`` events, so a host can name a spectator in a
    command and the member list can mark a spectator host."""


@dataclass(frozen=True)
class Applied:
    """The outcome of one event: the new copy (None: we are not in a room) and
    whether a fresh snapshot must be asked for."""

    room: RoomCopy | None
    sync: bool = False
    refused: str | None = None
    """Why the event was not folded in: its board is beyond what the protocol allows
    (:mod:`client.bounds`); ``room`` is then the copy as it was."""


def apply(copy: RoomCopy | None, msg: RoomEvent, me: str | None, now: float) -> Applied:
    """Fold one room event into ``copy``; ``me`` is our player id, ``now`` the
    wall-clock time the event arrived."""
    if isinstance(msg, p.State):
        problem = view_problem(msg.game, {**msg.options, **msg.view})
        if problem is not None:
            return Applied(copy, refused=problem)
        return Applied(_snapshot(copy, msg, now))
    if isinstance(msg, p.Joined) and msg.player in (None, me):
        if copy is None or copy.room != msg.room:
            return Applied(RoomCopy(room=msg.room, seq=msg.seq, syncing=True))
        return Applied(copy)
    if isinstance(msg, p.Left) and msg.player in (None, me):
        return Applied(None if copy is not None and copy.room == msg.room else copy)
    if copy is None or copy.room != msg.room:
        return Applied(copy)
    if msg.seq <= copy.seq and not copy.syncing:
        return Applied(copy)  # already covered by the snapshot we hold
    gap = msg.seq > copy.seq + 1
    copy = replace(copy, seq=max(copy.seq, msg.seq))
    if gap and not copy.syncing:
        return Applied(replace(copy, syncing=True), sync=True)
    if copy.state is None:
        return Applied(copy)  # nothing to fold into until the snapshot arrives
    return _fold(copy, copy.state, msg, now)


def _snapshot(copy: RoomCopy | None, msg: p.State, now: float) -> RoomCopy:
    old = copy.state if copy is not None and copy.room == msg.room else None
    fresh_game = (
        old is None or old.round != msg.round or (msg.status != "over" and old.status == "over")
    )
    base = copy if copy is not None and copy.room == msg.room else RoomCopy(msg.room, msg.seq)
    if fresh_game:
        base = replace(base, again=(), declined=(), last_actions={})
    again = tuple(str(x) for x in msg.pending_again) if msg.pending_again else base.again
    notes = [c for c in old.chat if c.get(NOTE_KEY)] if old is not None else []
    if notes:  # the server's chat lines know nothing of our notes: keep them, in time order
        chat = sorted([*msg.chat, *notes], key=_when)[-CHAT_KEEP:]
        msg = replace(msg, chat=chat)
    ids = msg.spectator_ids
    if isinstance(ids, list) and len(ids) == len(msg.spectators):
        for player, name in zip(ids, msg.spectators, strict=True):
            if isinstance(player, str) and isinstance(name, str):
                base = _learn(base, player, name)
    return replace(base, seq=msg.seq, state=msg, again=again, syncing=False, view_at=now)


def _when(line: Any) -> float:
    ts = line.get("ts") if isinstance(line, dict) else None
    return float(ts) if isinstance(ts, int | float) and math.isfinite(ts) else 0.0


def _skew(view: Any, now: float, known: float) -> float:
    """Our clock minus the server's: a move starts the next turn's clock at the server's
    ``since``, which is when the move arrived, less the LAN's latency."""
    clock = view.get("clock") if isinstance(view, dict) else None
    since = clock.get("since") if isinstance(clock, dict) else None
    if isinstance(since, bool) or not isinstance(since, int | float) or not math.isfinite(since):
        return known
    return now - float(since)


def _fold(copy: RoomCopy, state: p.State, msg: RoomEvent, now: float) -> Applied:
    """Apply one event to the state: only fields the event carries (no game rules)."""
    if isinstance(msg, p.Moved):
        return _fold_moved(copy, state, msg, now)
    if isinstance(msg, p.GameOver):
        state = replace(state, status="over", result=msg.result, turn=None)
        return Applied(replace(copy, state=state, again=(), declined=()))
    if isinstance(msg, p.ChatEvent):
        line = {"from": msg.sender, "name": msg.name, "text": msg.text, "ts": msg.ts}
        chat = [*state.chat, line][-CHAT_KEEP:]
        copy = _learn(copy, msg.sender, msg.name)
        return Applied(replace(copy, state=replace(state, chat=chat)))
    if isinstance(msg, p.HostEvent):
        copy = _learn(copy, msg.player, msg.name)
        logged = note(replace(copy, state=hosting.fold(state, msg)), schema.to_map(msg), now)
        return Applied(logged if logged is not None else copy)
    if isinstance(msg, p.PlayerInfoEvent):
        return _fold_info(copy, state, msg)
    if isinstance(msg, p.Joined | p.Left):  # someone else came or went
        return _fold_came_or_went(copy, state, msg)
    if isinstance(msg, p.PlayAgainEvent | p.AgreeAgainEvent):
        again = copy.again if msg.sender in copy.again else (*copy.again, msg.sender)
        return Applied(replace(copy, again=again))
    if isinstance(msg, p.DeclineAgainEvent):
        return Applied(replace(copy, declined=(*copy.declined, msg.sender)))
    if isinstance(msg, p.OfferEvent):  # the view shows a pending offer as ``pending``
        view = {**state.view, "pending": {"kind": msg.kind, "from": msg.sender}}
        return Applied(replace(copy, state=replace(state, view=view)))
    if isinstance(msg, p.AnswerEvent):
        view = {k: v for k, v in state.view.items() if k != "pending"}
        return Applied(replace(copy, state=replace(state, view=view)))
    return Applied(copy)  # resigned, notice: the state they change comes as its own event


def _fold_moved(copy: RoomCopy, state: p.State, msg: p.Moved, now: float) -> Applied:
    """A move: the new view (the delta folded in, if we asked for deltas), checked."""
    view = msg.view
    if msg.delta is not None:  # we asked for deltas: fold the changes into our view
        try:
            view = delta.apply(state.view, msg.view, msg.delta)
        except delta.DeltaError:
            return Applied(replace(copy, syncing=True), sync=not copy.syncing)
    problem = view_problem(state.game, {**state.options, **view})
    if problem is not None:
        return Applied(copy, refused=problem)
    actions = {**copy.last_actions, msg.by: dict(msg.move)}
    return Applied(
        replace(
            copy,
            state=replace(state, view=view, turn=msg.turn),
            last_actions=actions,
            view_at=now,
            skew=_skew(view, now, copy.skew),
        )
    )


def _fold_info(copy: RoomCopy, state: p.State, msg: p.PlayerInfoEvent) -> Applied:
    """A member's new name or colour: a player's entry, or a spectator's name."""
    if not any(pl.get("player") == msg.player for pl in state.players):
        if msg.previous is None:  # an older server: no way to tell whose name changed
            return Applied(replace(copy, syncing=True), sync=True)
        spectators = [msg.name if n == msg.previous else n for n in state.spectators]
        return Applied(replace(copy, state=replace(state, spectators=spectators)))
    players = [
        _with_info(pl, msg) if pl.get("player") == msg.player else pl for pl in state.players
    ]
    return Applied(replace(copy, state=replace(state, players=players)))


def _fold_came_or_went(copy: RoomCopy, state: p.State, msg: p.Joined | p.Left) -> Applied:
    """Someone else joined or left: the roster (a leaver's play-again request is off)."""
    if isinstance(msg, p.Joined):
        copy = _learn(copy, msg.player, msg.name)
    roster = _roster(state, msg)
    if roster is None:  # an older server's event, without what the roster needs
        return Applied(replace(copy, syncing=True), sync=True)
    if isinstance(msg, p.Left) and msg.player in copy.again:  # the request is off
        return Applied(replace(copy, state=replace(roster, pending_again=None), again=()))
    return Applied(replace(copy, state=roster))


def note(copy: RoomCopy | None, event: dict[str, Any], now: float) -> RoomCopy | None:
    """``copy`` with a line in the room's log that is not chat (a host event, an
    announcement): kept with the chat lines, in order, as ``{"event": wire map}``, so
    each UI words it in the player's language when it draws it. Its time is the
    server's (``now`` less our clock's skew), as chat lines carry, so a later
    snapshot's chat lines and our notes keep their order."""
    if copy is None or copy.state is None:
        return copy
    when = event.get("ts")
    if isinstance(when, bool) or not isinstance(when, int | float):
        when = now - copy.skew
    line = {"from": None, "name": "", "text": "", "ts": when, NOTE_KEY: event}
    chat = [*copy.state.chat, line][-CHAT_KEEP:]
    return replace(copy, state=replace(copy.state, chat=chat))


def _learn(copy: RoomCopy, player: str | None, name: str | None) -> RoomCopy:
    """Remember a member's name by id (bounded: a crowd of passing spectators
    does not grow it past what the room could hold)."""
    if player is None or name is None or copy.known.get(player) == name:
        return copy
    known = {k: v for k, v in copy.known.items() if k != player}
    known[player] = name
    while len(known) > KNOWN_KEEP:
        known.pop(next(iter(known)))
    return replace(copy, known=known)


def _roster(state: p.State, msg: p.Joined | p.Left) -> p.State | None:
    """The state with another member's arrival or departure folded in; None when the
    event lacks what that needs (servers before roster payloads: ask for a ``sync``)."""
    players = [pl for pl in state.players if pl.get("player") != msg.player]
    spectators = list(state.spectators)
    if isinstance(msg, p.Left):
        if len(players) == len(state.players):  # not seated: a spectator, known by name
            if msg.name is None:
                return None
            if msg.name in spectators:
                spectators.remove(msg.name)
        return replace(state, players=players, spectators=spectators)
    if msg.name is None:
        return None
    if msg.role == "spectator":
        return replace(state, players=players, spectators=[*spectators, msg.name])
    if msg.seat is None or msg.connected is None:
        return None
    entry: dict[str, Any] = {
        "player": msg.player,
        "name": msg.name,
        "seat": msg.seat,
        "connected": msg.connected,
    }
    if msg.color is not None:
        entry["color"] = msg.color
    if msg.bot is not None:
        entry["bot"] = msg.bot
    players = sorted([*players, entry], key=lambda pl: int(pl.get("seat") or 0))
    return replace(state, players=players, spectators=spectators)


def _with_info(player: dict[str, Any], msg: p.PlayerInfoEvent) -> dict[str, Any]:
    entry = {**player, "name": msg.name, "connected": msg.connected}
    if msg.color is None:
        entry.pop("color", None)
    else:
        entry["color"] = msg.color
    return entry
