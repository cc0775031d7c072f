"""A model of everything a room can go through, with restarts at random points.

Hypothesis (or any generator of steps) drives four people through every room event the
protocol has, in all three games: joins and leaves as player and spectator, dropped
connections, reconnects and the reconnect grace running out, chat, host kicks, mutes,
locks and hand-overs, computer seats, clocks and time-outs, take-back and draw offers,
resigns, play-again, link codes and linked devices, renames, the room's jobs out or
done, the operator closing a room or removing a player, retention pruning, and snapshots
every ``journal_rows`` entries (the journal swept after every few turns too, with
``sweep_rows``). A ``restart`` step stops the server at that point (nothing of it
survives but its SQLite file), starts a new one on the file, and checks that:

- every room comes back as it was: each viewer's ``state`` (what a client gets
  after ``sync``), seats, spectators, host, lock, mutes, kicks, round, the game
  itself, the job in flight, with clocks moved past the downtime;
- every identity comes back: the same id for every token (a linked device's too),
  in the same room and role, and nobody the server still knew is forgotten, but
  for those whose time ran out while the server was down;
- the live link codes and ratings are the same.

A step is ``(person, kind, x, y)``: ``x`` and ``y`` choose among what that kind can
do, so any list of steps is a valid conversation. The pure core runs it
(:class:`World`, a hub with an injected clock); ``tests/e2e/test_restart_model_e2e.py``
runs steps against real servers, ``tests/cluster/test_restart_model_pg.py`` against
the PostgreSQL store, and ``bench/restart_model.py`` many more examples.
"""

from __future__ import annotations

import copy
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gridhall import protocol as p
from gridhall.protocol.schema import to_map
from gridhall.server.core.effects import Think
from gridhall.server.core.history_limits import Limits
from gridhall.server.core.hub import Hub
from gridhall.server.core.room import Room
from gridhall.server.games.linkmatch import available_pairs
from gridhall.server.io.store import journal_table
from gridhall.server.io.store.store import Store
from gridhall.server.io.workers.job_runner import run_job
from tests.server.helpers import T0, Client, FakeServer

GRACE = 30.0
GAMES: list[dict[str, Any]] = [
    {"game": "gomoku"},
    {"game": "gomoku", "options": {"clock": "1+0"}},
    {"game": "gomoku", "password": "sesame"},
    {"game": "gomoku", "options": {"ai": "easy"}},
    {"game": "gomoku", "options": {"rated": True}},
    {"game": "minesweeper", "options": {"preset": "beginner"}},
    {"game": "minesweeper", "options": {"width": 6, "height": 6, "mines": 4, "lives": 2}},
    {"game": "linkmatch", "options": {"width": 4, "height": 4, "kinds": 2, "countdown": 0}},
    {"game": "linkmatch", "options": {"width": 4, "height": 2, "kinds": 2, "time_limit": 60}},
]
NAMES = ("Ann", "Bob", "Cy", "Dee")
KINDS = (
    "hello",
    "create",
    "join",
    "watch",
    "leave",
    "drop",
    "move",
    "chat",
    "rename",
    "resign",
    "play-again",
    "agree-again",
    "decline-again",
    "offer",
    "answer",
    "start",
    "host",
    "link-code",
    "link",
    "think",
    "finish-job",
    "fail-job",
    "wait",
    "sync",
    "prune",
    "operator",
    "restart",
)
WEIGHTED = (
    *KINDS,
    *("hello", "create", "join", "join", "watch", "move", "move", "move", "move", "move"),
    *("host", "host", "wait", "wait", "think", "finish-job", "play-again", "agree-again"),
)
"""Steps to draw from: those that move a room along come more often."""
HOST_ACTIONS = ("kick", "mute", "unmute", "lock", "unlock", "hand-over", "computer")


@dataclass
class Person:
    """Someone behind a connection (a new one after each drop or restart)."""

    name: str
    peer: str
    client: Client | None = None
    token: str = ""
    player: str = ""
    devices: list[str] = field(default_factory=list)
    """Every token this person was given (linked devices' too)."""
    link_code: str | None = None


@dataclass
class Found:
    """What one run saw: how far it went and what it checked."""

    steps: int = 0
    restarts: int = 0
    rooms_checked: int = 0
    identities_checked: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    """Steps that did something (not refused), by kind."""
    refused: Counter[str] = field(default_factory=Counter)
    why: Counter[str] = field(default_factory=Counter)
    """Refusals by kind and error code."""
    games: Counter[str] = field(default_factory=Counter)
    """Rooms checked at a restart, by game."""
    statuses: Counter[str] = field(default_factory=Counter)


class Backend:
    """Where the server keeps its rooms, and what a restart is: here one process on
    an SQLite file, started again on it (``tests/cluster/test_restart_model_pg.py``:
    nodes on PostgreSQL, another node taking the rooms over)."""

    sweeps = True
    """A restart knows every identity (a takeover: those of its rooms)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.starts = 0

    def local(self) -> Store:
        """The SQLite file of the next process (history and ratings live there)."""
        return Store(
            self.folder / "g.db", limits=Limits(chat_rows_per_room=3, chat_rows=5, games_rows=2)
        )

    def boot(self, journal_rows: int) -> FakeServer:
        self.starts += 1
        server = FakeServer(
            store=self.local(),
            hold_work=True,
            grace_seconds=GRACE,
            journal_rows=journal_rows,
            rated_identity_days=1.0,
        )
        assert server.store is not None
        server.hub.ratings.load(server.store.ratings.load())
        return server

    def restart(self, old: FakeServer, journal_rows: int, now: float, crash: float) -> FakeServer:
        """A new server on what ``old`` stored (``old`` is gone: killed at ``crash``)."""
        close(old)
        server = self.boot(journal_rows)
        server.now = now
        server.restore(now, crash)
        return server

    def resumes(self, server: FakeServer, token: str) -> str | None:
        """The player ``token`` says hello as on ``server`` (None: a new one)."""
        ident = server.hub.identities.resume(token)
        return None if ident is None else ident.id

    def links(self, server: FakeServer, now: float) -> dict[str, Any]:
        """The link codes that work on ``server`` at ``now``."""
        return live_links(server.hub, now)


def close(server: FakeServer) -> None:
    if server.store is not None:
        server.store.close()


class World:
    """Four people and one server (on ``backend``); :meth:`step` runs one step."""

    def __init__(self, backend: Backend, journal_rows: int = 1000) -> None:
        self.backend = backend
        self.journal_rows = journal_rows
        self.now = T0
        self.server = backend.boot(journal_rows)
        self.people = [Person(name, f"10.0.0.{n % 3 + 1}") for n, name in enumerate(NAMES)]
        self.codes: list[str] = ["NOPE22"]
        self.found = Found()

    @property
    def hub(self) -> Hub:
        return self.server.hub

    def close(self) -> None:
        close(self.server)

    # -- steps ----------------------------------------------------------------
    def step(self, n: int, kind: str, x: int, y: int) -> None:
        self.found.steps += 1
        person = self.people[n % len(self.people)]
        self.server.now = self.now
        if kind == "restart":
            self.restart(down=(0.0, 1.0, 45.0, 4000.0)[x % 4])
            return
        done = getattr(self, "do_" + kind.replace("-", "_"))(person, x, y)
        (self.found.kinds if done is not False else self.found.refused)[kind] += 1
        self.now += 0.25

    def connected(self, person: Person) -> Client | None:
        client = person.client
        return client if client is not None and not client.link.closed else None

    def send(self, person: Person, type_: str, **fields: Any) -> bool:
        """Request ``type_`` from ``person``'s connection (a new one saying hello first):
        True if the server did not refuse it."""
        client = self.connected(person) or self._connect(person)
        before = len(client.link.frames)
        rid = client.send(type_, self.now, **fields)
        got = client.received()[before:]
        self._learn(person, got)
        errors = [m for m in got if isinstance(m, p.Error) and m.re == rid]
        for error in errors:
            self.found.why[f"{type_}: {error.code}"] += 1
        return not errors

    def _connect(self, person: Person, link: str | None = None, name: str = "") -> Client:
        client = Client(self.server, self.now, person.peer)
        fields: dict[str, Any] = {"protocol": 1, "name": name or person.name}
        if link is not None:
            fields["link"] = link
        elif person.token:
            fields["token"] = person.token
        client.send("hello", self.now, **fields)
        person.client = client
        self._learn(person, client.received())
        return client

    def _learn(self, person: Person, got: list[Any]) -> None:
        for msg in got:
            if isinstance(msg, p.Welcome):
                if msg.player != person.player:
                    person.devices = []
                person.player, person.token = msg.player, msg.token
                if msg.token not in person.devices:
                    person.devices.append(msg.token)
            elif isinstance(msg, p.Joined) and msg.re is not None:
                self.codes.append(msg.room)
            elif isinstance(msg, p.LinkCodeIssued):
                person.link_code = msg.code

    def room_of(self, person: Person) -> Room | None:
        ident = self.hub.identities.by_id.get(person.player)
        return ident.room if ident is not None else None

    def do_hello(self, person: Person, x: int, y: int) -> bool:
        if person.client is not None and not person.client.link.closed:
            person.client.drop(self.now)  # the same person on a new connection
        name = person.name if y % 4 else NAMES[x % len(NAMES)]  # sometimes another's name
        if x % 5 == 4:
            person.token = ""  # a new identity (the old one is left to its grace)
        self._connect(person, name=name)
        return True

    def do_create(self, person: Person, x: int, y: int) -> bool:
        if y % 4 and self.room_of(person) is not None:
            self.send(person, "leave-room")  # mostly: leave the room first
        return self.send(person, "create-room", **GAMES[x % len(GAMES)])

    def do_join(self, person: Person, x: int, y: int, role: str = "player") -> bool:
        if y % 4 and self.room_of(person) is not None:
            self.send(person, "leave-room")
        live = sorted(self.hub.lobby.rooms)
        code = live[x % len(live)] if live and x % 9 else self.codes[-1 - x % len(self.codes)]
        password = {} if y % 5 == 0 else {"password": "wrong" if y % 5 == 1 else "sesame"}
        return self.send(person, "join-room", room=code, role=role, **password)

    def do_watch(self, person: Person, x: int, y: int) -> bool:
        return self.do_join(person, x, y, "spectator")

    def do_leave(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "leave-room")

    def do_drop(self, person: Person, x: int, y: int) -> bool:
        client = self.connected(person)
        if client is None:
            return False
        client.drop(self.now)
        return True

    def seated_somewhere(self, person: Person, x: int) -> Person:
        """``person``, or (mostly, when ``person`` is in no room) someone who is."""
        if x % 5 == 0 or self.room_of(person) is not None:
            return person
        others = [q for q in self.people if self.room_of(q) is not None]
        return others[x % len(others)] if others else person

    def actor(self, person: Person, x: int, who: Any = None) -> Person:
        """Mostly someone in a room: the person there that ``who(room)`` names (the one
        to move, to answer ...), else ``person``."""
        person = self.seated_somewhere(person, x)
        room = self.room_of(person)
        if room is None or x % 5 == 0 or who is None:
            return person
        pid = who(room)
        return next((q for q in self.people if q.player and q.player == pid), person)

    def do_move(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, x, lambda room: room.game and room.game.turn())
        room = self.room_of(person)
        game = room.game if room is not None else None
        if room is None or game is None:
            return self.send(person, "move", move={"x": x % 15, "y": y % 15})
        view = game.view(person.player)
        seat = room.game_players.index(person.player) if person.player in room.game_players else 0
        return self.send(person, "move", move=choose_move(room.spec.name, view, seat, x, y))

    def do_chat(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "chat", text=f"line {x}")

    def do_rename(self, person: Person, x: int, y: int) -> bool:
        change = [
            {"name": NAMES[x % len(NAMES)] + ("" if y % 2 else " Jr")},
            {"color": ("teal", "#ff8800", "red")[x % 3]},
            {"name": person.name, "color": "blue"},
        ][y % 3]
        return self.send(person, "player-info", **change)

    def do_resign(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "resign")

    def do_play_again(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "play-again")

    def do_agree_again(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(
            person,
            x,
            lambda room: next((s.id for s in room.seated if s.id not in (room.again or [])), None),
        )
        room = self.room_of(person)
        if room is not None and room.again is None and y % 2:  # nothing asked yet: ask
            return self.send(person, "play-again")
        return self.send(person, "agree-again")

    def do_decline_again(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "decline-again")

    def do_offer(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "offer", kind="takeback" if x % 2 else "draw")

    def do_answer(self, person: Person, x: int, y: int) -> bool:
        def other(room: Room) -> str | None:
            view = room.game.view(None) if room.game is not None else {}
            pending = view.get("pending") or {}
            return next((s.id for s in room.seated if s.id != pending.get("from")), None)

        person = self.actor(person, x, other)
        room = self.room_of(person)
        view = room.game.view(None) if room is not None and room.game is not None else {}
        pending = view.get("pending") or {}
        if not pending and y % 3:  # nothing to answer yet: the one to move offers first
            mover = self.actor(person, 1, lambda room: room.game and room.game.turn())
            self.send(mover, "offer", kind="takeback" if x % 2 else "draw")
            view = room.game.view(None) if room is not None and room.game is not None else {}
            pending = view.get("pending") or {}
            person = self.actor(person, 1, other)
        kind = pending.get("kind") or ("takeback" if x % 2 else "draw")
        return self.send(person, "answer", kind=kind, accept=bool(y % 2))

    def do_start(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, x, lambda room: room.mod.host)
        return self.send(person, "start")

    def do_host(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y, lambda room: room.mod.host)
        action = HOST_ACTIONS[x % len(HOST_ACTIONS)]
        room = self.room_of(person)
        members = [m.id for m in room.members] if room is not None else []
        target = members[y % len(members)] if members else "p0"
        fields: dict[str, Any] = {"action": action}
        if action in ("kick", "mute", "unmute", "hand-over"):
            fields["player"] = target
        if action in ("kick", "mute") and y % 3:
            fields["minutes"] = 1 + y % 2
        if action == "computer":
            fields["level"] = ("easy", "hard")[y % 2]
        return self.send(person, "host", **fields)

    def do_link_code(self, person: Person, x: int, y: int) -> bool:
        return self.send(person, "link-code")

    def do_link(self, person: Person, x: int, y: int) -> bool:
        """Someone carries its identity to a second device with its code."""
        holders = [q for q in self.people if q.link_code is not None]
        person = holders[x % len(holders)] if holders else person
        code = person.link_code
        if code is None:
            return False
        person.link_code = None
        if person.client is not None and not person.client.link.closed:
            person.client.drop(self.now)
        client = self._connect(person, link=code if x % 4 else "WRONG-CODE")
        return isinstance(client.received()[0], p.Welcome)

    def do_think(self, person: Person, x: int, y: int) -> bool:
        """A computer player answers (with a legal move, or a stale one)."""
        for code, room in sorted(self.hub.lobby.rooms.items()):
            for bot, request in sorted(room.thinking.items()):
                move = gomoku_free(request, x)
                job = Think(code, bot, room.spec.name, "easy", request)
                self.server.execute(self.hub.computer_move(job, move, self.now))
                return True
        return False

    def do_finish_job(self, person: Person, x: int, y: int, answer: Any = None) -> bool:
        if not self.server.work:
            return False
        job = self.server.work.pop(0)
        result = answer if answer is not None else run_job(job.job)
        self.server.execute(self.hub.work_done(job.room, job.ticket, result, self.now))
        return True

    def do_fail_job(self, person: Person, x: int, y: int) -> bool:
        return self.do_finish_job(person, x, y, {"error": "busy" if x % 2 else "out-of-time"})

    def do_wait(self, person: Person, x: int, y: int) -> bool:
        self.now += (0.5, 3.0, GRACE + 1, 61.0, 130.0, 4000.0)[x % 6]
        self.server.now = self.now
        self.server.advance(self.now)
        return True

    def do_sync(self, person: Person, x: int, y: int) -> bool:
        person = self.actor(person, y)
        return self.send(person, "sync")

    def do_operator(self, person: Person, x: int, y: int) -> bool:
        """The server's operator closes someone's room, or removes them (they leave
        their room and their connection is closed)."""
        person = self.seated_somewhere(person, y)
        ident = self.hub.identities.by_id.get(person.player)
        if ident is None or (ident.room is None and x % 2 == 0):
            return False
        if x % 2 == 0 and ident.room is not None:
            self.server.execute(self.hub.close_room(ident.room.code, "closing time", self.now))
            return True
        if ident.room is not None:
            effects, _error = self.hub.handle(ident, p.LeaveRoom(), self.now)
            self.server.execute(effects)
        self.do_drop(person, x, y)
        return True

    def do_prune(self, person: Person, x: int, y: int) -> bool:
        assert self.server.store is not None
        while self.server.store.prune(self.now):
            pass
        return True

    # -- the restart ----------------------------------------------------------
    def restart(self, down: float) -> None:
        """Stop the server here (kill -9: nothing but its file survives), start a new
        one ``down`` seconds later, and check everything came back."""
        old = self.server
        crash = self.now
        self.now = crash + down
        for room in old.hub.lobby.rooms.values():  # what the restore does to the clocks
            game = room.game
            if game is not None and game.result is None and not room.closed:
                game.shift(down)
        before = observe(old.hub, self.now)
        before["links"] = self.backend.links(old, self.now)
        kept = survivors(old.hub, self.now)
        tokens = {t: old.hub.identities.resume(t) for q in self.people for t in q.devices}
        for person in self.people:
            if person.client is not None:
                person.client.link.close(1012, "server restarting")
            person.client = None
        self.server = self.backend.restart(old, self.journal_rows, self.now, crash)
        after = observe(self.hub, self.now)
        after["links"] = self.backend.links(self.server, self.now)
        compare(before, after, kept, self.backend)
        for token, ident in tokens.items():
            resumed = self.backend.resumes(self.server, token)
            if ident is not None and ident.id in kept:
                assert resumed == ident.id, (token, ident.id, resumed)
        self.found.restarts += 1
        self.found.rooms_checked += len(before["rooms"])
        self.found.identities_checked += len(kept)
        for room in before["rooms"].values():
            self.found.games[room["game"]] += 1
            self.found.statuses[room["status"]] += 1


def choose_move(game: str, view: dict[str, Any], seat: int, x: int, y: int) -> dict[str, Any]:
    """A move in ``game`` for the player of ``seat`` who sees ``view``: mostly legal,
    one that ends a game soon now and then, sometimes one the rules refuse."""
    if game == "gomoku":
        taken = {tuple(m) for m in view.get("moves", [])}
        size = int(view.get("size", 15))
        if x % 3:  # in a row of my own: five of them win
            row = 2 * seat
            free = [(c, row) for c in range(size) if (c, row) not in taken]
        else:
            free = [(c % size, c // size) for c in range(size * size)]
            free = [c for c in free[(x * 7 + y) % len(free) :] if c not in taken]
        cx, cy = free[0] if free else (x % size, y % size)
        return {"x": cx, "y": cy}
    if game == "minesweeper":
        width, height = int(view.get("width", 9)), int(view.get("height", 9))
        action = ("reveal", "reveal", "reveal", "mark", "hint", "chord")[y % 6]
        if action == "hint":
            return {"action": "hint"}
        move: dict[str, Any] = {"action": action, "x": x % width, "y": (x + y) % height}
        if action == "mark":
            move["mark"] = ("flag", "question", "none")[x % 3]
        return move
    rows = view.get("rows")
    if not rows or y % 7 == 0:
        return {"action": ("shuffle", "hint")[x % 2]}
    pairs = available_pairs(rows)
    if not pairs or y % 5 == 0:
        return {"action": "link", "a": [0, 0], "b": [x % 4, y % 2]}
    a, b = pairs[x % len(pairs)]
    return {"action": "link", "a": list(a), "b": list(b)}


def gomoku_free(request: dict[str, Any], x: int) -> dict[str, Any]:
    """A computer's answer: a free point of the position it was asked about."""
    size = int(request.get("size", 15))
    taken = {tuple(m) for m in request.get("moves", [])}
    for c in range(x % 7, size * size):
        if (c % size, 7 + c // size) not in taken and 7 + c // size < size:
            return {"x": c % size, "y": 7 + c // size}
    return {"x": 0, "y": 0}


# -- what a restart must keep ---------------------------------------------------------


def observe(hub: Hub, now: float) -> dict[str, Any]:
    """Everything a restart at ``now`` must bring back, as plain data."""
    rooms = {
        code: observe_room(room, now) for code, room in hub.lobby.rooms.items() if not room.closed
    }
    identities = {}
    for ident in hub.identities.by_id.values():
        room = ident.room
        identities[ident.id] = {
            "token": ident.token_hash,
            "linked": sorted(ident.linked),
            "bot": ident.bot,
            "room": None if room is None else room.code,
            "role": ident.role,
            **({"name": ident.name, "color": ident.color} if room is not None else {}),
        }
    links = live_links(hub, now)
    ratings = {f"{k[0]}/{k[1]}": v for k, v in sorted(hub.ratings.table.items())}
    return {
        "rooms": rooms,
        "identities": identities,
        "links": links,
        "ratings": ratings,
        "lobby": sorted(hub.lobby.listing(), key=lambda r: r["room"]),
    }


def live_links(hub: Hub, now: float) -> dict[str, Any]:
    return {
        digest: (code.player, code.expires)
        for digest, code in sorted(hub.links.by_hash.items())
        if code.expires > now
    }


def observe_room(room: Room, now: float) -> dict[str, Any]:
    game = room.game
    viewers = sorted({room.views.viewer(m) or "" for m in room.members} | {""})
    states = {}
    if game is not None and game.result is None:  # as ``sync`` shows it: its clocks run
        room.game = copy.deepcopy(game)  # to now first (on a copy: nothing is changed)
        room.game.tick(now)
    try:
        for viewer in viewers:
            state = to_map(room.snapshot(viewer or None))
            for player in state["players"]:
                player.pop("connected")  # everyone is offline after a restart
            states[viewer] = state
        shown = None if room.game is None else copy.deepcopy(played(room))
        deadline = None if room.game is None or room.game.result else room.game.deadline()
    finally:
        room.game = game
    pending = room.jobs.pending
    return {
        "game": room.spec.name,
        "status": room.status,
        "states": states,
        "seats": [None if s is None else (s.id, s.name, s.color, s.bot) for s in room.seats],
        "spectators": [(s.id, s.name, s.color) for s in room.spectators],
        "hosting": live_kicks(room.mod.to_json(), now),
        "fixed": (room.creator, room.private, room.protected, room.password_hash, room.seed),
        "options": room.options,
        "rounds": (room.round_no, room.games_started, room.again, room.over_announced),
        "game_players": None if game is None else (room.game_players, room.game_started_at),
        "played": shown,
        "deadline": deadline,
        "job": None
        if pending is None or pending.kind == "join"  # a password check is not kept
        else (pending.kind, pending.ticket, pending.ident and pending.ident.id, pending.move),
        "tickets": room.jobs.tickets,
        "seq": room.seq,
        "chat": list(room.chat),
    }


def live_kicks(hosting: dict[str, Any], now: float) -> dict[str, Any]:
    """The host's state without kicks that have ended (forgotten whenever a join is
    checked, even one refused and so not journalled: nothing tells them apart)."""
    for key in ("kicked", "kicked_addresses"):
        hosting[key] = {k: t for k, t in hosting[key].items() if t > now}
    return hosting


def played(room: Room) -> Any:
    """The game as plain data (its saved state, or what every viewer sees)."""
    game = room.game
    assert game is not None
    if room.spec.saves_games:
        return game.state()
    return {
        "views": {v: game.view(v or None) for v in ["", *game.players]},
        "result": game.result,
        "turn": game.turn(),
    }


def survivors(hub: Hub, now: float) -> set[str]:
    """Who a restart at ``now`` must bring back: every identity, but those offline and
    roomless whose time ran out by then."""
    return {
        pid
        for pid, ident in hub.identities.by_id.items()
        if ident.room is not None or hub._expiry.get(pid, float("inf")) > now
    }


def compare(
    before: dict[str, Any], after: dict[str, Any], kept: set[str], backend: Backend
) -> None:
    assert sorted(after["rooms"]) == sorted(before["rooms"]), "rooms"
    for code, room in before["rooms"].items():
        got = after["rooms"][code]
        for key, value in room.items():
            assert got[key] == value, (code, key, value, got[key])
    if not backend.sweeps:  # a takeover knows the rooms' people; the rest say hello
        kept = {pid for pid in kept if before["identities"][pid]["room"] is not None}
        after = {**after, "identities": {k: after["identities"].get(k) for k in kept}}
    expected = {pid: v for pid, v in before["identities"].items() if pid in kept}
    assert sorted(after["identities"]) == sorted(expected), "identities"
    for pid, ident in expected.items():
        assert after["identities"][pid] == ident, (pid, ident, after["identities"][pid])
    assert after["links"] == before["links"], "link codes"
    assert after["ratings"] == before["ratings"], "ratings"
    assert after["lobby"] == before["lobby"], "lobby"


def opening(game: int) -> list[tuple[int, str, int, int]]:
    """How an example begins: Ann makes a room of ``GAMES[game]``, Bob joins it (with
    its password, if it has one) and Cy watches; the steps go on from there."""
    return [(0, "create", game, 0), (1, "join", 1, 2), (2, "watch", 1, 2)]


def run(
    steps: list[tuple[int, str, int, int]],
    journal_rows: int = 1000,
    game: int = 0,
    backend: type[Backend] = Backend,
    sweep_rows: int | None = None,
) -> Found:
    """Run the opening for ``GAMES[game]``, then ``steps``, then restart once more; what
    it found (an AssertionError if a restart lost anything). ``sweep_rows``: the SQLite
    journal is swept that often (``journal_table.SWEEP_ROWS``; 1,000 if None), so a
    small one sweeps after nearly every turn."""
    swept = journal_table.SWEEP_ROWS
    if sweep_rows is not None:
        journal_table.SWEEP_ROWS = sweep_rows
    try:
        with tempfile.TemporaryDirectory() as folder:
            world = World(backend(Path(folder)), journal_rows)
            try:
                for n, kind, x, y in [*opening(game), *steps]:
                    world.step(n, kind, x, y)
                world.restart(down=1.0)
            finally:
                world.close()
            return world.found
    finally:
        journal_table.SWEEP_ROWS = swept
