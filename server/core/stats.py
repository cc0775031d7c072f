"""The server's running figures: always on, cheap, and bounded.

One :class:`Stats` per :class:`~gridhall.server.io.net.app.GameServer` (``server.stats``)
counts what happens where it happens: messages in by type (the session), frames
out by type and refusals by error code (where frames are handed to the sockets),
connections opened and closed, a move's round trip through the server, the
journal's commit time and the worker jobs. The admin page reads it every second
and ``/metrics`` (``server/io/admin/metrics.py``) exports it; neither import is needed
here, so counting costs a dict update and nothing else.

Every label is bounded: a message type or error code the protocol does not
define counts as ``"other"``, so a stranger sending made-up types cannot grow
the tables. Times are in seconds.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from typing import Protocol

from gridhall import protocol as p
from gridhall.protocol import ErrorCode

OTHER = "other"
"""The label of anything outside the protocol's known types and codes."""
ERROR_CODES = frozenset(c.value for c in ErrorCode)
_CLIENT_TYPES = p.CLIENT_MESSAGES
"""The registry itself (not a copy): a type registered later counts under its name."""
WINDOW = 10
"""Seconds over which :meth:`Stats.messages_per_second` averages."""
COMMITS_KEPT = 1000
"""Commits :meth:`Stats.commit_percentiles` looks at (the latest)."""
PENDING_MOVES = 1000
"""Moves waiting for their ``moved`` to be handed out at most (a bound, not a goal)."""

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Upper bounds of the histograms of round trips and commits (seconds)."""
WAIT_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
"""Upper bounds of the worker queue's waits (seconds): computers can wait longer."""


class Histogram:
    """Counts per bucket (not cumulative), their sum and count; Prometheus-shaped."""

    __slots__ = ("bounds", "count", "counts", "sum")

    def __init__(self, bounds: tuple[float, ...]) -> None:
        self.bounds = bounds
        self.counts = [0] * (len(bounds) + 1)
        """``counts[i]``: observations <= ``bounds[i]`` and above the bound before;
        the last: above every bound."""
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def cumulative(self) -> list[tuple[str, int]]:
        """``(upper bound, observations at or below it)``, ending with ``+Inf``."""
        out: list[tuple[str, int]] = []
        total = 0
        for bound, n in zip((*map(repr, self.bounds), "+Inf"), self.counts, strict=True):
            total += n
            out.append((bound, total))
        return out


class Pool(Protocol):
    """What the worker pool can tell (``server/io/workers/work.py``)."""

    @property
    def running(self) -> int: ...

    def queued(self) -> int: ...


class Stats:
    """See the module docstring."""

    def __init__(self, started: float = 0.0) -> None:
        self.started = started
        """When the server started (unix time, the I/O layer's clock): :meth:`uptime`."""
        self.messages_in: dict[str, int] = {}
        self.frames_out: dict[str, int] = {}
        self.refusals: dict[str, int] = {}
        """Errors sent, by code."""
        self.connections_opened = 0
        self.connections_closed = 0
        self.move_round_trip = Histogram(LATENCY_BUCKETS)
        self.commit_time = Histogram(LATENCY_BUCKETS)
        self.jobs: dict[str, int] = {}
        """Worker jobs run (answered or failed), by kind."""
        self.job_wait: dict[str, Histogram] = {}
        self.job_run: dict[str, Histogram] = {}
        self.pool: Pool | None = None
        """The worker pool, once the server has one (for :meth:`worker_queue`)."""
        self._commits: deque[float] = deque(maxlen=COMMITS_KEPT)
        self._seconds = [-1] * (WINDOW + 1)
        self._per_second = [0] * (WINDOW + 1)
        self._moves: deque[float] = deque(maxlen=PENDING_MOVES)
        self._moved_out = False
        """A ``moved`` frame went out since the last :meth:`delivered`."""

    # -- what the server feeds ---------------------------------------------------
    def message_in(self, kind: str, now: float) -> None:
        """A frame from a client: its type (``kind``), whatever became of it."""
        if kind not in _CLIENT_TYPES:
            kind = OTHER
        self.messages_in[kind] = self.messages_in.get(kind, 0) + 1
        second = int(now)
        slot = second % len(self._seconds)
        if self._seconds[slot] != second:
            self._seconds[slot] = second
            self._per_second[slot] = 0
        self._per_second[slot] += 1

    def frame_out(self, frame: bytes, sockets: int = 1) -> None:
        """A frame handed to ``sockets`` sockets (an ``error`` also counts as a refusal):
        read once however many get it."""
        kind = frame_type(frame)
        self.frames_out[kind] = self.frames_out.get(kind, 0) + sockets
        if kind == "moved":
            self._moved_out = True
        elif kind == "error":
            code = error_code(frame)
            self.refusals[code] = self.refusals.get(code, 0) + sockets

    def connection_opened(self) -> None:
        self.connections_opened += 1

    def connection_closed(self) -> None:
        self.connections_closed += 1

    def move_accepted(self, started: float) -> None:
        """A ``move`` received at ``started`` (the host's monotonic clock) was played; its
        round trip ends when its ``moved`` is handed to the sockets (:meth:`delivered`):
        in the same turn, or with a job's answer when the move needed one."""
        self._moves.append(started)

    def delivered(self, now: float) -> None:
        """This turn's frames went to the sockets at ``now`` (the same clock);
        if a ``moved`` was among them, the moves played so far have their round trip."""
        if not self._moved_out:
            return
        self._moved_out = False
        moves = self._moves
        while moves:
            self.move_round_trip.observe(max(0.0, now - moves.popleft()))

    def commit(self, seconds: float) -> None:
        """One journal transaction took ``seconds``."""
        self.commit_time.observe(seconds)
        self._commits.append(seconds)

    def job_done(self, kind: str, wait: float, run: float) -> None:
        """A worker job of ``kind`` waited ``wait`` s in the queue and ran ``run`` s."""
        self.jobs[kind] = self.jobs.get(kind, 0) + 1
        waits = self.job_wait.get(kind)
        if waits is None:
            waits = self.job_wait[kind] = Histogram(WAIT_BUCKETS)
            self.job_run[kind] = Histogram(WAIT_BUCKETS)
        waits.observe(wait)
        self.job_run[kind].observe(run)

    # -- what the admin page and /metrics read ------------------------------------
    def messages_per_second(self, now: float) -> float:
        """Messages received per second over the last :data:`WINDOW` seconds."""
        second = int(now)
        total = sum(
            n
            for s, n in zip(self._seconds, self._per_second, strict=True)
            if second - WINDOW < s <= second
        )
        return total / WINDOW

    def commit_percentiles(self) -> tuple[float | None, float | None]:
        """(p50, p99) of the latest :data:`COMMITS_KEPT` commits, in seconds (None
        before the first)."""
        if not self._commits:
            return None, None
        ordered = sorted(self._commits)
        last = len(ordered) - 1
        return ordered[round(0.50 * last)], ordered[round(0.99 * last)]

    def worker_queue(self) -> int:
        """Jobs waiting for a worker."""
        return self.pool.queued() if self.pool is not None else 0

    def worker_busy(self) -> int:
        """Jobs running in a worker now."""
        return self.pool.running if self.pool is not None else 0

    def uptime(self, now: float) -> float:
        return max(0.0, now - self.started)


_TYPE_KEY = b"\xa4type"
_CODE_KEY = b"\xa4code"
_NAMES = {
    bytes([0xA0 + len(t.encode())]) + t.encode(): t
    for t in p.SERVER_MESSAGES
    if len(t.encode()) < 32
}
"""Each server message type as the codec writes it (a fixstr), to its name."""


def _first_key_value(frame: bytes, key: bytes) -> tuple[bytes, int]:
    """The value (a fixstr, as its bytes with their header) of ``key`` when it is the
    first key of the map ``frame`` holds, and where the value ends; (b"", 0) else."""
    if not frame:
        return b"", 0
    head = frame[0]
    at = 1 if 0x80 <= head <= 0x8F else 3 if head == 0xDE else 5 if head == 0xDF else 0
    return _value_at(frame, at, key) if at else (b"", 0)


def _value_at(frame: bytes, at: int, key: bytes) -> tuple[bytes, int]:
    """The fixstr value of ``key`` written at ``at`` in ``frame`` (with its header), and
    where it ends; (b"", 0) if something else is written there."""
    if frame[at : at + len(key)] != key or len(frame) <= at + len(key):
        return b"", 0
    at += len(key)
    size = frame[at] - 0x9F
    if not 1 <= size <= 32 or len(frame) < at + size:
        return b"", 0
    return frame[at : at + size], at + size


def frame_type(frame: bytes) -> str:
    """The ``type`` of an encoded server frame, read from its first bytes.

    The codec writes ``type`` as the map's first key (``protocol/schema.py``), so
    this costs a few byte reads and one dict lookup, not a decode; anything else is
    :data:`OTHER`."""
    if len(frame) > 6 and frame[1:6] == _TYPE_KEY and 0x80 <= frame[0] <= 0x8F:  # a small map
        return _NAMES.get(frame[6 : frame[6] - 0x99], OTHER)  # its fixstr: a header and bytes
    value, _ = _first_key_value(frame, _TYPE_KEY)
    return _NAMES.get(value, OTHER)


def claimed_type(frame: bytes | str) -> str:
    """The ``type`` a client's frame that the codec refused claims to be, read the same
    way (no second decode of a frame already refused: a swarm's bad frames cost one
    each); :data:`OTHER` when it is not the map's first key or not a known type."""
    if not isinstance(frame, bytes):
        return OTHER
    value, _ = _first_key_value(frame, _TYPE_KEY)
    kind = value[1:].decode("ascii", "replace")
    return kind if kind in _CLIENT_TYPES else OTHER


def error_code(frame: bytes) -> str:
    """The ``code`` of an encoded ``error`` frame (:data:`OTHER` if unknown): read from
    its bytes when the codec's order (``type``, then ``code``) holds, else decoded."""
    _, end = _first_key_value(frame, _TYPE_KEY)
    value, _ = _value_at(frame, end, _CODE_KEY) if end else (b"", 0)
    if value:
        code = value[1:].decode("ascii", "replace")
    else:
        try:
            found = p.decode_map(frame, p.MAX_SERVER_FRAME).get("code")
        except p.ProtocolError:
            return OTHER
        code = found if isinstance(found, str) else OTHER
    return code if code in ERROR_CODES else OTHER
