"""A room's numbered events: ``seq``, the replay buffer, and the views deltas patch.

Each event the room emits takes the next ``seq``, and every recipient gets the same
number. The latest events are kept, as the frames that went out, so a client that
missed some (``sync`` or ``hello`` with ``since``) gets exactly those frames again
instead of a whole ``state``; past :data:`RECENT_EVENTS` events or
:data:`RECENT_BYTES` bytes the oldest go. A view-carrying event may go to clients
that asked for deltas as the changes from the view the previous event gave their
group (``moved.delta``), so the log also keeps, per viewer, the view it last sent.

It knows members only as :class:`~gridhall.server.core.identity.Identity` (id, and
whether they take deltas or are computers); who sees what is the room's call.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from gridhall.protocol.codec import encode_wire
from gridhall.protocol.delta import diff
from gridhall.protocol.schema import to_map

from ..effects import Outbox, Send
from ..identity import Identity

JSON = dict[str, Any]

RECENT_EVENTS = 256
RECENT_BYTES = 1 << 20
"""A room keeps its latest events (at most this many, and about this many encoded
bytes) so a client that missed some gets them as events on ``sync`` with ``since``."""

Kept = tuple[tuple[str, ...], bytes, bool]
"""An event as a room keeps it for replay: (recipients, encoded frame, is a delta).
Plain tuples of strings and bytes, which the garbage collector stops tracking: kept
messages (256 events in each of hundreds of rooms, each holding its view) made every
full collection walk them all, and round trips at 1,000 players had a p99 of 100-300 ms."""

EVERYONE = "*"
"""The key, in the recent-events buffer, of an event every member got alike."""


class EventLog:
    """One room's ``seq``, its recent events, and the last view sent to each viewer."""

    def __init__(self) -> None:
        self.seq = 0
        self.recent: deque[tuple[int, dict[str, tuple[Kept, ...]], int]] = deque()
        """Per event: for each viewer, its frames (the whole form, then the delta form),
        and their bytes."""
        self.views: dict[str, JSON] = {}
        """The view the latest view-carrying event gave each viewer: what deltas patch."""
        self._bytes = 0

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def broadcast(self, out: Outbox, to: list[str], make: Callable[[int], Any]) -> int:
        """Emit one event (the next ``seq``) alike to every id in ``to``."""
        seq = self.next_seq()
        send = out.send(to, make(seq))
        if send is None:
            self.remember(seq, {}, 0)
        else:
            kept = _kept(send, False)
            self.remember(seq, {EVERYONE: (kept,)}, len(kept[1]))
        return seq

    def broadcast_views(
        self,
        out: Outbox,
        groups: dict[str | None, list[Identity]],
        make: Callable[[int, str | None], Any],
        deltas: bool = False,
    ) -> int:
        """Emit one event (one ``seq``) whose ``view`` depends on the viewer: ``make`` is
        called once per group (``None``: everyone who shares the one public view), so a
        view is built and encoded once however many get it. With ``deltas``, members who
        asked for them get the view as changes from the group's previous one."""
        self.seq = seq = self.seq + 1
        sends: dict[str, tuple[Kept, ...]] = {}
        size = 0
        views = self.views
        for viewer, members in groups.items():
            key = EVERYONE if viewer is None else viewer
            msg = make(seq, viewer)
            view = msg.view
            base = views.get(key)
            views[key] = view
            want, rest, bots = _audience(members, deltas)
            (want or rest).extend(bots)
            parts = diff(base, view) if want and base is not None else None
            if parts is None:
                rest += want
                want = []
            variants: list[Kept] = []
            wire = to_map(msg)
            if rest:
                frame, to = encode_wire(wire), tuple(rest)
                out.effects.append(Send(to, None, frame))
                variants.append((to, frame, False))
                size += len(frame)
            if parts is not None and want:
                wire["view"], wire["delta"] = parts  # ``delta`` is the message's last field
                frame, to = encode_wire(wire), tuple(want)
                out.effects.append(Send(to, None, frame))
                variants.append((to, frame, True))
                size += len(frame)
            sends[key] = tuple(variants)
        self.remember(seq, sends, size)
        return seq

    def remember(self, seq: int, sends: dict[str, tuple[Kept, ...]], size: int) -> None:
        """Keep an event (``size`` bytes of frames) for members who miss it; oldest
        go first past the bounds."""
        self.recent.append((seq, sends, size))
        self._bytes += size
        while self.recent and (len(self.recent) > RECENT_EVENTS or self._bytes > RECENT_BYTES):
            self._bytes -= self.recent.popleft()[2]

    def missed(self, ident: Identity, viewer: str | None, since: int) -> list[Send] | None:
        """The events after ``since`` as ``ident`` (who sees ``viewer``'s view) would
        have got them, or None when some are no longer kept (the caller sends a
        ``state`` instead). A client that takes deltas gets an event's delta form if
        there is one; one that does not is never given one (a ``state`` instead)."""
        if since >= self.seq:
            return []
        if not self.recent or self.recent[0][0] > since + 1:
            return None
        key = viewer or EVERYONE
        found = []
        for seq, sends, _ in self.recent:
            if seq > since:
                variants = sends.get(key) or sends.get(EVERYONE) or ()
                if not any(ident.id in to for to, _, _ in variants):
                    continue
                fit = [frame for _, frame, delta in variants if ident.deltas or not delta]
                if not fit:
                    return None
                found.append(Send.encoded((ident.id,), fit[-1]))
        return found

    def snapshot_taken(self, viewer: str | None, view: JSON) -> None:
        """A ``state`` with ``view`` went to one of ``viewer``'s group. Should it differ,
        in a list a delta patches, from the view the group's last event carried
        (something changed with no view sent), the group's next event goes whole, so
        no delta is ever folded into a view it was not made from."""
        key = EVERYONE if viewer is None else viewer
        base = self.views.get(key)
        if base is not None and any(type(v) is list and base.get(k) != v for k, v in view.items()):
            del self.views[key]


def _audience(members: list[Identity], deltas: bool) -> tuple[list[str], list[str], list[str]]:
    """Ids of those who take a delta (when ``deltas``), those who take the whole view,
    and the computers (who take whichever there is)."""
    want: list[str] = []
    rest: list[str] = []
    bots: list[str] = []
    for m in members:
        if deltas and m.deltas:
            want.append(m.id)
        elif not m.bot:
            rest.append(m.id)
        elif not m.deltas:
            bots.append(m.id)
    return want, rest, bots


def _kept(send: Send, delta: bool) -> Kept:
    return (send.to, send.frame, delta)
