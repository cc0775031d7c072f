"""Driving the server's pure core without sockets: a hub, fake links, a clock."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.effects import STORED, Effect, Send, Think, Wake, Work
from gridhall.server.core.hub import Hub
from gridhall.server.core.identity import Identity
from gridhall.server.core.session import Session, Sessions
from gridhall.server.core.stats import Stats
from gridhall.server.io.job_runner import run_job
from gridhall.server.io.store import Store

T0 = 1_800_000_000.0


@dataclass
class FakeLink:
    """A connection that keeps what was sent to it, decoded as a client would."""

    peer: str = "10.0.0.1"
    frames: list[bytes] = field(default_factory=list)
    close_code: int | None = None
    close_reason: str = ""

    @property
    def closed(self) -> bool:
        return self.close_code is not None

    def send_frame(self, frame: bytes) -> None:
        if not self.closed:
            self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        if not self.closed:
            self.close_code, self.close_reason = code, reason

    def received(self) -> list[Any]:
        """Every frame as the typed server message a client decodes."""
        return [p.decode(f, "server") for f in self.frames]

    def last(self, cls: type[Any]) -> Any:
        found = [m for m in self.received() if isinstance(m, cls)]
        assert found, f"no {cls.__name__} among {[type(m).__name__ for m in self.received()]}"
        return found[-1]


class FakeServer:
    """The SessionHost: routes the hub's sends to fake links and records the rest.

    Rooms' jobs (``Work``) run inline, in order, right after the effects that
    asked for them, at the time of the last input; with ``hold_work=True`` they
    wait in ``work`` until :meth:`finish_work` (to see a room busy)."""

    def __init__(self, store: Store | None = None, hold_work: bool = False, **config: Any) -> None:
        config.setdefault("grace_seconds", 60.0)
        config.setdefault("db", ":memory:")
        self.config = ServerConfig(**config)
        self.hub = Hub(self.config)
        self.stats = Stats()
        self.queries = None  # no history queries, no analyses: a session refuses them
        self.analyses = None
        self.store = store
        self.sessions = Sessions()
        self.other: list[Effect] = []
        self.wakes: dict[str, float] = {}
        self.hold_work = hold_work
        self.work: list[Work] = []
        self.now = T0
        self.later: list[tuple[float, Callable[[float], None]]] = []
        """Sessions' ``call_later`` calls: (when, callback), run by :meth:`advance`."""
        self._running = False

    def restore(self, now: float, down_since: float) -> None:
        """Start again from the store, as a restarted server does."""
        assert self.store is not None
        identities, rooms = self.store.load_live()
        links = (self.store.links.tokens(), self.store.links.codes(now))
        devices, quarantined = self.store.links.devices(), self.store.quarantined()
        self.execute(
            self.hub.restore(identities, rooms, now, down_since, links, devices, quarantined)
        )

    def bind(self, ident: Identity, session: Session) -> None:
        self.sessions.bind(ident, session)

    def unbind(self, ident: Identity, session: Session) -> bool:
        return self.sessions.unbind(ident, session)

    def reply(self, link: Any, frame: bytes) -> None:
        link.send_frame(frame)

    def close_link(self, link: Any, code: int, reason: str) -> None:
        link.close(code, reason)

    def call_later(self, delay: float, callback: Callable[[float], None]) -> None:
        self.later.append((self.now + delay, callback))

    def execute(self, effects: list[Effect]) -> None:
        for e in effects:
            if isinstance(e, Send):
                frame = e.frame
                for pid in e.to:
                    if pid in self.sessions:
                        self.sessions[pid].link.send_frame(frame)
            elif isinstance(e, Wake):
                if e.at is None:
                    self.wakes.pop(e.key, None)
                else:
                    self.wakes[e.key] = e.at
            elif isinstance(e, Work):
                self.work.append(e)
            else:
                self.other.append(e)
                if self.store is not None and isinstance(e, STORED):
                    self.store.write([e])
        if not self.hold_work and not self._running:
            self._running = True
            try:
                self.finish_work()
            finally:
                self._running = False

    def finish_work(self, now: float | None = None, answer: dict[str, Any] | None = None) -> None:
        """Answer every job waiting (by running it, or with ``answer``)."""
        while self.work:
            job = self.work.pop(0)
            result = answer if answer is not None else run_job(job.job)
            self.execute(
                self.hub.work_done(job.room, job.ticket, result, self.now if now is None else now)
            )

    def thinks(self) -> list[Think]:
        return [e for e in self.other if isinstance(e, Think)]

    def advance(self, now: float) -> None:
        """Fire every timer due by ``now``, in time order, as the I/O layer would."""
        while True:
            due = sorted((at, key) for key, at in self.wakes.items() if at <= now)
            calls = sorted((at, n) for n, (at, _) in enumerate(self.later) if at <= now)
            if calls and (not due or calls[0][0] < due[0][0]):
                at, n = calls[0]
                _, callback = self.later.pop(n)
                self.now = at
                callback(at)
                continue
            if not due:
                return
            at, key = due[0]
            del self.wakes[key]
            self.execute(self.hub.wake(key, at))


class Client:
    """One connected client: a session on a fake link."""

    def __init__(self, server: FakeServer, now: float = T0, peer: str = "10.0.0.1") -> None:
        self.server = server
        self.link = FakeLink(peer)
        self.session = Session(server, self.link, now)
        self.next_id = 1

    def send(self, type_: str, now: float = T0, **fields: Any) -> int:
        rid = self.next_id
        self.next_id += 1
        self.server.now = now
        self.session.receive(p.encode_map({"type": type_, "id": rid, **fields}), now)
        return rid

    def hello(self, name: str, token: str | None = None, now: float = T0) -> p.Welcome:
        fields: dict[str, Any] = {"protocol": 1, "name": name}
        if token:
            fields["token"] = token
        self.send("hello", now, **fields)
        welcome: p.Welcome = self.link.last(p.Welcome)
        return welcome

    def received(self) -> list[Any]:
        return self.link.received()

    def last(self, cls: type[Any]) -> Any:
        return self.link.last(cls)

    def errors(self) -> list[p.Error]:
        return [m for m in self.received() if isinstance(m, p.Error)]

    def clear(self) -> None:
        self.link.frames.clear()

    def drop(self, now: float = T0) -> None:
        self.link.close(1006, "dropped")
        self.session.closed(now)


def connect(server: FakeServer, name: str, now: float = T0, peer: str = "10.0.0.1") -> Client:
    client = Client(server, now, peer)
    client.hello(name, now=now)
    return client
