"""Carrying out what the core said: the effects the hub, the rooms and the sessions
return (``server/core/effects.py``), done by the server's I/O.

Timers, computers and jobs start at once; store writes and frames wait for the end
of the event-loop turn, when the writes are committed in one transaction and only
then the frames delivered, in order (group commit: durable before it is broadcast,
one commit however busy). A store that commits off the event loop (PostgreSQL:
``RoomStore.commits``) is handed each turn's writes with that turn's frames instead,
which it sends once their commit returned, in order.
:class:`~gridhall.server.io.net.app.GameServer` owns one :class:`Carrier` and hands it
every effect; answers that come later (a timer, a computer's move, a job's result, a
held ``sync``) go back through the hub or the session, and what they return is carried
out the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gridhall import protocol as p
from gridhall.protocol import ProtocolError
from gridhall.protocol.analysis import Analyse

from ...core.effects import (
    STORED,
    Bind,
    DropRoom,
    Hangup,
    Log,
    Recall,
    Reply,
    Said,
    Send,
    SessionEffect,
    Stored,
    Think,
    Unbind,
    Wake,
    Work,
)
from ...core.fairness import address_key
from ...core.identity import Identity
from ...core.scheduler import Owner
from ...core.session import ABUSE, ABUSE_CLOSE, Link, Session
from ...games.base import JSON
from ...games.jobs import BUSY
from ..workers.job_runner import run_job

if TYPE_CHECKING:
    from .app import GameServer

log = logging.getLogger("gridhall.server")


class Carrier:
    """The server's hands for the core's effects; see the module docstring."""

    def __init__(self, server: GameServer) -> None:
        self.server = server
        self.closed = False
        """Set when the server stops: nothing more is carried out, no timer fires."""
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._pending_store: list[Stored] = []
        self._pending_frames: list[tuple[bytes, list[Link]]] = []
        """Each frame of this turn with the connections it goes to, in order."""
        self._flush_handle: asyncio.Handle | None = None
        self._answers: weakref.WeakKeyDictionary[Session, Answers] = weakref.WeakKeyDictionary()
        """Where each session's later answers go (kept while the session lives: an
        analysis keeps only a weak reference to whom it tells)."""
        self.commits = server.store.commits
        """Commits off the event loop (PostgreSQL: ``store_api.Commits``), or None: on
        it (SQLite, in microseconds)."""
        if self.commits is not None:
            self.commits.timed = server.stats.commit

    def stop(self) -> None:
        """The server stops: no more effects, and the rooms' timers are cancelled."""
        self.closed = True
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    def execute(self, effects: Iterable[Said], session: Session | None = None) -> None:
        """Carry out the core's effects: timers and computers at once; store writes
        and frames at the end of this event-loop turn, writes first. ``session``: the
        one whose input returned them, for its own effects (a reply, a close)."""
        if self.closed:
            return
        server = self.server
        for effect in effects:
            if type(effect) is Log:  # a move's entry: the common case first
                self._pending_store.append(effect)
                server.activity.stored(effect)
            elif isinstance(effect, Send):
                sessions = server.sessions
                links = []  # a loop, not a comprehension: no frame of its own (every event)
                for pid in effect.to:
                    if (t := sessions.get(pid)) is not None:
                        links.append(t.link)
                if links:
                    self._pending_frames.append((effect.frame, links))
            elif isinstance(effect, Wake):
                self._arm(effect)
            elif isinstance(effect, Think):
                server.computers.schedule(effect, self._computer_answered)
            elif isinstance(effect, Work):
                self._run_work(effect)
            elif isinstance(effect, STORED):
                self._pending_store.append(effect)
                server.activity.stored(effect)
                if isinstance(effect, DropRoom):
                    server.work.forget_room(effect.room)
            elif session is not None:
                self._for_session(session, effect)
        self._schedule_flush()

    def _for_session(self, session: Session, effect: SessionEffect) -> None:
        """One of a session's own effects (``server/core/effects.py``)."""
        if isinstance(effect, Reply):
            self._pending_frames.append((effect.frame, [session.link]))
        elif isinstance(effect, Hangup):
            self.close_link(session.link, effect.code, effect.reason)
        elif isinstance(effect, Bind):
            self.bind(effect.ident, session)
        elif isinstance(effect, Unbind):
            self.server.sessions.unbind(effect.ident, session)
        elif isinstance(effect, Recall):
            self._recall(session, effect.at)
        else:
            self._ask(session, effect.msg)

    def bind(self, ident: Identity, session: Session) -> None:
        # what this turn sent an older connection goes before its close
        self.server.sessions.bind(ident, session, self.close_link)

    def reply(self, link: Link, frame: bytes) -> None:
        """A frame for one connection (an error, a refusal), in order with the rest."""
        self._pending_frames.append((frame, [link]))
        self._schedule_flush()

    def close_link(self, link: Link, code: int, reason: str) -> None:
        """Close after what was sent so far (with a store committing off the loop:
        after this turn's frames, which wait for their commit); a close for abuse makes
        the address wait before it connects again (``GameServer.abusers``)."""
        self.flush()
        if code == ABUSE_CLOSE and reason in ABUSE and not link.closed:
            self.server.abusers.failed(address_key(link.peer), time.time())
        if self.commits is None:
            link.close(code, reason)
        else:
            self.commits.submit([], functools.partial(link.close, code, reason))

    async def flushed(self) -> None:
        """This turn's writes committed and its frames handed to their sockets (and
        every earlier turn's): what must happen before the caller goes on."""
        self.flush()
        if self.commits is not None:
            await self.commits.settled()

    def _recall(self, session: Session, at: float) -> None:
        """A session's held ``sync`` is tried again at ``at`` (see :class:`Recall`)."""

        def fire() -> None:
            if not self.closed and not session.link.closed:
                self.execute(session.answer_sync(time.time()), session)

        if not self.closed:
            asyncio.get_running_loop().call_later(max(0.0, at - time.time()), fire)

    def _ask(self, session: Session, msg: Any) -> None:
        """A history query or an ``analyse`` (:class:`Ask`), to the service for it; a
        refusal now goes back through the session (which counts bad ones)."""
        answers = self._answers.get(session)
        if answers is None:
            answers = self._answers[session] = Answers(self, session.link)
        try:
            if isinstance(msg, Analyse):
                self.server.analyses.request(answers, session.peer, msg)
            else:
                self.server.queries.ask(answers, msg, session.peer)
        except ProtocolError as exc:
            self.execute(session.refused(exc), session)
        except Exception:  # a server bug must not end the connection or the server
            log.exception("internal error handling a frame from %s", session.peer)
            self.execute(session.fault(msg), session)

    def _schedule_flush(self) -> None:
        if self._flush_handle is None and (self._pending_frames or self._pending_store):
            self._flush_handle = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit what this turn stored, then deliver what it sent."""
        self._flush_handle = None
        stored, self._pending_store = self._pending_store, []
        frames, self._pending_frames = self._pending_frames, []
        if self.commits is not None:  # committed off the loop: the frames follow it
            if stored or frames:
                self.commits.submit(stored, functools.partial(self._deliver, frames))
            return
        stats = self.server.stats
        if stored:
            began = time.perf_counter()
            try:
                self.server.store.write(stored)
            except Exception:  # the game goes on for the players even if the disk does not
                log.exception("could not write %d changes to the store", len(stored))
            else:
                stats.commit(time.perf_counter() - began)
        self._deliver(frames)

    def _deliver(self, frames: list[tuple[bytes, list[Link]]]) -> None:
        """Hand a turn's frames to their sockets (its writes are committed)."""
        stats = self.server.stats
        for frame, links in frames:
            stats.frame_out(frame, len(links))  # read once, however many get it
            for link in links:
                try:
                    link.send_frame(frame)
                except Exception:  # one failing socket must not cost the others their frames
                    log.exception("could not send to %s; closing that connection", link.peer)
                    with contextlib.suppress(Exception):
                        link.close(1011, "the server could not send to this connection")
        if frames:
            stats.delivered(time.perf_counter())

    def _arm(self, wake: Wake) -> None:
        timer = self._timers.pop(wake.key, None)
        if timer is not None:
            timer.cancel()
        if wake.at is not None and not self.closed:
            delay = max(0.0, wake.at - time.time()) + 0.001  # never a hair early
            self._timers[wake.key] = asyncio.get_running_loop().call_later(
                delay, self._woken, wake.key
            )

    def _woken(self, key: str) -> None:
        self._timers.pop(key, None)
        if not self.closed:
            self.execute(self.server.hub.wake(key, time.time()))

    def _computer_answered(self, job: Think, move: JSON) -> None:
        if not self.closed:
            self.execute(self.server.hub.computer_move(job, move, time.time()))

    def _run_work(self, work: Work) -> None:
        """Run a room's job in the pool as a quick job charged to whoever asked; one
        refused (its address past its share) is answered ``busy`` after the current
        effects, so the order of sends is kept, or later if pushed out of the queue."""

        def done(answer: JSON) -> None:
            self._work_answered(work, answer)

        def failed(exc: BaseException) -> None:
            log.error(
                "room %s: a %s job failed: %r",
                work.room,
                work.job.kind,
                exc,
                extra={"room": work.room},
            )
            self._work_answered(work, {"error": "failed"})

        def busy() -> None:
            self._work_answered(work, BUSY)

        owner = Owner(work.address or "room:" + work.room, work.room)
        if not self.server.work.submit(
            run_job,
            work.job,
            owner=owner,
            key=("work", work.room),
            done=done,
            failed=failed,
            busy=busy,
            kind=work.job.kind,
        ):
            asyncio.get_running_loop().call_soon(busy)

    def _work_answered(self, work: Work, answer: JSON) -> None:
        if not self.closed:
            self.execute(self.server.hub.work_done(work.room, work.ticket, answer, time.time()))


class Answers:
    """Where a session's later answers go (history queries, analyses): its
    connection, in order with the server's other frames, unless it is gone."""

    __slots__ = ("__weakref__", "carrier", "link")

    def __init__(self, carrier: Carrier, link: Link) -> None:
        self.carrier = carrier
        self.link = link

    def send_frame(self, frame: bytes) -> None:
        if not self.link.closed:
            self.carrier.reply(self.link, frame)

    def send(self, msg: Any) -> None:
        self.carrier.reply(self.link, p.encode(msg))
