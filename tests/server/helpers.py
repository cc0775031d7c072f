"""Driving the server's pure core without sockets: a hub, fake links, a clock."""

from __future__ import annotations

import base64
import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from gridhall import protocol as p
from gridhall.server.core.config import ServerConfig
from gridhall.server.core.effects import (
    STORED,
    Ask,
    Bind,
    Effect,
    Hangup,
    Recall,
    Reply,
    Said,
    Send,
    Think,
    Unbind,
    Wake,
    Work,
)
from gridhall.server.core.entropy import Entropy
from gridhall.server.core.hub import Hub
from gridhall.server.core.session import Services, Session, Sessions
from gridhall.server.core.stats import Stats
from gridhall.server.io.job_runner import run_job
from gridhall.server.io.store import Store

T0 = 1_800_000_000.0
T = TypeVar("T")


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


class Seeded:
    """A repeatable :class:`Entropy`: the same seed, the same tokens, codes and seeds
    (the server passes the ``secrets`` module)."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def token_bytes(self, nbytes: int) -> bytes:
        return self.random.randbytes(nbytes)

    def token_hex(self, nbytes: int) -> str:
        return self.token_bytes(nbytes).hex()

    def token_urlsafe(self, nbytes: int) -> str:
        return base64.urlsafe_b64encode(self.token_bytes(nbytes)).rstrip(b"=").decode()

    def choice(self, seq: Sequence[T]) -> T:
        return self.random.choice(seq)

    def randbits(self, k: int) -> int:
        return self.random.getrandbits(k)


class FakeServer:
    """A session's host: carries out what sessions and the hub say, routing sends to
    fake links and recording the rest.

    Rooms' jobs (``Work``) run inline, in order, right after the effects that
    asked for them, at the time of the last input; with ``hold_work=True`` they
    wait in ``work`` until :meth:`finish_work` (to see a room busy)."""

    def __init__(
        self,
        store: Store | None = None,
        hold_work: bool = False,
        entropy: Entropy = secrets,
        **config: Any,
    ) -> None:
        config.setdefault("grace_seconds", 60.0)
        config.setdefault("db", ":memory:")
        self.config = ServerConfig(**config)
        self.hub = Hub(self.config, entropy)
        self.stats = Stats()
        self.services = Services()
        """No history queries or analyses (``server/io/`` answers those)."""
        self.store = store
        self.sessions = Sessions()
        self.other: list[Effect] = []
        self.wakes: dict[str, float] = {}
        self.hold_work = hold_work
        self.work: list[Work] = []
        self.now = T0
        self.later: list[tuple[float, Callable[[float], None]]] = []
        """Sessions' :class:`Recall` effects: (when, callback), run by :meth:`advance`."""
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

    def run(self, session: Session, said: Iterable[Said]) -> None:
        """Carry out what ``session`` said: its own effects here, the hub's in order."""
        hub: list[Effect] = []
        for e in said:
            if isinstance(e, (Reply, Hangup, Bind, Unbind, Recall)):
                self.execute(hub)
                hub = []
                self._for_session(session, e)
            else:
                assert not isinstance(e, Ask), "no history service here"
                hub.append(e)
        self.execute(hub)

    def _for_session(self, session: Session, e: Reply | Hangup | Bind | Unbind | Recall) -> None:
        if isinstance(e, Reply):
            session.link.send_frame(e.frame)
        elif isinstance(e, Hangup):
            session.link.close(e.code, e.reason)
        elif isinstance(e, Bind):
            self.sessions.bind(e.ident, session)
        elif isinstance(e, Unbind):
            self.sessions.unbind(e.ident, session)
        else:

            def recalled(now: float) -> None:
                if not session.link.closed:
                    self.run(session, session.answer_sync(now))

            self.later.append((e.at, recalled))

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

    def receive(self, frame: bytes, now: float = T0) -> None:
        """One frame as the connection would hand it to the session."""
        self.server.now = now
        self.server.run(self.session, self.session.receive(frame, now))

    def send(self, type_: str, now: float = T0, **fields: Any) -> int:
        rid = self.next_id
        self.next_id += 1
        self.receive(p.encode_map({"type": type_, "id": rid, **fields}), now)
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
        self.server.run(self.session, self.session.closed(now))


def connect(server: FakeServer, name: str, now: float = T0, peer: str = "10.0.0.1") -> Client:
    client = Client(server, now, peer)
    client.hello(name, now=now)
    return client
