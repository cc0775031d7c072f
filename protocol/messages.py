"""Every message of the wire contract: requests as msgspec Structs, events as frozen
dataclasses.

Client requests and server events live in two registries, because several
type names travel both ways with different fields (``chat`` from a client is
``{text}``; from the server it is ``{room, seq, from, name, text, ts}``). Requests are
what a stranger sends, so they are declared for msgspec, which decodes and checks them
in C (:mod:`.codec`); their bounds are ``Annotated`` types (:mod:`.fields`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, ClassVar, Literal, TypeVar, dataclass_transform

import msgspec
from msgspec import Meta

from .fields import MAX_ID as MAX_ID
from .fields import Clean, Data, GameField, Id32, Name, RequestId, Secret, Since

PROTOCOL_VERSION = 1
DEFAULT_PORT = 8765
"""The TCP port a server listens on and clients try when none is given."""

GameName = str
"""A game's protocol name. The server's game registry (``gridhall.server.games``) says
which names it hosts; ``create-room`` with any other gets ``bad-message`` naming them."""
Sender = Literal["client", "server"]

CLIENT_MESSAGES: dict[str, type[Any]] = {}
SERVER_MESSAGES: dict[str, type[Any]] = {}

T = TypeVar("T")


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def message(type_name: str, sender: Sender) -> Callable[[type[T]], type[T]]:
    """Register a dataclass as the message ``type_name`` sent by ``sender`` (a server
    event; requests are :class:`ClientMessage` Structs, see :func:`request`)."""

    def wrap(cls: type[T]) -> type[T]:
        cls.TYPE = type_name  # type: ignore[attr-defined]
        registry = CLIENT_MESSAGES if sender == "client" else SERVER_MESSAGES
        registry[type_name] = _quick_init(dataclass(frozen=True, kw_only=True)(cls))
        return registry[type_name]

    return wrap


def _quick_init(cls: type[T]) -> type[T]:
    """``cls`` with an ``__init__`` that fills the instance's ``__dict__`` directly.

    A frozen dataclass's own ``__init__`` sets each field through
    ``object.__setattr__`` (its frozen ``__setattr__`` refuses it), twice the cost of
    the message itself: a ``moved`` of seven fields took 0.8 us to make, on the path of
    every move. This one takes the same keyword arguments with the same defaults (it is
    written the way ``dataclasses`` writes its own) and the instance stays frozen. A
    class with a default factory or a ``__post_init__`` keeps the dataclass's."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__") or any(
        f.default_factory is not dataclasses.MISSING for f in fields
    ):
        return cls
    defaults = {f"_d_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    params = ", ".join(
        f.name + (f"=_d_{f.name}" if f"_d_{f.name}" in defaults else "") for f in fields
    )
    body = "".join(f"    d[{f.name!r}] = {f.name}\n" for f in fields)
    source = f"def __init__(self, *, {params}):\n    d = self.__dict__\n{body}"
    namespace: dict[str, Any] = {}
    exec(source, defaults, namespace)  # noqa: S102 (our own field names, as dataclasses does)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


# ---------------------------------------------------------------- client -> server


class ClientMessage(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """A request: a msgspec Struct, so the server decodes and checks it in C
    (:mod:`.codec`); the wire ``type`` is its tag. A key it does not know sends the
    frame the slow way (:func:`.codec.decode`), which ignores it as it always has."""

    TYPE: ClassVar[str]


C = TypeVar("C", bound=ClientMessage)


def request(cls: type[C]) -> type[C]:
    """Register a request under its tag (its ``type`` on the wire)."""
    tag = cls.__struct_config__.tag
    assert isinstance(tag, str), cls
    cls.TYPE = tag
    CLIENT_MESSAGES[tag] = cls
    return cls


@request
class Hello(ClientMessage, tag="hello", frozen=True):
    protocol: int
    name: Name
    token: Annotated[str, Meta(min_length=1, max_length=128)] | None = None
    since: Since | None = None
    """With ``token``: the last room ``seq`` this client saw, so a resumed seat gets the
    events it missed instead of a ``state`` (when the server still has them)."""
    deltas: bool | None = None
    """True: this client folds ``moved.delta`` (see :mod:`gridhall.protocol.delta`), so
    its ``moved`` events carry the changes instead of the whole view."""
    link: Annotated[str, Meta(min_length=1, max_length=16)] | None = None
    """Instead of ``token``, on a second device: a link code from ``link-code`` (added),
    which makes this connection the identity that asked for it."""
    device: Annotated[str, Clean(1, 48)] | Data | None = None
    """What this device is in the player's device list (added; feature ``devices``):
    ``{"kind": "tk", "platform": "Linux"}``, the kind a code each viewer's client
    translates (:mod:`gridhall.protocol.devices`); an older client's string is its name."""
    id: RequestId = None


@request
class ListRooms(ClientMessage, tag="list-rooms", frozen=True):
    id: RequestId = None


@request
class CreateRoom(ClientMessage, tag="create-room", frozen=True):
    game: GameField
    options: Data | None = None
    private: bool = False
    password: Secret | None = None
    id: RequestId = None


@request
class JoinRoom(ClientMessage, tag="join-room", frozen=True):
    room: Annotated[str, Meta(min_length=1, max_length=16)]
    role: Literal["player", "spectator"] = "player"
    password: Secret | None = None
    id: RequestId = None


@request
class LinkCode(ClientMessage, tag="link-code", frozen=True):
    """Ask for a one-time code that carries this identity to another device (added)."""

    id: RequestId = None


@request
class ListDevices(ClientMessage, tag="list-devices", frozen=True):
    """Ask for this identity's devices (added; feature ``devices``): answered ``devices``."""

    id: RequestId = None


@request
class SignOutDevice(ClientMessage, tag="sign-out-device", frozen=True):
    """Sign out one of this identity's devices by its ``device`` id (added; feature
    ``devices``): its token stops working; answered ``devices`` (the list after it)."""

    device: Annotated[str, Meta(min_length=1, max_length=32)]
    id: RequestId = None


@request
class LeaveRoom(ClientMessage, tag="leave-room", frozen=True):
    id: RequestId = None


@request
class Sync(ClientMessage, tag="sync", frozen=True):
    """Ask for the room again: with ``since``, the events after that ``seq`` when the
    server still has them (else a ``state``); without it, a ``state``."""

    since: Since | None = None
    id: RequestId = None


@request
class PlayerInfo(ClientMessage, tag="player-info", frozen=True):
    name: Name | None = None
    color: Annotated[str, Clean(1, 32)] | None = None
    id: RequestId = None


@request
class Move(ClientMessage, tag="move", frozen=True):
    move: Data
    id: RequestId = None


@request
class Chat(ClientMessage, tag="chat", frozen=True):
    text: Annotated[str, Clean(1, 500)]
    id: RequestId = None


@request
class Resign(ClientMessage, tag="resign", frozen=True):
    id: RequestId = None


@request
class PlayAgain(ClientMessage, tag="play-again", frozen=True):
    id: RequestId = None


@request
class AgreeAgain(ClientMessage, tag="agree-again", frozen=True):
    id: RequestId = None


@request
class DeclineAgain(ClientMessage, tag="decline-again", frozen=True):
    id: RequestId = None


@request
class Offer(ClientMessage, tag="offer", frozen=True):
    """Ask the opponent's consent: a draw, or taking back one's last move."""

    kind: Literal["draw", "takeback"]
    id: RequestId = None


@request
class Answer(ClientMessage, tag="answer", frozen=True):
    """Accept or decline the opponent's pending offer of ``kind``."""

    kind: Literal["draw", "takeback"]
    accept: bool
    id: RequestId = None


@request
class Start(ClientMessage, tag="start", frozen=True):
    """The room's creator starts a manually started game (Link-match race)."""

    id: RequestId = None


HostAction = Literal["kick", "mute", "unmute", "lock", "unlock", "hand-over", "computer"]
"""What a room's host may do (PROTOCOL.md, "Room hosts")."""
KICK_MINUTES = 10
"""How long a kick keeps someone out when ``minutes`` is not given."""


@request
class Host(ClientMessage, tag="host", frozen=True):
    """A room host's action (added): remove, mute or unmute a member, lock or unlock the
    room, hand the role over, or swap/seat the computer player (``level``)."""

    action: HostAction
    player: Id32 | None = None
    minutes: Annotated[int, Meta(ge=1, le=1440)] | None = None
    level: Literal["easy", "hard"] | None = None
    id: RequestId = None


HISTORY_PAGE = 20
"""Games a ``list-games`` answers when it gives no ``limit``."""
MAX_HISTORY_PAGE = 50
"""The most games one ``list-games`` may ask for."""
REPLAY_PAGE = 2000
"""Steps one ``replay`` answer carries; a longer game is asked for again with ``from``."""


@request
class ListGames(ClientMessage, tag="list-games", frozen=True):
    """Finished games, newest first (added, feature ``history``): filtered by ``game``,
    a seated ``player`` id or a player's ``name`` (any case), older than ``before``."""

    game: GameField | None = None
    player: Id32 | None = None
    name: Name | None = None
    before: Annotated[int, Meta(ge=1, le=2**53)] | None = None
    limit: Annotated[int, Meta(ge=1, le=MAX_HISTORY_PAGE)] = HISTORY_PAGE
    id: RequestId = None


@request
class GetReplay(ClientMessage, tag="get-replay", frozen=True):
    """A finished game as the views it went through (added, feature ``history``);
    ``from``: the first step wanted, for a game of more than :data:`REPLAY_PAGE` steps."""

    game_id: Annotated[int, Meta(ge=1, le=2**53)]
    start_step: Annotated[int, Meta(ge=0, le=2**31)] = msgspec.field(default=0, name="from")
    id: RequestId = None


@request
class GetLeaderboard(ClientMessage, tag="leaderboard", frozen=True):
    """A page of a game's leaderboard, best first (added, feature ``ratings``): from
    ``offset`` (``limit`` rows), or ``around`` a player: their rank and 5 either side."""

    game: GameField
    """A game with ratings (its description's ``ratings`` is ``rated``)."""
    around: Id32 | None = None
    offset: Annotated[int, Meta(ge=0, le=2**31)] | None = None
    limit: Annotated[int, Meta(ge=1, le=MAX_HISTORY_PAGE)] | None = None
    id: RequestId = None


@request
class GetProfile(ClientMessage, tag="get-profile", frozen=True):
    """A player's ratings with their history, recent games and records (added)."""

    player: Id32
    id: RequestId = None


@request
class GetRecords(ClientMessage, tag="records", frozen=True):
    """A co-op game's team records (added, feature ``ratings``): ``game`` is one whose
    description's ``ratings`` is ``records``."""

    game: GameField
    id: RequestId = None


# ---------------------------------------------------------------- server -> client


@message("welcome", "server")
class Welcome:
    TYPE: ClassVar[str]
    protocol: int
    player: str
    token: str
    server: str
    name: str | None = None
    """The identity's name as the server holds it (added): after ``hello.link`` it is
    the first device's, not the one this ``hello`` sent."""
    re: int | None = None
    features: list[Any] | None = None
    """What this server supports beyond the base contract (added; strings, see
    :mod:`gridhall.protocol.features`); absent from older servers: none of it."""
    nodes: list[Any] | None = None
    """Every node of this server's cluster (added, feature ``cluster``): ``ws://`` URLs,
    this node first; where a client goes when its node is gone. Absent: one server."""


@message("error", "server")
class Error:
    TYPE: ClassVar[str]
    code: str
    message: str
    re: int | None = None
    retry_after: float | None = None
    """Seconds to wait before the same request can succeed (added; rate limits,
    password backoff, a busy room or server)."""
    room: str | None = None
    """The room a ``room-lost`` is about (added)."""
    reason: str | None = None
    """Why that room could not be restored (added; ``room-lost``)."""


@message("link-code", "server")
class LinkCodeIssued:
    """The answer to ``link-code`` (added): the code to type on the other device (shown
    with a dash) and when it stops working (unix time)."""

    TYPE: ClassVar[str]
    code: str
    expires_at: float
    re: int | None = None


@message("devices", "server")
class Devices:
    """The answer to ``list-devices`` and ``sign-out-device`` (added): every device of
    this identity, {``device`` (an id), ``kind`` (a code) and ``platform`` (as the
    device's ``hello`` gave them), ``name`` (in English, for older clients),
    ``created_at``, ``last_seen`` (unix times; each null when not known), ``current``
    (the one asking)}, this one first, then the most recently seen."""

    TYPE: ClassVar[str]
    devices: list[dict[str, Any]]
    re: int | None = None


@message("profile", "server")
class Profile:
    """The answer to ``player-info`` outside a room (added): the sender's name and
    colour as the server now holds them (normalised)."""

    TYPE: ClassVar[str]
    player: str
    name: str
    color: str | None = None
    re: int | None = None


@message("announce", "server")
class Announce:
    """The server's operator speaks to every connected client (added; not a room
    event: no ``room``, no ``seq``). Clients show ``text`` as plain text."""

    TYPE: ClassVar[str]
    text: str
    ts: float


@message("room-closed", "server")
class RoomClosed:
    """The server's operator closed the room (added): each member gets this, then a
    ``left`` with the same ``seq``, its own id and ``reason: "closed"``."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    reason: str


@message("rooms", "server")
class Rooms:
    TYPE: ClassVar[str]
    rooms: list[Any]
    re: int | None = None


@message("joined", "server")
class Joined:
    """To the joiner (``role``, ``seat``) and to the others (``player``, ``name``), with
    what a roster entry needs (``connected``, ``color``, ``bot``), so clients fold it in."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    role: Literal["player", "spectator"]
    seat: int | None = None
    player: str | None = None
    name: str | None = None
    re: int | None = None
    connected: bool | None = None
    color: str | None = None
    bot: str | None = None


@message("left", "server")
class Left:
    """``name``: the leaver's, so clients drop a spectator from the names they hold.
    ``reason`` (added): ``kicked`` (by the host, kept out until ``until``, epoch
    seconds) or ``closed``; absent when the member left by themselves."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    player: str | None = None
    re: int | None = None
    name: str | None = None
    reason: str | None = None
    until: float | None = None


@message("state", "server")
class State:
    TYPE: ClassVar[str]
    room: str
    seq: int
    game: str
    options: dict[str, Any]
    status: Literal["waiting", "playing", "over"]
    players: list[Any]
    spectators: list[Any]
    view: dict[str, Any]
    chat: list[Any]
    turn: str | None = None
    result: dict[str, Any] | None = None
    creator: str | None = None
    round: int = 0
    private: bool = False
    pending_again: list[Any] | None = None
    re: int | None = None
    host: str | None = field(default=None, metadata={"always": True})
    """The room's host (added): who may send ``host``; null when nobody holds the role."""
    locked: bool = False
    """No newcomers may join (added); members who dropped still resume."""
    muted: list[Any] = field(default_factory=list)
    """Members whose chat the host muted (added)."""
    spectator_ids: list[Any] | None = None
    """The spectators' player ids, in the order of ``spectators`` (added), so a
    host's tools can name a spectator the client has seen no event from."""


@message("moved", "server")
class Moved:
    TYPE: ClassVar[str]
    room: str
    seq: int
    by: str
    move: dict[str, Any]
    view: dict[str, Any]
    turn: str | None = None
    """Who moves next after this move (absent: nobody in particular, or the game is over)."""
    delta: dict[str, Any] | None = None
    """Only to clients that asked for deltas in ``hello``: the view's fields that ``view``
    leaves out, as changes to their previous values (:mod:`gridhall.protocol.delta`)."""


@message("game-over", "server")
class GameOver:
    TYPE: ClassVar[str]
    room: str
    seq: int
    result: dict[str, Any]
    ratings: dict[str, Any] | None = None
    """A rated game's rating changes (added): ``{player: {"before", "after"}}`` for
    each person (computers keep their fixed ratings)."""


@message("player-info", "server")
class PlayerInfoEvent:
    """``previous``: the member's name before this event (a spectator is known by name)."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    player: str
    name: str
    color: str | None = None
    connected: bool = True
    previous: str | None = None


@message("chat", "server")
class ChatEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})
    name: str
    text: str
    ts: float


@message("play-again", "server")
class PlayAgainEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})


@message("agree-again", "server")
class AgreeAgainEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})


@message("decline-again", "server")
class DeclineAgainEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})


@message("resigned", "server")
class Resigned:
    TYPE: ClassVar[str]
    room: str
    seq: int
    player: str


@message("offer", "server")
class OfferEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})
    kind: str


@message("answer", "server")
class AnswerEvent:
    TYPE: ClassVar[str]
    room: str
    seq: int
    sender: str = field(metadata={"key": "from"})
    kind: str
    accept: bool


@message("notice", "server")
class Notice:
    """A game's own announcement (e.g. Link-match ``shuffled``): ``event`` names
    it and ``data`` holds its public details."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    event: str
    data: dict[str, Any] = field(default_factory=dict)


@message("host", "server")
class HostEvent:
    """A host action done in the room (added), to every member: the answer to ``host``.
    ``by`` is null when the server passed the role on by itself."""

    TYPE: ClassVar[str]
    room: str
    seq: int
    action: str
    by: str | None = field(default=None, metadata={"always": True})
    player: str | None = None
    name: str | None = None
    minutes: int | None = None
    until: float | None = None
    level: str | None = None


@message("games", "server")
class Games:
    """The answer to ``list-games`` (added): game summaries, newest first; ``next``
    is the ``before`` of the following page, null at the end."""

    TYPE: ClassVar[str]
    games: list[Any]
    next: int | None = field(default=None, metadata={"always": True})
    re: int | None = None


@message("replay", "server")
class Replay:
    """The answer to ``get-replay`` (added): the game's ``start`` view and its ``steps``
    (each ``{t, by, view, delta}``, in the ``moved`` delta form); ``next`` is the
    ``from`` of the following page, null when these are the last steps."""

    TYPE: ClassVar[str]
    game_id: int
    game: str
    options: dict[str, Any]
    players: list[Any]
    result: dict[str, Any]
    started_at: float
    ended_at: float
    rated: bool
    start: dict[str, Any]
    steps: list[Any]
    total: int
    """Steps in the whole game (this answer holds those from ``first``)."""
    first: int = 0
    next: int | None = field(default=None, metadata={"always": True})
    source: str | None = None
    re: int | None = None


@message("leaderboard", "server")
class Leaderboard:
    """The answer to ``leaderboard`` (added): ``rows`` of ``{rank, player, name, rating,
    games, provisional, bot?}`` best first, ``total`` rows in all, from ``offset``."""

    TYPE: ClassVar[str]
    game: str
    rows: list[Any]
    total: int
    offset: int
    re: int | None = None


@message("player-profile", "server")
class PlayerProfile:
    """The answer to ``get-profile`` (added): ``ratings`` per game kind (``rating``,
    ``games``, ``wins``, ``provisional``, ``history`` of ``[ended_at, rating, game_id]``),
    ``recent`` game summaries and ``records`` (``{GAME: [...]}``, the team records of
    the co-op game that keeps them)."""

    TYPE: ClassVar[str]
    player: str
    name: str
    ratings: dict[str, Any]
    recent: list[Any]
    records: dict[str, Any]
    re: int | None = None


@message("records", "server")
class Records:
    """The answer to ``records`` (added): a co-op game's team records, per preset board,
    no-guess flag and lives."""

    TYPE: ClassVar[str]
    game: str
    records: list[Any]
    re: int | None = None
