"""What the pure core (rooms, lobby, hub) asks the I/O layer around it to do.

The core never sends, writes or sleeps: each input returns a list of these
effects, in order, and ``server/io/net/app.py`` carries them out (sockets, SQLite,
timers, the worker processes). Tests read them directly.

Durability rule: the I/O layer writes every store effect of an input (and of
the inputs handled in the same event-loop turn) in one SQLite transaction
before it delivers any of their sends, so nothing is broadcast that a crash
could lose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol.devices import Description

from ..games.base import JSON
from ..games.jobs import Job

if TYPE_CHECKING:
    from .identity import Identity
    from .ratings import Change


class Send:
    """Deliver one protocol message to each of ``to`` (player ids), in order.

    A plain class with slots rather than a dataclass: one is made per event on the
    path of every move, and ``frame`` is read for each of them."""

    __slots__ = ("_frame", "_msg", "to")

    def __init__(self, to: tuple[str, ...], msg: Any, frame: bytes | None = None) -> None:
        """``msg``, or None and its ``frame`` (a message made as its frame)."""
        self.to = to
        self._msg = msg
        self._frame = frame

    @property
    def frame(self) -> bytes:
        """The message encoded once, however many recipients it has."""
        frame = self._frame
        if frame is None:
            frame = self._frame = p.encode(self._msg)
        return frame

    @property
    def msg(self) -> Any:
        """The message; one made as its frame only is decoded on first asking (only
        tests and tools ask: the server sends the frame)."""
        if self._msg is None and self._frame is not None:
            self._msg = p.decode(self._frame, "server")
        return self._msg

    @classmethod
    def encoded(cls, to: tuple[str, ...], frame: bytes) -> Send:
        """A message made as its frame (a replayed event, a view-carrying one)."""
        return cls(to, None, frame)

    def __repr__(self) -> str:
        return f"Send(to={self.to!r}, msg={self.msg!r})"


@dataclass(frozen=True)
class SaveChat:
    """Keep a chat line."""

    room: str
    player: str
    name: str
    text: str
    ts: float


@dataclass(frozen=True)
class SaveGame:
    """Keep a finished game: who played, the result and everything to replay it."""

    room: str
    game: str
    options: JSON
    players: list[JSON]
    result: JSON
    record: JSON
    started_at: float
    ended_at: float
    source: str | None = None
    """Where the game came from when it was not played here (``import``)."""
    ratings: tuple[Change, ...] = ()
    """A rated game's rating changes, saved in the same transaction (``server/core/ratings.py``)."""
    address: str = ""
    """The address that created the room: the game counts in its share of the history
    the store keeps (``server/io/store/retention.py``)."""


@dataclass(frozen=True)
class SaveRoom:
    """A new room: everything fixed at its creation (the secret seed included)."""

    room: str
    row: JSON


@dataclass(frozen=True, init=False)
class Log:
    """An input a room accepted, appended to its journal (``n`` counts from 1)."""

    room: str
    n: int
    entry: JSON

    def __init__(self, room: str, n: int, entry: JSON) -> None:
        """Fills the fields without the frozen ``object.__setattr__`` per field: one
        is made for every move (0.34 us that way, 0.15 this)."""
        fields = self.__dict__
        fields["room"], fields["n"], fields["entry"] = room, n, entry


@dataclass(frozen=True)
class SaveSnapshot:
    """The room's state after journal entry ``n``: older entries are no longer needed."""

    room: str
    n: int
    snapshot: JSON


@dataclass(frozen=True)
class DropRoom:
    """The room closed: its row, journal and snapshot go."""

    room: str


@dataclass(frozen=True)
class Quarantine:
    """Set live room ``room`` aside, its rows kept as they are, because it could not be
    restored: ``info`` says why, when, and who was in it (``Quarantined.to_json`` in
    ``server/core/restoring.py``); no start replays it until the operator puts it back."""

    room: str
    info: JSON


@dataclass(frozen=True)
class SaveIdentity:
    """An identity as it must survive a restart (``expires``: when it is forgotten
    unless resumed, for roomless ones)."""

    player: str
    token_hash: str
    name: str
    color: str | None
    bot: str | None
    expires: float | None = None


@dataclass(frozen=True)
class ForgetIdentity:
    player: str


@dataclass(frozen=True)
class SaveToken:
    """One more token (its hash) for an identity: a device it was linked to."""

    player: str
    token_hash: str


@dataclass(frozen=True)
class SaveDevice:
    """What an identity's device list shows of one of its tokens (``server/core/devices.py``)."""

    player: str
    token_hash: str
    about: Description
    created_at: float
    last_seen: float

    def row(self) -> tuple[str, str, str, str, str, float, float]:
        """The ``devices`` table's columns as both stores write them: token hash,
        player, name, kind, platform, created at, last seen."""
        about, times = self.about, (self.created_at, self.last_seen)
        return (self.token_hash, self.player, about.name, about.kind, about.platform, *times)


@dataclass(frozen=True)
class DropToken:
    """A token stops resuming its identity: its device was signed out (or dropped past
    the cap). In a cluster every node hears of it (``server/cluster/pg_links.py``)."""

    player: str
    token_hash: str


@dataclass(frozen=True)
class SaveLinkCode:
    """A link code (its hash only) given to ``player``, working until ``expires``."""

    code_hash: str
    player: str
    expires: float


@dataclass(frozen=True)
class DropLinkCode:
    """A link code was used or replaced."""

    code_hash: str


@dataclass(frozen=True)
class Think:
    """Ask a computer player for its move in a worker process.

    ``request`` is the game's picklable description of the position; the answer
    goes back to the hub with the same request, so a position that changed
    meanwhile (a take-back) is recognised and thought about again."""

    room: str
    bot: str
    game: str
    level: str
    request: JSON = field(default_factory=dict)
    address: str = ""
    """The address that owns the room: its computers share that address's share."""


@dataclass(frozen=True)
class Work:
    """Run a heavy :class:`~gridhall.server.games.jobs.Job` for room ``room`` in a worker.

    The answer (``run_job``'s plain map) goes back through the hub's
    ``work_done(room, ticket, answer, now)``; ``ticket`` tells the room which of
    its requests it answers. A room has at most one job out at a time."""

    room: str
    ticket: int
    job: Job
    address: str = ""
    """Whom the job is charged to: the address that asked (or owns the room)."""


@dataclass(frozen=True)
class Wake:
    """Call the hub's ``wake(key, now)`` at ``at`` (unix time); None cancels.

    Keys are room codes (game clocks, countdowns, reconnect grace) or
    ``@<player id>`` (forgetting an identity nobody resumed)."""

    key: str
    at: float | None


Stored = (
    SaveChat
    | SaveGame
    | SaveRoom
    | Log
    | SaveSnapshot
    | DropRoom
    | Quarantine
    | SaveIdentity
    | ForgetIdentity
    | SaveToken
    | SaveDevice
    | DropToken
    | SaveLinkCode
    | DropLinkCode
)
Effect = Send | Think | Work | Wake | Stored
STORED = (
    SaveChat,
    SaveGame,
    SaveRoom,
    Log,
    SaveSnapshot,
    DropRoom,
    Quarantine,
    SaveIdentity,
    ForgetIdentity,
    SaveToken,
    SaveDevice,
    DropToken,
    SaveLinkCode,
    DropLinkCode,
)


# -- what a session asks of its own connection (``server/core/session.py``) ----------
@dataclass(frozen=True)
class Reply:
    """Send ``frame`` to the session's own connection (an answer only it gets: an
    error, a refusal), in order with the frames of the effects around it."""

    frame: bytes


@dataclass(frozen=True)
class Hangup:
    """Close the session's connection with ``code`` and ``reason``, after everything
    sent to it so far."""

    code: int
    reason: str


@dataclass(frozen=True)
class Bind:
    """The session now speaks for ``ident``: sends to that player id go to its
    connection (an older connection that spoke for it is closed, 4000)."""

    ident: Identity


@dataclass(frozen=True)
class Unbind:
    """The session's connection is gone: it no longer speaks for ``ident``."""

    ident: Identity


@dataclass(frozen=True)
class Recall:
    """Call the session's ``answer_sync(now)`` at ``at`` (unix time), unless its
    connection is gone by then: a ``sync`` held for the snapshot limit."""

    at: float


@dataclass(frozen=True)
class Ask:
    """Hand ``msg`` (a history query or an ``analyse``, within the session's limits)
    to the server's service for it (``server/io/``); the answer comes later, to the
    session's connection, and a refusal now goes back through ``Session.refused``."""

    msg: Any


SessionEffect = Reply | Hangup | Bind | Unbind | Recall | Ask
Said = Effect | SessionEffect
"""What a session's input returns: the hub's effects and its own, in order."""


class Outbox:
    """Collects effects in order; the return value of every core input."""

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def send(self, to: list[str] | tuple[str, ...], msg: Any) -> Send | None:
        if not to:
            return None
        send = Send(tuple(to), msg)
        self.effects.append(send)
        return send

    def add(self, effect: Effect) -> None:
        self.effects.append(effect)

    def sent(self) -> list[Send]:
        """The sends so far (for tests and the lobby)."""
        return [e for e in self.effects if isinstance(e, Send)]
