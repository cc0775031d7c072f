"""The requests as they were before msgspec (issue 38 item 5): frozen dataclasses with
their limits in field metadata, checked by the hand-made ``old_schema``. Kept verbatim
(registered in :data:`REQUESTS`, not the protocol's tables) as the baseline of
``bench/bench_decode.py`` and the oracle of ``tests/wire/test_decode_baseline.py``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar, dataclass_transform

from gridhall.protocol.analysis import MAX_GAME_ID
from gridhall.protocol.messages import MAX_ID

REQUESTS: dict[str, type[Any]] = {}
T = TypeVar("T")
GameName = str


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def message(type_name: str, sender: str) -> Callable[[type[T]], type[T]]:
    def wrap(cls: type[T]) -> type[T]:
        cls.TYPE = type_name  # type: ignore[attr-defined]
        REQUESTS[type_name] = dataclass(frozen=True, kw_only=True)(cls)
        return REQUESTS[type_name]

    return wrap


def _name(**extra: Any) -> Any:
    return field(metadata={"min_len": 1, "max_len": 32, "clean": True}, **extra)


def _req_id() -> Any:
    return field(default=None, metadata={"min": 0, "max": MAX_ID})


def _text(max_len: int, **extra: Any) -> Any:
    return field(metadata={"min_len": 1, "max_len": max_len, **extra.pop("meta", {})}, **extra)


# ---------------------------------------------------------------- client -> server


@message("hello", "client")
class Hello:
    TYPE: ClassVar[str]
    protocol: int
    name: str = _name()
    token: str | None = field(default=None, metadata={"min_len": 1, "max_len": 128})
    since: int | None = field(default=None, metadata={"min": 0, "max": 2**53})
    """With ``token``: the last room ``seq`` this client saw, so a resumed seat gets the
    events it missed instead of a ``state`` (when the server still has them)."""
    deltas: bool | None = None
    """True: this client folds ``moved.delta`` (see :mod:`gridhall.protocol.delta`), so
    its ``moved`` events carry the changes instead of the whole view."""
    link: str | None = field(default=None, metadata={"min_len": 1, "max_len": 16})
    """Instead of ``token``, on a second device: a link code from ``link-code`` (added),
    which makes this connection the identity that asked for it."""
    device: str | dict[str, Any] | None = field(
        default=None, metadata={"min_len": 1, "max_len": 48, "clean": True}
    )
    """What this device is in the player's device list (added; feature ``devices``):
    ``{"kind": "tk", "platform": "Linux"}``, the kind a code each viewer's client
    translates (:mod:`gridhall.protocol.devices`); an older client's string is its name."""
    id: int | None = _req_id()


@message("list-rooms", "client")
class ListRooms:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("create-room", "client")
class CreateRoom:
    TYPE: ClassVar[str]
    game: GameName = field(metadata={"min_len": 1, "max_len": 32})
    options: dict[str, Any] | None = None
    private: bool = False
    password: str | None = field(default=None, metadata={"min_len": 1, "max_len": 64})
    id: int | None = _req_id()


@message("join-room", "client")
class JoinRoom:
    TYPE: ClassVar[str]
    room: str = _text(16)
    role: Literal["player", "spectator"] = "player"
    password: str | None = field(default=None, metadata={"min_len": 1, "max_len": 64})
    id: int | None = _req_id()


@message("link-code", "client")
class LinkCode:
    """Ask for a one-time code that carries this identity to another device (added)."""

    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("list-devices", "client")
class ListDevices:
    """Ask for this identity's devices (added; feature ``devices``): answered ``devices``."""

    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("sign-out-device", "client")
class SignOutDevice:
    """Sign out one of this identity's devices by its ``device`` id (added; feature
    ``devices``): its token stops working; answered ``devices`` (the list after it)."""

    TYPE: ClassVar[str]
    device: str = _text(32)
    id: int | None = _req_id()


@message("leave-room", "client")
class LeaveRoom:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("sync", "client")
class Sync:
    """Ask for the room again: with ``since``, the events after that ``seq`` when the
    server still has them (else a ``state``); without it, a ``state``."""

    TYPE: ClassVar[str]
    since: int | None = field(default=None, metadata={"min": 0, "max": 2**53})
    id: int | None = _req_id()


@message("player-info", "client")
class PlayerInfo:
    TYPE: ClassVar[str]
    name: str | None = _name(default=None)
    color: str | None = field(default=None, metadata={"min_len": 1, "max_len": 32, "clean": True})
    id: int | None = _req_id()


@message("move", "client")
class Move:
    TYPE: ClassVar[str]
    move: dict[str, Any]
    id: int | None = _req_id()


@message("chat", "client")
class Chat:
    TYPE: ClassVar[str]
    text: str = _text(500, meta={"clean": True})
    id: int | None = _req_id()


@message("resign", "client")
class Resign:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("play-again", "client")
class PlayAgain:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("agree-again", "client")
class AgreeAgain:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("decline-again", "client")
class DeclineAgain:
    TYPE: ClassVar[str]
    id: int | None = _req_id()


@message("offer", "client")
class Offer:
    """Ask the opponent's consent: a draw, or taking back one's last move."""

    TYPE: ClassVar[str]
    kind: Literal["draw", "takeback"]
    id: int | None = _req_id()


@message("answer", "client")
class Answer:
    """Accept or decline the opponent's pending offer of ``kind``."""

    TYPE: ClassVar[str]
    kind: Literal["draw", "takeback"]
    accept: bool
    id: int | None = _req_id()


@message("start", "client")
class Start:
    """The room's creator starts a manually started game (Link-match race)."""

    TYPE: ClassVar[str]
    id: int | None = _req_id()


HostAction = Literal["kick", "mute", "unmute", "lock", "unlock", "hand-over", "computer"]
"""What a room's host may do (PROTOCOL.md, "Room hosts")."""
KICK_MINUTES = 10
"""How long a kick keeps someone out when ``minutes`` is not given."""


@message("host", "client")
class Host:
    """A room host's action (added): remove, mute or unmute a member, lock or unlock the
    room, hand the role over, or swap/seat the computer player (``level``)."""

    TYPE: ClassVar[str]
    action: HostAction
    player: str | None = field(default=None, metadata={"min_len": 1, "max_len": 32})
    minutes: int | None = field(default=None, metadata={"min": 1, "max": 1440})
    level: Literal["easy", "hard"] | None = None
    id: int | None = _req_id()


HISTORY_PAGE = 20
"""Games a ``list-games`` answers when it gives no ``limit``."""
MAX_HISTORY_PAGE = 50
"""The most games one ``list-games`` may ask for."""
REPLAY_PAGE = 2000
"""Steps one ``replay`` answer carries; a longer game is asked for again with ``from``."""


@message("list-games", "client")
class ListGames:
    """Finished games, newest first (added, feature ``history``): filtered by ``game``,
    a seated ``player`` id or a player's ``name`` (any case), older than ``before``."""

    TYPE: ClassVar[str]
    game: GameName | None = field(default=None, metadata={"min_len": 1, "max_len": 32})
    player: str | None = field(default=None, metadata={"min_len": 1, "max_len": 32})
    name: str | None = _name(default=None)
    before: int | None = field(default=None, metadata={"min": 1, "max": 2**53})
    limit: int = field(default=HISTORY_PAGE, metadata={"min": 1, "max": MAX_HISTORY_PAGE})
    id: int | None = _req_id()


@message("get-replay", "client")
class GetReplay:
    """A finished game as the views it went through (added, feature ``history``);
    ``from``: the first step wanted, for a game of more than :data:`REPLAY_PAGE` steps."""

    TYPE: ClassVar[str]
    game_id: int = field(metadata={"min": 1, "max": 2**53})
    start_step: int = field(default=0, metadata={"key": "from", "min": 0, "max": 2**31})
    id: int | None = _req_id()


@message("leaderboard", "client")
class GetLeaderboard:
    """A page of a game's leaderboard, best first (added, feature ``ratings``): from
    ``offset`` (``limit`` rows), or ``around`` a player: their rank and 5 either side."""

    TYPE: ClassVar[str]
    game: str = field(metadata={"min_len": 1, "max_len": 32})
    around: str | None = field(default=None, metadata={"min_len": 1, "max_len": 32})
    offset: int | None = field(default=None, metadata={"min": 0, "max": 2**31})
    limit: int | None = field(default=None, metadata={"min": 1, "max": MAX_HISTORY_PAGE})
    id: int | None = _req_id()


@message("get-profile", "client")
class GetProfile:
    """A player's ratings with their history, recent games and records (added)."""

    TYPE: ClassVar[str]
    player: str = field(metadata={"min_len": 1, "max_len": 32})
    id: int | None = _req_id()


@message("records", "client")
class GetRecords:
    """Co-op Minesweeper's team records (added, feature ``ratings``)."""

    TYPE: ClassVar[str]
    game: str = field(metadata={"min_len": 1, "max_len": 32})
    id: int | None = _req_id()


@message("analyse", "client")
class Analyse:
    TYPE: ClassVar[str]
    game_id: int = field(metadata={"min": 1, "max": MAX_GAME_ID})
    id: int | None = field(default=None, metadata={"min": 0, "max": MAX_ID})
