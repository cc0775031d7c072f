"""The contract between a room and a game's pure rules.

A room (server/core/room/) owns ordering, seats, connections and the wire; a game
owns rules and hidden state. Games never import asyncio, websockets or msgpack:
time comes in as a ``now`` argument (unix seconds, float) so tests, bots and
benchmarks can drive a game without a clock.

Every game package exports a ``SPEC`` object satisfying :class:`GameSpec`; the
registry in ``server/games/__init__.py`` maps the protocol's game names to them.
A spec may bring a :class:`ComputerPlayer`, which the room seats when the options
ask for one (``ai``) and which thinks in a worker process.

The refused-move contract: a method that raises :class:`GameError` has changed
nothing (``record()`` and every ``view()`` are as before). Rules that count
refused moves (Link-match's wrong links) do it in :meth:`Game.refused`, which the
room calls after a refusal as a separate, explicit step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from gridhall.protocol import Termination

from .jobs import Job

JSON = dict[str, Any]

StartPolicy = Literal["full", "immediate", "manual"]
"""When a room starts a game: ``full`` once ``min_players`` are seated (Gomoku),
``immediate`` as soon as the room exists (co-op Minesweeper), ``manual`` when the
creator sends ``start`` (Link-match)."""


class GameError(Exception):
    """A refused action: carries a protocol error code and a sentence for a person.

    Codes used by games: ``illegal-move`` (against the rules), ``not-your-turn``,
    ``bad-message`` (a move map of the wrong shape), ``not-playing`` (game over
    or not started), ``not-a-player``, ``no-pending-request``. The message must
    never reveal hidden state (e.g. a mine position). Raising it means the game
    changed nothing.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class OptionError(ValueError):
    """Room options that cannot be used; the room answers ``bad-message``."""


@dataclass
class Played:
    """What an accepted action did, for the room to broadcast.

    ``move`` is the normalised move; the room echoes it to each recipient
    through :meth:`Game.visible_move`. ``notices`` are extra room events to
    broadcast after the ``moved`` event, as maps with a ``type`` (e.g. a
    Link-match auto-shuffle notice); they must hold no hidden state.
    """

    move: JSON
    notices: list[JSON] = field(default_factory=list)


class Game(Protocol):
    """One game in progress. Mutable, single-threaded, pure."""

    players: list[str]
    """Seated player ids in seat order (may grow for co-op games)."""

    result: JSON | None
    """``None`` while playing; the protocol's result map once over."""

    def turn(self) -> str | None:
        """The player to move, or ``None`` when anyone may act (or it's over)."""

    def apply(self, player: str, move: JSON, now: float) -> Played:
        """Validate and apply ``move`` by ``player``. Raise GameError to refuse
        (and then change nothing)."""

    def refused(self, player: str, move: JSON, now: float) -> None:
        """``apply`` refused ``move``: count it if the rules count misses (most
        games do nothing here)."""

    def view(self, recipient: str | None) -> JSON:
        """The protocol ``view`` for ``recipient`` (``None`` = spectator).

        This is the one place hidden information is removed."""

    def visible_move(self, by: str, move: JSON, recipient: str | None) -> JSON:
        """The ``move`` field of a ``moved`` event as ``recipient`` may see it.

        A game whose view and moves are the same for every recipient says so with a
        class attribute ``shared_view = True``: the room then builds and encodes each
        event once for everyone."""

    def resign(self, player: str, now: float, reason: Termination = Termination.RESIGN) -> None:
        """``player`` gives up (or is forfeited with ``reason``, e.g. disconnect)."""

    def request(self, player: str, kind: str, now: float) -> JSON:
        """A consent request (Gomoku: ``draw``, ``takeback``). Returns the event
        to broadcast. Games without requests raise GameError(illegal-move)."""

    def respond(self, player: str, kind: str, accept: bool, now: float) -> JSON:
        """Answer a pending request; raise GameError(no-pending-request) if none."""

    def add_player(self, player: str, now: float) -> bool:
        """A late joiner asks for a seat in a game in progress; False = watch."""

    def deadline(self) -> float | None:
        """The next time :meth:`tick` must run (clock expiry, countdown end)."""

    def shift(self, seconds: float) -> None:
        """Move every time anchor ``seconds`` later: the server was down that long and
        clocks stand still while it is (a restored game goes on where it stopped)."""

    def tick(self, now: float) -> list[JSON]:
        """Advance time-driven rules; returns events to broadcast (may set result)."""

    def record(self) -> JSON:
        """Everything the store keeps of this game: options, seed, move log."""


class PreparedMoves(Protocol):
    """A game some of whose moves need heavy work first (a mine layout, a hint's
    search, a shuffle). The room asks :meth:`work_for` before :meth:`Game.apply`;
    for a :class:`~gridhall.server.games.jobs.Job` it runs the job off the event loop
    and later calls ``apply`` with the job's value as ``prepared``. ``apply``
    without ``prepared`` still does the work inline (tests, replays, bots)."""

    def work_for(self, player: str, move: JSON, now: float) -> Job | None:
        """The job ``move`` needs first, or None (also for moves ``apply`` will refuse)."""

    def apply(self, player: str, move: JSON, now: float, prepared: Any = None) -> Played:
        """As :meth:`Game.apply`, using the answer to :meth:`work_for`'s job."""


class PreparedGames(Protocol):
    """A spec whose new games need heavy work first (Link-match's board)."""

    def new_game_work(self, options: JSON, seed: int) -> Job:
        """The job whose value :meth:`new_game` takes as ``prepared``."""

    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Any = None,
    ) -> Game:
        """As :meth:`GameSpec.new_game`, on the prepared board."""


class SavedGames(Protocol):
    """A spec whose games can be saved whole mid-game (``game.state()``, plain data)
    and made again from it: a room snapshots such a game as it goes, so a game that
    never ends keeps a bounded journal. Other games are made again from their seed
    and the journal since they started."""

    def restore_game(self, state: JSON) -> Game:
        """The game whose ``state()`` was ``state``."""


def game_state(spec: GameSpec, game: Game) -> JSON | None:
    """``game`` saved whole, if its spec can make it again (None otherwise)."""
    state = getattr(game, "state", None)
    if state is None or getattr(spec, "restore_game", None) is None:
        return None
    saved: JSON = state()
    return saved


def move_work(game: Game, player: str, move: JSON, now: float) -> Job | None:
    """The job a move needs before it can be applied (None for most games and moves)."""
    work_for = getattr(game, "work_for", None)
    job: Job | None = work_for(player, move, now) if work_for is not None else None
    return job


def new_game_work(spec: GameSpec, options: JSON, seed: int) -> Job | None:
    """The job a new game of ``spec`` needs first, if any."""
    make = getattr(spec, "new_game_work", None)
    job: Job | None = make(options, seed) if make is not None else None
    return job


class ComputerPlayer(Protocol):
    """A game's computer opponent. ``request`` runs in the room (cheap, on the event
    loop); ``think`` runs in a worker process, so it must be a picklable function
    of plain data."""

    levels: tuple[str, ...]

    def request(self, game: Game, player: str) -> JSON:
        """The position ``player`` must move in, as plain data for :meth:`think`."""

    def think(self, request: JSON, level: str, budget: float) -> JSON:
        """The move to play (a ``move`` map), within about ``budget`` seconds."""


class GameSpec(Protocol):
    """How a room creates games of one kind."""

    name: str
    start: StartPolicy
    min_players: int

    @property
    def computer(self) -> ComputerPlayer | None:
        """The computer opponent the option ``ai`` seats, if this game has one."""

    def parse_options(self, raw: JSON) -> JSON:
        """Validate and fill defaults; raise OptionError with a readable message."""

    def max_players(self, options: JSON) -> int:
        """Seats in a room with these options."""

    def new_game(
        self, options: JSON, players: list[str], round_no: int, seed: int, now: float
    ) -> Game:
        """A fresh game. ``round_no`` counts games in the room from 0 (Gomoku swaps
        colours on odd rounds); ``seed`` makes the game replayable."""
