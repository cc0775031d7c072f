"""The protocol's promise, checked over random conversations: every request with an
``id`` gets its answer, once.

Hypothesis drives several clients through every client request type in PROTOCOL.md
(valid and not, in every game, with and without passwords), interleaved with the
room's jobs finishing late, time passing (clocks, reconnect grace), connections
dropping and resuming, and tight rate limits. After each request, and once every job
is done, each request must have been answered as the protocol says:

- a frame whose ``re`` is its id (``error``, ``welcome``, ``rooms``, ``joined``,
  ``left``, ``state``, ``profile``), never two errors, never an error and a success;
- or, for what a room answers with an event, that event from the sender (``moved.by``,
  ``chat.from`` ...), or a new game's ``state`` for ``start`` and ``agree-again``;
- or the connection was closed (a close with a code is an answer the protocol allows).

A request whose answer waits for a job may be answered when the job is done (or
fails: every worker busy, out of time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gridhall import protocol as p
from gridhall.server.io.job_runner import run_job
from tests.server.helpers import T0, Client, FakeServer

BY_EVENT: dict[str, tuple[type[Any], str]] = {
    "move": (p.Moved, "by"),
    "chat": (p.ChatEvent, "sender"),
    "player-info": (p.PlayerInfoEvent, "player"),
    "resign": (p.Resigned, "player"),
    "play-again": (p.PlayAgainEvent, "sender"),
    "agree-again": (p.AgreeAgainEvent, "sender"),
    "decline-again": (p.DeclineAgainEvent, "sender"),
    "offer": (p.OfferEvent, "sender"),
    "answer": (p.AnswerEvent, "sender"),
    "host": (p.HostEvent, "by"),
}
BY_STATE = ("start", "agree-again")
GAMES: list[dict[str, Any]] = [
    {"game": "gomoku"},
    {"game": "gomoku", "password": "sesame"},
    {"game": "gomoku", "options": {"ai": "easy"}},
    {"game": "minesweeper", "options": {"preset": "beginner"}},
    {"game": "linkmatch", "options": {"width": 4, "height": 4, "countdown": 0}},
    {"game": "nope"},
]
REQUESTS = (
    "hello",
    "list-rooms",
    "create-room",
    "join-room",
    "leave-room",
    "sync",
    "player-info",
    "move",
    "chat",
    "resign",
    "play-again",
    "agree-again",
    "decline-again",
    "offer",
    "answer",
    "start",
    "host",
)
STEPS = (*REQUESTS, "finish-job", "fail-job", "wait", "drop", "garbage")
WEIGHTED = (
    *STEPS,
    "create-room",
    "join-room",
    "join-room",
    "move",
    "move",
    "move",
    "resign",
    "play-again",
    "agree-again",
    "start",
    "finish-job",
    "leave-room",
    "host",
)
"""Steps to draw from: the ones that move a room along come more often."""


@dataclass
class Asked:
    """One request: what it was, who sent it, and whether it was answered."""

    rid: int
    kind: str
    who: Agent
    client: Client
    start: int = 0
    """How many frames its client had before it was sent."""
    answered: bool = False


@dataclass
class Agent:
    """A person behind a sequence of connections (resuming with the token)."""

    name: str
    peer: str
    client: Client | None = None
    token: str = ""
    player: str = ""
    asked: list[Asked] = field(default_factory=list)


def answers(asked: Asked, frames: list[Any]) -> bool:
    """Is one of ``frames`` (what its client got) the answer to ``asked``? A ``sync`` that
    waited for the snapshot limit folds into a later one on the same connection, and the
    one answer carries the later ``re`` (PROTOCOL.md)."""
    ids = {asked.rid}
    if asked.kind == "sync":
        ids |= {
            later.rid
            for later in asked.who.asked
            if later.kind == "sync" and later.client is asked.client and later.rid > asked.rid
        }
    for msg in frames:
        if getattr(msg, "re", None) in ids:
            return True
        event = BY_EVENT.get(asked.kind)
        if (
            event is not None
            and isinstance(msg, event[0])
            and getattr(msg, event[1]) == asked.who.player
        ):
            return True
        if asked.kind in BY_STATE and isinstance(msg, p.State) and msg.re is None:
            return True
    return False


class World:
    def __init__(self, tight: bool) -> None:
        limits = (
            {"rate_burst": 6, "rate_per_second": 2.0, "max_rate_strikes": 8, "max_bad_messages": 3}
            if tight
            else {}
        )
        self.server = FakeServer(hold_work=True, grace_seconds=5.0, **limits)
        self.agents = [Agent(f"P{n}", f"10.0.0.{n % 2 + 1}") for n in range(3)]
        self.codes: list[str] = ["NOPE22"]
        self.now = T0
        self.waiting: list[Asked] = []
        """Requests not answered when they were handled: they wait for a job."""

    def connect(self, agent: Agent) -> Client:
        client = Client(self.server, self.now, agent.peer)
        agent.client = client
        return client

    def frames(self, agent: Agent) -> list[Any]:
        return agent.client.received() if agent.client is not None else []

    def step(self, n: int, kind: str, x: int, y: int) -> None:
        agent = self.agents[n % len(self.agents)]
        if kind == "finish-job":
            self.finish(1)
        elif kind == "fail-job":  # every worker busy, or the job ran out of time
            self.finish(1, {"error": "busy" if x % 2 else "out-of-time"})
        elif kind == "wait":
            self.now += (x % 8) * 0.75
            self.server.now = self.now
            self.server.advance(self.now)
            self.settle()
        elif kind == "drop":
            if agent.client is not None and not agent.client.link.closed:
                agent.client.drop(self.now)
                self.settle()
        elif kind == "garbage":
            client = agent.client or self.connect(agent)
            if not client.link.closed:
                client.receive(b"\xc1", self.now)
        else:
            self.ask(agent, kind, self.fields(agent, kind, x, y))

    def fields(self, agent: Agent, kind: str, x: int, y: int) -> dict[str, Any]:
        if kind == "hello":
            return {
                "protocol": 1,
                "name": agent.name,
                **({"token": agent.token} if agent.token and x % 3 else {}),
            }
        if kind == "create-room":
            return dict(GAMES[x % len(GAMES)])
        if kind == "join-room":
            return {
                "room": self.codes[-1 - x % min(3, len(self.codes))],  # a recent one
                "role": "spectator" if y % 4 == 0 else "player",
                **({"password": "wrong" if y % 5 == 1 else "sesame"} if y % 3 else {}),
            }
        if kind == "player-info":
            return [{"name": f"N{x}"}, {"color": "teal"}, {}, {"name": "Computer"}][y % 4]
        if kind == "move":
            return {
                "move": [
                    {"x": x % 15, "y": y % 15},
                    {"action": "reveal", "x": x % 9, "y": y % 9},
                    {"action": "mark", "x": x % 9, "y": y % 9, "mark": "flag"},
                    {"action": "hint"},
                    {"action": "shuffle"},
                    {"action": "link", "a": [x % 4, y % 4], "b": [y % 4, x % 4]},
                ][(x + y) % 6]
            }
        if kind == "chat":
            return {"text": "hi"}
        if kind == "host":  # every action, at anyone (the sender too), valid or not
            action = ("kick", "mute", "unmute", "lock", "unlock", "hand-over", "computer")[x % 7]
            return {
                "action": action,
                "player": self.agents[y % 3].player or "p0",
                **({"minutes": 1 + y % 3} if x % 2 else {}),
                **({"level": "hard"} if y % 2 else {}),
            }
        if kind in ("offer", "answer"):
            return {
                "kind": "draw" if x % 2 else "takeback",
                **({"accept": bool(y % 2)} if kind == "answer" else {}),
            }
        return {}

    def ask(self, agent: Agent, kind: str, fields: dict[str, Any]) -> None:
        client = agent.client
        if client is None or client.link.closed:
            client = self.connect(agent)
        before = len(client.link.frames)
        rid = client.send(kind, self.now, **fields)
        asked = Asked(rid, kind, agent, client, before)
        agent.asked.append(asked)
        got = client.received()[before:]
        for msg in got:
            if isinstance(msg, p.Welcome):
                agent.token, agent.player = msg.token, msg.player
            if isinstance(msg, p.Joined) and msg.re is not None:
                self.codes.append(msg.room)
        asked.answered = client.link.closed or answers(asked, got)
        if not asked.answered:  # only a request waiting for a job, or a sync waiting
            # for its connection's snapshot limit, may go on waiting
            assert self.server.work or (kind == "sync" and self.server.later), (
                f"{kind} {fields} got no answer: {[type(m).__name__ for m in got]}"
            )
            self.waiting.append(asked)

    def finish(self, count: int | None = None, answer: dict[str, Any] | None = None) -> None:
        """Answer ``count`` held jobs (all if None), oldest first: by running them, or
        with ``answer`` (a failure)."""
        done = 0
        while self.server.work and (count is None or done < count):
            job = self.server.work.pop(0)
            result = answer if answer is not None else run_job(job.job)
            self.server.execute(self.server.hub.work_done(job.room, job.ticket, result, self.now))
            done += 1
        self.settle()

    def settle(self) -> None:
        """Claim what came since for the requests still waiting (whatever step caused
        it: a job, another client's request, a timer); a closed connection counts as
        their answer."""
        for asked in list(self.waiting):
            if asked.client.link.closed or answers(asked, asked.client.received()[asked.start :]):
                asked.answered = True
                self.waiting.remove(asked)

    def check_once(self) -> None:
        """No request got two errors, or an error and a success, with its id."""
        for agent in self.agents:
            if agent.client is None:
                continue
            errors: dict[int, int] = {}
            others: set[int] = set()
            for msg in agent.client.received():
                re = getattr(msg, "re", None)
                if re is None:
                    continue
                if isinstance(msg, p.Error):
                    errors[re] = errors.get(re, 0) + 1
                else:
                    others.add(re)
            assert all(n == 1 for n in errors.values()), errors
            assert not set(errors) & others, set(errors) & others


step = st.tuples(
    st.integers(0, 2), st.sampled_from(WEIGHTED), st.integers(0, 30), st.integers(0, 30)
)


@example(
    tight=False,
    steps=[  # a second agree-again
        (0, "create-room", 0, 0),
        (1, "join-room", 0, 1),
        (0, "resign", 0, 0),
        (0, "play-again", 0, 0),
        (0, "agree-again", 0, 0),
    ],
)
@example(
    tight=False,
    steps=[  # a password guess still out when the room closes
        (0, "create-room", 1, 0),
        (1, "join-room", 0, 2),
        (0, "leave-room", 0, 0),
    ],
)
@example(
    tight=False,
    steps=[  # the mover leaves while the mines are laid
        (0, "create-room", 3, 0),
        (1, "join-room", 0, 1),
        (0, "move", 1, 0),
        (0, "leave-room", 0, 0),
    ],
)
@example(
    tight=False,
    steps=[  # the starter leaves while the board is made
        (0, "create-room", 4, 0),
        (1, "join-room", 0, 1),
        (0, "start", 0, 0),
        (0, "leave-room", 0, 0),
    ],
)
@example(
    tight=False,
    steps=[  # a second agree-again starts a race whose board fails
        (0, "create-room", 4, 0),
        (1, "join-room", 0, 1),
        (0, "start", 0, 0),
        (0, "finish-job", 0, 0),
        (0, "resign", 0, 0),
        (1, "resign", 0, 0),
        (0, "play-again", 0, 0),
        (1, "leave-room", 0, 0),
        (0, "agree-again", 0, 0),
        (0, "fail-job", 1, 0),
    ],
)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(
    tight=True,
    steps=[  # the snapshot limit spent: the second sync folds into the first
        *[(0, "hello", 0, 0)] * 3,
        *[(0, "list-rooms", 0, 0)] * 2,
        *[(0, "sync", 0, 0)] * 2,
    ],
)
@given(tight=st.booleans(), steps=st.lists(step, min_size=5, max_size=70))
def test_every_request_with_an_id_is_answered(
    tight: bool, steps: list[tuple[int, str, int, int]]
) -> None:
    world = World(tight)
    for agent in world.agents:  # everyone starts welcomed
        world.ask(agent, "hello", {"protocol": 1, "name": agent.name})
    for n, kind, x, y in steps:
        world.step(n, kind, x, y)
        world.settle()
    world.finish()
    world.now += 60.0  # every waiting sync's turn comes
    world.server.now = world.now
    world.server.advance(world.now)
    world.settle()
    unanswered = [(a.kind, a.rid, a.who.name) for a in world.waiting if not a.answered]
    assert not unanswered, unanswered
    world.check_once()
