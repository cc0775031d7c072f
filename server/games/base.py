"""The contract between the server and a game: the base classes every game plug-in
subclasses, with a default for everything a game may leave out.

A room (server/core/room/) owns ordering, seats, connections and the wire; a game
owns rules and hidden state. Games never import asyncio, websockets or msgpack:
time comes in as a ``now`` argument (unix seconds, float) so tests, bots and
benchmarks can drive a game without a clock.

A game is one plug-in: its package ``server/games/<name>/`` exports ``SPEC``, a
:class:`GameSpec`, which says how rooms make its games and everything the rest of the
server needs of it, each in one member: how a finished game is replayed
(:meth:`GameSpec.replay`) and summed up (:meth:`GameSpec.moves`), how it counts
(:attr:`GameSpec.rating`), its computer player, its analysis, its record files. The
registry (``server/games/__init__.py``) finds every ``SPEC`` by the names in
:data:`gridhall.protocol.games.NAMES`; nothing outside the package names the game.

Everything optional has its default here, so mypy checks every game against this
one contract and nothing is found by probing: a game without offers inherits
:meth:`Game.request` refusing them, one without clocks :meth:`Game.deadline` None.

The refused-move contract: a method that raises :class:`GameError` has changed
nothing (``record()`` and every ``view()`` are as before). Rules that count refused
moves do it in :meth:`Game.refused`, which the room calls after a refusal as a
separate, explicit step.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from gridhall.protocol import Termination
from gridhall.protocol.games import options
from gridhall.protocol.games.describe import Game as Description
from gridhall.protocol.i18n import ngettext

if TYPE_CHECKING:
    from .analysis import Analyser
    from .engines import EngineBridge
    from .jobs import Job
    from .rating import RatingModel
    from .records import GameRecords
    from .replay import Run

JSON = dict[str, Any]

StartPolicy = Literal["full", "immediate", "manual"]
"""When a room starts a game: ``full`` once ``min_players`` are seated (two rivals),
``immediate`` as soon as the room exists (a co-op game late joiners may join),
``manual`` when the creator sends ``start`` (a race)."""


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
    shuffle the rules made by themselves); they must hold no hidden state.
    """

    move: JSON
    notices: Sequence[JSON] = ()
    """A game with none (every Gomoku move) makes no list for them."""


class Game(ABC):
    """One game in progress. Mutable, single-threaded, pure."""

    players: list[str]
    """Seated player ids in seat order (may grow for co-op games)."""

    result: JSON | None
    """``None`` while playing; the protocol's result map once over."""

    shared_view: ClassVar[bool] = False
    """True when every recipient gets the same view and moves (nothing is hidden): the
    room then builds and encodes each event once for everyone."""

    @abstractmethod
    def turn(self) -> str | None:
        """The player to move, or ``None`` when anyone may act (or it's over)."""

    @abstractmethod
    def apply(self, player: str, move: JSON, now: float, prepared: Any = None) -> Played:
        """Validate and apply ``move`` by ``player``. Raise GameError to refuse (and
        then change nothing). ``prepared``: the answer to :meth:`work_for`'s job, when
        the move needed one (without it the work is done inline: tests, replays)."""

    @abstractmethod
    def view(self, recipient: str | None) -> JSON:
        """The protocol ``view`` for ``recipient`` (``None`` = spectator).

        This is the one place hidden information is removed."""

    @abstractmethod
    def resign(self, player: str, now: float, reason: Termination = Termination.RESIGN) -> None:
        """``player`` gives up (or is forfeited with ``reason``, e.g. disconnect)."""

    @abstractmethod
    def record(self) -> JSON:
        """Everything the store keeps of this game: options, seed, move log (bounded:
        keep the first entries and count the rest)."""

    def visible_move(self, by: str, move: JSON, recipient: str | None) -> JSON:
        """The ``move`` field of a ``moved`` event as ``recipient`` may see it: by
        default the move as played."""
        return move

    def refused(self, player: str, move: JSON, now: float) -> None:
        """``apply`` refused ``move``: count it if the rules count misses (by default
        nothing)."""
        return None

    def work_for(self, player: str, move: JSON, now: float) -> Job | None:
        """The heavy work ``move`` needs before :meth:`apply` (a layout, a search), run
        off the event loop, or None (the default; also for moves ``apply`` refuses)."""
        return None

    def request(self, player: str, kind: str, now: float) -> JSON:
        """A consent request (``draw``, ``takeback``); returns the event to broadcast.
        By default the game has none."""
        raise GameError("illegal-move", "This game has no offers.")

    def respond(self, player: str, kind: str, accept: bool, now: float) -> JSON:
        """Answer a pending request; GameError(no-pending-request) if none (the default)."""
        raise GameError("no-pending-request", "There is no offer to answer.")

    def add_player(self, player: str, now: float) -> bool:
        """A late joiner asks for a seat in a game in progress; False (the default) =
        watch."""
        return False

    def deadline(self) -> float | None:
        """The next time :meth:`tick` must run (clock expiry, countdown end); None
        (the default) when nothing depends on time."""
        return None

    def tick(self, now: float) -> list[JSON]:
        """Advance time-driven rules; returns events to broadcast (may set result)."""
        return []

    def shift(self, seconds: float) -> None:
        """Move every time anchor ``seconds`` later: the server was down that long and
        clocks stand still while it is (a restored game goes on where it stopped).
        A game with no time anchors keeps the default, which does nothing."""
        return None

    def state(self) -> JSON:
        """The whole game as plain data, for a spec whose :attr:`GameSpec.saves_games`
        is true (its :meth:`GameSpec.restore_game` makes the game again from it)."""
        raise NotImplementedError(f"{type(self).__name__} is not saved whole")


class ComputerPlayer(ABC):
    """A game's computer opponent. ``request`` runs in the room (cheap, on the event
    loop); ``think`` runs in a worker process, so it must be a picklable function
    of plain data."""

    levels: tuple[str, ...] = ()
    reference: ClassVar[Mapping[str, tuple[float, float]]] = {}
    """Each level's FIXED rating belief ``(mu, sigma)`` (``server/core/ratings.py``): a
    rated game against a level is possible only when it has one."""

    @abstractmethod
    def request(self, game: Game, player: str) -> JSON:
        """The position ``player`` must move in, as plain data for :meth:`think`."""

    @abstractmethod
    def think(self, request: JSON, level: str, budget: float) -> JSON:
        """The move to play (a ``move`` map), within about ``budget`` seconds."""

    def warm_up(self) -> None:
        """Fill lazy tables once per worker process, before its first move's clock
        starts (by default there are none)."""
        return None


class GameSpec(ABC):
    """A game plug-in: how rooms make its games, and what the rest of the server needs
    of it (see the module docstring)."""

    description: Description
    """The game as every client shows it (``protocol/games/<name>.py``): the option
    names, kinds and bounds :meth:`parse_options` reads, the result sentences the
    history reads, and ``name``."""
    start: StartPolicy = "full"
    min_players: int = 2
    computer: ComputerPlayer | None = None
    """The computer opponent the option ``ai`` seats, if this game has one."""
    saves_games: bool = False
    """Its games can be saved whole mid-game (:meth:`Game.state`) and made again
    (:meth:`restore_game`): a room snapshots such a game as it goes, so a game that
    never ends keeps a bounded journal. Other games are made again from their seed and
    the journal since they started."""
    rating: RatingModel | None = None
    """How a finished game counts: ratings (:class:`~.rating.Rated`), a co-op team's
    records (:class:`~.rating.TeamRecords`), or not at all (None)."""
    analysis: Analyser | None = None
    """The engine that analyses finished games (``analyse``), if any."""
    records: GameRecords | None = None
    """Record files (``gridhall-server export`` / ``import``), if the game has any."""
    engines: EngineBridge | None = None
    """How external engines (``--engine NAME=COMMAND``) play it, if they can."""

    @property
    def name(self) -> str:
        """The protocol name."""
        return self.description.name

    @property
    def references(self) -> Mapping[str, tuple[float, float]]:
        """The computer levels' fixed ratings (none without a computer)."""
        return self.computer.reference if self.computer is not None else {}

    def parse_options(self, raw: JSON) -> JSON:
        """Validate and fill defaults; raise OptionError with a readable message. By
        default names, kinds, bounds and defaults come from the description; a game
        overrides this for checks that join fields."""
        return options.parse(self.description, raw, OptionError)

    @abstractmethod
    def max_players(self, options: JSON) -> int:
        """Seats in a room with these options."""

    @abstractmethod
    def new_game(
        self,
        options: JSON,
        players: list[str],
        round_no: int,
        seed: int,
        now: float,
        prepared: Any = None,
    ) -> Game:
        """A fresh game. ``round_no`` counts games in the room from 0 (rivals swap
        colours on odd rounds); ``seed`` makes the game replayable; ``prepared`` is the
        answer to :meth:`new_game_work`'s job, when there is one."""

    def new_game_work(self, options: JSON, seed: int) -> Job | None:
        """The heavy work a new game needs first (a board), run off the event loop and
        passed to :meth:`new_game` as ``prepared``; None (the default) for none."""
        return None

    def restore_game(self, state: JSON) -> Game:
        """The game whose :meth:`Game.state` was ``state`` (when :attr:`saves_games`)."""
        raise NotImplementedError(f"{self.name} games are not saved whole")

    @abstractmethod
    def replay(self, record: JSON, duration: float | None = None) -> Run:
        """The re-run of a finished game's ``record`` (``get-replay``): the views it
        went through (``server/games/replay.py``). ``duration``: seconds from the
        game's start to its end (a clock may have ended it after the last action)."""

    @abstractmethod
    def moves(self, record: JSON) -> int:
        """How long a finished game was, in its own unit (the history's ``moves``)."""

    def moves_text(self, record: JSON, names: Mapping[str, str]) -> str:
        """:meth:`moves` in words for the server's ``history`` (``names``: player id ->
        name); by default "12 moves"."""
        n = self.moves(record)
        return ngettext("{count} move", "{count} moves", n, count=n)

    def with_engines(self, names: tuple[str, ...]) -> GameSpec:
        """This game offering the external engines ``names`` as computer levels (only
        a game with :attr:`engines` does; the default is the game as it is)."""
        return self
