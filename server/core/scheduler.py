"""Which worker job runs next: one bounded queue, fair per address and per room.

Every job the worker pool runs (``server/io/workers/work.py``) goes through one
:class:`Scheduler`. It is pure (no asyncio, no processes): the pool offers jobs
and asks which ones may start; the scheduler only keeps the books. Its rules:

- Two classes. ``quick`` jobs answer a person who waits (a password check, a
  board or mine layout, a hint, a shuffle); ``computer`` jobs are a computer
  player's thinking, which can take its whole budget every move.
- ``reserve`` worker slots are never given to computers, so a quick job never
  waits behind computers; when a slot frees, a waiting quick job goes first.
- Within a class, addresses take turns (round robin), and within an address
  its rooms take turns: many rooms from one address get one address's share.
- No address holds every slot: an address runs at most ``total - 1`` jobs
  (of any class) and at most half the computer slots (at least one), so
  another address's job finds a free slot, not a queue behind computers.
- ``background`` jobs (a game's analysis, one position each) run on computer
  slots only when no computer job waits for one, and never on the last free one:
  at most ``workers - 1`` of them at once (one when there is a single worker), so a
  computer move waits behind at most what is already running. Never refused:
  they are bounded by their key and by the service that sends them.
- Bounds. A quick job past its address's cap (queued and running) is refused
  at once (``server-busy``); when all ``max_queued`` quick places are taken, a
  newcomer from an address holding fewer evicts the newest queued job of the
  address holding the most (which is told ``server-busy``), else it is
  refused. A computer job is never refused (the game would stall): it is
  bounded by its key, one per computer seat (a newer one replaces the queued
  one), and the lobby's rooms-per-address and rooms caps.
"""

from __future__ import annotations

from collections import Counter, OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

T = TypeVar("T")

JobClass = Literal["quick", "computer", "background"]
CLASSES: tuple[JobClass, ...] = ("quick", "computer", "background")
"""In the order a free slot goes to them."""


@dataclass(frozen=True)
class Owner:
    """Whom a job is charged to: the address that asked and the room it serves."""

    address: str
    room: str


@dataclass
class Entry(Generic[T]):
    """One job in the books; ``item`` is whatever the pool needs to run it."""

    ticket: int
    owner: Owner
    cls: JobClass
    item: T
    key: Hashable | None = None


@dataclass
class Admission(Generic[T]):
    """What :meth:`Scheduler.offer` did: ``accepted`` (queued) or not; queued
    jobs it pushed out: ``evicted`` (to be told ``server-busy``) and ``replaced``
    (superseded by the new one under the same key: dropped without a word)."""

    accepted: bool
    evicted: list[T] = field(default_factory=list)
    replaced: list[T] = field(default_factory=list)


class _Queue(Generic[T]):
    """One class's waiting jobs: address -> room -> jobs, each level in turn order."""

    def __init__(self) -> None:
        self.by_address: OrderedDict[str, OrderedDict[str, deque[Entry[T]]]] = OrderedDict()
        self.count = 0

    def push(self, entry: Entry[T]) -> None:
        rooms = self.by_address.setdefault(entry.owner.address, OrderedDict())
        rooms.setdefault(entry.owner.room, deque()).append(entry)
        self.count += 1

    def remove(self, entry: Entry[T]) -> None:
        rooms = self.by_address[entry.owner.address]
        jobs = rooms[entry.owner.room]
        jobs.remove(entry)
        self.count -= 1
        if not jobs:
            del rooms[entry.owner.room]
            if not rooms:
                del self.by_address[entry.owner.address]

    def take(self, address: str) -> Entry[T]:
        """The next job of ``address`` (its rooms in turn); the address goes last."""
        rooms = self.by_address[address]
        room, jobs = next(iter(rooms.items()))
        entry = jobs.popleft()
        self.count -= 1
        if jobs:
            rooms.move_to_end(room)
        else:
            del rooms[room]
        if rooms:
            self.by_address.move_to_end(address)
        else:
            del self.by_address[address]
        return entry

    def newest(self, address: str) -> Entry[T] | None:
        """The job of ``address`` queued last (the first to go when it must shed one)."""
        rooms = self.by_address.get(address)
        if not rooms:
            return None
        return max((jobs[-1] for jobs in rooms.values()), key=lambda e: e.ticket)


class Scheduler(Generic[T]):
    """See the module docstring. ``workers`` slots may think for computers;
    ``reserve`` more are kept for quick jobs."""

    def __init__(
        self, workers: int, reserve: int = 1, max_queued: int = 32, per_address: int = 4
    ) -> None:
        self.computer_slots = max(1, workers)
        self.total = self.computer_slots + max(0, reserve)
        self.max_queued = max(1, max_queued)
        """Quick jobs queued or running at once, over all addresses."""
        self.per_address = max(1, per_address)
        """Quick jobs one address may have queued or running at once."""
        self.address_slots = max(1, self.total - 1)
        """Slots one address may hold at once (of any class)."""
        self.address_computer_slots = max(1, self.computer_slots // 2)
        self.background_slots = max(1, self.computer_slots - 1)
        """Computer slots background jobs may hold at once (one is kept for computers)."""
        """Computer slots one address may hold at once."""
        self._queues: dict[JobClass, _Queue[T]] = {c: _Queue() for c in CLASSES}
        self._keys: dict[Hashable, Entry[T]] = {}
        self._running: dict[int, Entry[T]] = {}
        self._running_by: Counter[tuple[str, JobClass]] = Counter()
        """Running jobs per (address, class)."""
        self._running_of: Counter[str] = Counter()
        """Running jobs per address."""
        self._running_class: Counter[JobClass] = Counter()
        self._quick_held: dict[str, int] = {}
        """Quick jobs queued or running, per address."""
        self._tickets = 0

    # -- what the pool asks ------------------------------------------------------
    def offer(
        self, item: T, owner: Owner, cls: JobClass, key: Hashable | None = None
    ) -> Admission[T]:
        """Queue a job (see the module docstring for when it is refused)."""
        admission: Admission[T] = Admission(accepted=True)
        old = self._keys.get(key) if key is not None else None
        if old is not None:  # the same seat asks again: the new job takes the old one's place
            self._drop(old)
            admission.replaced.append(old.item)
        elif cls == "quick":
            if self._quick_held.get(owner.address, 0) >= self.per_address:
                return self._refuse(admission)
            if self.quick_held() >= self.max_queued:
                victim = self._quick_to_shed(owner.address)
                if victim is None:
                    return self._refuse(admission)
                self._drop(victim)
                admission.evicted.append(victim.item)
        if cls == "quick":
            self._quick_held[owner.address] = self._quick_held.get(owner.address, 0) + 1
        self._tickets += 1
        entry = Entry(self._tickets, owner, cls, item, key)
        self._queues[cls].push(entry)
        if key is not None:
            self._keys[key] = entry
        return admission

    def start(self) -> list[tuple[int, T]]:
        """The jobs that may start now, as ``(ticket, item)``; each holds a slot
        until :meth:`finished` is called with its ticket."""
        started: list[tuple[int, T]] = []
        while len(self._running) < self.total:
            entry = self._next()
            if entry is None:
                break
            if entry.key is not None and self._keys.get(entry.key) is entry:
                del self._keys[entry.key]
            self._running[entry.ticket] = entry
            self._count(entry, +1)
            started.append((entry.ticket, entry.item))
        return started

    def finished(self, ticket: int) -> None:
        """A started job is over (answered, failed or abandoned): its slot is free."""
        entry = self._running.pop(ticket, None)
        if entry is not None:
            self._count(entry, -1)
            self._forget_quick(entry)

    def forget_room(self, room: str) -> list[T]:
        """Drop the queued jobs of a room that closed (nobody waits for them)."""
        dropped: list[Entry[T]] = []
        for queue in self._queues.values():
            for rooms in queue.by_address.values():
                dropped.extend(rooms.get(room, ()))
        for entry in dropped:
            self._drop(entry)
        return [e.item for e in dropped]

    # -- what tests and logs read ------------------------------------------------
    @property
    def running(self) -> int:
        return len(self._running)

    def running_of(self, address: str, cls: JobClass | None = None) -> int:
        """Jobs of ``address`` running now (of ``cls``, or of any class)."""
        return self._running_of[address] if cls is None else self._running_by[address, cls]

    def queued(self, cls: JobClass | None = None) -> int:
        classes = CLASSES if cls is None else (cls,)
        return sum(self._queues[c].count for c in classes)

    def quick_held(self) -> int:
        """Quick jobs queued or running, over all addresses."""
        return sum(self._quick_held.values())

    # -- inside ------------------------------------------------------------------
    def _next(self) -> Entry[T] | None:
        """The next job to start: quick first, addresses in turn, skipping those
        at their share; computers only on a computer slot."""
        for cls in CLASSES:
            thinking = self._running_class["computer"] + self._running_class["background"]
            if cls != "quick" and thinking >= self.computer_slots:
                continue
            if cls == "background" and (
                self._running_class[cls] >= self.background_slots or self._queues["computer"].count
            ):
                continue
            queue = self._queues[cls]
            for address in list(queue.by_address):
                if self._running_of[address] >= self.address_slots:
                    continue
                if (
                    cls == "computer"
                    and self._running_by[address, cls] >= self.address_computer_slots
                ):
                    continue
                return queue.take(address)
        return None

    def _count(self, entry: Entry[T], step: int) -> None:
        address, cls = entry.owner.address, entry.cls
        self._running_by[address, cls] += step
        self._running_of[address] += step
        self._running_class[cls] += step
        if not self._running_of[address]:  # no key left behind per address ever seen
            del self._running_of[address]
            self._running_by.pop((address, "quick"), None)
            self._running_by.pop((address, "computer"), None)
            self._running_by.pop((address, "background"), None)

    def _quick_to_shed(self, newcomer: str) -> Entry[T] | None:
        """When the quick places are all taken: the newest queued job of the
        address holding the most, if it holds more than ``newcomer`` would."""
        mine = self._quick_held.get(newcomer, 0) + 1
        for address, held in sorted(self._quick_held.items(), key=lambda kv: -kv[1]):
            if held <= mine:
                return None
            victim = self._queues["quick"].newest(address)
            if victim is not None:
                return victim
        return None

    def _drop(self, entry: Entry[T]) -> None:
        self._queues[entry.cls].remove(entry)
        if entry.key is not None and self._keys.get(entry.key) is entry:
            del self._keys[entry.key]
        self._forget_quick(entry)

    def _forget_quick(self, entry: Entry[T]) -> None:
        if entry.cls != "quick":
            return
        n = self._quick_held.get(entry.owner.address, 0) - 1
        if n > 0:
            self._quick_held[entry.owner.address] = n
        else:
            self._quick_held.pop(entry.owner.address, None)

    @staticmethod
    def _refuse(admission: Admission[T]) -> Admission[T]:
        admission.accepted = False
        return admission
