"""A room's event log alone: one ``seq`` per event, a bounded replay buffer, deltas
only to those who asked, and a ``state`` (None) when an event is no longer kept."""

from __future__ import annotations

from gridhall import protocol as p
from gridhall.server.core.effects import Outbox
from gridhall.server.core.identity import Identity
from gridhall.server.core.room.events import EVERYONE, RECENT_EVENTS, EventLog

LONG = list(range(20))
"""A list long enough to be sent as a delta (``protocol/delta.py``: 16 items or more)."""


def member(pid: str, deltas: bool = False, bot: str | None = None) -> Identity:
    return Identity(id=pid, token_hash="t" + pid, name=pid, deltas=deltas, bot=bot)


def chat(seq: int, text: str = "hi") -> p.ChatEvent:
    return p.ChatEvent(room="R", seq=seq, sender="a", name="a", text=text, ts=0.0)


def moved(seq: int, moves: list[int]) -> p.Moved:
    return p.Moved(room="R", seq=seq, by="a", move={"x": 0}, view={"moves": moves}, turn=None)


def test_every_recipient_of_an_event_gets_the_same_seq() -> None:
    log, out = EventLog(), Outbox()
    assert log.broadcast(out, ["a", "b"], chat) == 1
    assert log.broadcast(out, ["a"], chat) == 2
    sends = out.sent()
    assert [s.to for s in sends] == [("a", "b"), ("a",)]
    assert [s.msg.seq for s in sends] == [1, 2] and log.seq == 2


def test_an_event_to_nobody_still_takes_a_seq_and_is_kept_as_nothing() -> None:
    log, out = EventLog(), Outbox()
    log.broadcast(out, [], chat)
    assert out.effects == [] and log.seq == 1
    assert log.missed(member("a"), None, 0) == []


def test_missed_gives_the_frames_after_since_as_they_were_sent() -> None:
    log, out = EventLog(), Outbox()
    for n in range(3):
        log.broadcast(out, ["a", "b"], lambda s, n=n: chat(s, f"line {n}"))
    again = log.missed(member("b"), None, 1)
    assert again is not None
    assert [p.decode(s.frame, "server").text for s in again] == ["line 1", "line 2"]
    assert all(s.to == ("b",) for s in again)
    assert log.missed(member("b"), None, 3) == []


def test_an_event_that_was_not_for_a_member_is_not_replayed_to_it() -> None:
    log, out = EventLog(), Outbox()
    log.broadcast(out, ["a"], chat)
    log.broadcast(out, ["a", "b"], chat)
    again = log.missed(member("b"), None, 0)
    assert again is not None and [p.decode(s.frame, "server").seq for s in again] == [2]


def test_past_the_bound_the_oldest_events_go_and_missed_asks_for_a_state() -> None:
    log, out = EventLog(), Outbox()
    for _ in range(RECENT_EVENTS + 5):
        log.broadcast(out, ["a"], chat)
    assert len(log.recent) == RECENT_EVENTS
    assert log.missed(member("a"), None, 2) is None  # event 3 is gone
    kept = log.missed(member("a"), None, 5)
    assert kept is not None and len(kept) == RECENT_EVENTS


def test_views_go_as_deltas_only_to_members_who_asked_for_them() -> None:
    log, out = EventLog(), Outbox()
    fold, whole = member("f", deltas=True), member("w")
    groups: dict[str | None, list[Identity]] = {None: [fold, whole]}
    log.broadcast_views(out, groups, lambda s, v: moved(s, LONG), deltas=True)
    log.broadcast_views(out, groups, lambda s, v: moved(s, [*LONG, 99]), deltas=True)
    last = out.sent()[-2:]
    by_to = {s.to: s.msg for s in last}
    assert by_to[("w",)].view == {"moves": [*LONG, 99]} and by_to[("w",)].delta is None
    assert by_to[("f",)].delta == {"moves": {"at": len(LONG), "append": [99]}}
    assert log.views[EVERYONE] == {"moves": [*LONG, 99]}
    folded = log.missed(fold, None, 1)
    plain = log.missed(whole, None, 1)
    assert folded is not None and p.decode(folded[0].frame, "server").delta is not None
    assert plain is not None and p.decode(plain[0].frame, "server").delta is None


def test_a_snapshot_that_differs_from_the_last_view_makes_the_next_event_whole() -> None:
    log, out = EventLog(), Outbox()
    fold = member("f", deltas=True)
    groups: dict[str | None, list[Identity]] = {None: [fold]}
    log.broadcast_views(out, groups, lambda s, v: moved(s, LONG), deltas=True)
    log.snapshot_taken(None, {"moves": LONG})  # the same: deltas go on
    assert EVERYONE in log.views
    log.snapshot_taken(None, {"moves": [9]})  # changed with no event: start again whole
    assert EVERYONE not in log.views
    log.broadcast_views(out, groups, lambda s, v: moved(s, [*LONG, 2]), deltas=True)
    assert out.sent()[-1].msg.delta is None
