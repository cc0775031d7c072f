"""A room's lifecycle: the phases it goes through and what moves it on, as one table.

Theory of operation
===================

A room is in one of four phases::

    WAITING --GAME_STARTED--> PLAYING --(the game has a result)--> OVER
       ^                                                           |  |
       +---------------------------REMATCH-------------------------+  |
                                   PLAYING <------GAME_STARTED--------+
    any phase --CLOSE--> CLOSED (for good)

As in h11's ``_state.py``, transitions come in two kinds:

- *Event-triggered*: the room does something that changes the phase (a game is
  created, every player agreed to a rematch, nobody is left). The room reports it
  with :meth:`Lifecycle.process`; the table :data:`TRANSITIONS` says where it leads,
  and an event the table has no entry for is a bug in the room (:class:`LifecycleError`,
  our fault, never a client's: clients are refused before anything changes).
- *State-triggered*: a game ends inside its own rules (a move wins, a clock runs
  out, a player resigns), however it ended. :meth:`Lifecycle.settle` is called after
  every call into the game's rules and moves PLAYING to OVER once the game has a
  result (:data:`STATE_TRIGGERED`).

A game is PLAYING from the moment it exists until it has a result; a board still
being made (a job) leaves the phase alone: the game starts only when its answer is
in. The wire's ``status`` (``waiting``, ``playing``, ``over``) is the phase's name;
a CLOSED room reports the phase it closed in (its last listing said so).
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

Status = Literal["waiting", "playing", "over"]


class Phase(Enum):
    """Where a room is in its life."""

    WAITING = "waiting"
    """No game: seats fill (or the host has not started one yet)."""
    PLAYING = "playing"
    """A game is under way."""
    OVER = "over"
    """The game has a result; players may ask for another."""
    CLOSED = "closed"
    """Nobody is left who could come back (or the operator closed it)."""


class Step(Enum):
    """What the room does that moves its phase on (event-triggered transitions)."""

    GAME_STARTED = "game-started"
    REMATCH = "rematch"
    CLOSE = "close"


class LifecycleError(Exception):
    """The room asked for a transition its phase does not have: a bug in the room."""


TRANSITIONS: dict[Phase, dict[Step, Phase]] = {
    Phase.WAITING: {
        Step.GAME_STARTED: Phase.PLAYING,
        Step.CLOSE: Phase.CLOSED,
    },
    Phase.PLAYING: {
        Step.CLOSE: Phase.CLOSED,
    },
    Phase.OVER: {
        Step.GAME_STARTED: Phase.PLAYING,  # a manually started game (Link-match's next race)
        Step.REMATCH: Phase.WAITING,
        Step.CLOSE: Phase.CLOSED,
    },
    Phase.CLOSED: {
        Step.CLOSE: Phase.CLOSED,  # closing twice (the last member leaves as it closes)
    },
}
"""Event-triggered transitions: phase -> step -> next phase. Anything missing is refused."""

STATE_TRIGGERED: dict[tuple[Phase, bool], Phase] = {
    (Phase.PLAYING, True): Phase.OVER,
}
"""State-triggered transitions: (phase, the game has a result) -> next phase. Only a
result triggers one, so the driver asks only once a game has one (on every move);
``tests/server/test_room_lifecycle.py`` pins this table."""


class Lifecycle:
    """One room's phase; changed only through :data:`TRANSITIONS` and :data:`STATE_TRIGGERED`."""

    def __init__(self, phase: Phase = Phase.WAITING) -> None:
        self.phase = phase
        self._last_open: Status = "waiting" if phase is Phase.CLOSED else _status(phase)

    @property
    def status(self) -> Status:
        """The phase as the wire names it (a CLOSED room: the phase it closed in)."""
        return self._last_open if self.phase is Phase.CLOSED else _status(self.phase)

    @property
    def closed(self) -> bool:
        return self.phase is Phase.CLOSED

    def process(self, step: Step) -> Phase:
        """Take ``step``; :class:`LifecycleError` if the phase has no such transition."""
        try:
            new = TRANSITIONS[self.phase][step]
        except KeyError:
            raise LifecycleError(
                f"a room cannot take {step.value!r} while {self.phase.value}"
            ) from None
        self._enter(new)
        return new

    def settle(self, game_over: bool) -> Phase:
        """Fire the state-triggered transitions for what the game is now."""
        new = STATE_TRIGGERED.get((self.phase, game_over))
        if new is not None:
            self._enter(new)
        return self.phase

    def restore(self, has_game: bool, game_over: bool) -> None:
        """Take the phase a restored room's game implies (a snapshot keeps no phase)."""
        self._enter(Phase.WAITING if not has_game else Phase.OVER if game_over else Phase.PLAYING)

    def _enter(self, phase: Phase) -> None:
        if self.phase is not Phase.CLOSED:
            self._last_open = _status(self.phase)
        self.phase = phase
        if phase is not Phase.CLOSED:
            self._last_open = _status(phase)


_STATUS: dict[Phase, Status] = {
    Phase.WAITING: "waiting",
    Phase.PLAYING: "playing",
    Phase.OVER: "over",
}


def _status(phase: Phase) -> Status:
    """The wire's name of an open phase."""
    return _STATUS[phase]
