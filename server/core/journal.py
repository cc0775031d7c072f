"""A room's journal entries, typed: each input that changed a room, as a frozen dataclass.

The hub journals every input that changed a room and replays them after a restart
(``server/core/hub.py``). Entries are built and dispatched as the classes below; the
store keeps each as the same small map it always has (``{"k": kind, ...}`` plus the
time ``t``, MessagePack or, in older files, JSON), so journals already on disk replay
unchanged: :func:`encode` writes exactly those keys, :func:`decode` reads them back
(and refuses a map it does not know with :class:`JournalError`, which sets that room
aside on restore rather than replaying it wrongly, ``server/core/restoring.py``; a
request whose message the protocol no longer accepts raises its ``ProtocolError``, and
replays as refused).

A client's request is kept as its typed protocol message (:class:`Request`), without
its request id and never with a password: the journal is replayed through the same
handlers that first ran it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from gridhall import protocol as p
from gridhall.protocol.schema import from_map, to_map

JSON = dict[str, Any]


class JournalError(ValueError):
    """A journal entry this version cannot read (a newer kind, or a damaged map)."""


@dataclass(frozen=True)
class Tick:
    """Time-driven rules ran (a clock, a countdown, a grace period, a mute ended)."""


@dataclass(frozen=True)
class Restored:
    """The server came back after ``down`` seconds."""

    down: float


@dataclass(frozen=True)
class JobAnswered:
    """The room's job ``ticket`` was answered; ``player`` asked for it and was then
    ``connected`` or not, and in another room or not (``elsewhere``), which decide
    what the answer does; named ``name`` in colour ``color`` (a password that matched
    admits them under that name)."""

    ticket: int
    answer: JSON
    player: str | None = None
    connected: bool | None = None
    name: str | None = None
    color: str | None = None
    elsewhere: bool = False


@dataclass(frozen=True)
class Request:
    """A client's request (``message``, a typed protocol message) from ``player``.

    A host action keeps what it decided from outside the room: the address a kick
    keeps out (``address``) and the id of a computer it seated (``seat``). A
    ``join-room`` keeps the joiner's ``name`` and ``color`` then, so a replay never
    needs the identity (which may be forgotten since)."""

    player: str
    message: Any
    address: str | None = None
    seat: str | None = None
    name: str | None = None
    color: str | None = None


@dataclass(frozen=True)
class Joined:
    """``player`` was admitted as ``role`` (the room's creator), named ``name`` in
    colour ``color`` then (older journals have neither)."""

    player: str
    role: Literal["player", "spectator"]
    name: str | None = None
    color: str | None = None


@dataclass(frozen=True)
class ComputerSeated:
    """A computer player ``player`` of ``level`` took a seat."""

    player: str
    level: str


@dataclass(frozen=True)
class Gone:
    """``player``'s connection dropped."""

    player: str


@dataclass(frozen=True)
class Back:
    """``player`` said hello again with its token (``since``: the last seq it had)."""

    player: str
    since: int | None = None


@dataclass(frozen=True)
class ComputerMoved:
    """A computer player answered ``request`` (the position it thought about) with ``move``."""

    player: str
    request: JSON
    move: JSON


@dataclass(frozen=True)
class Closed:
    """The server's operator closed the room."""


Entry = (
    Tick
    | Restored
    | JobAnswered
    | Request
    | Joined
    | ComputerSeated
    | Gone
    | Back
    | ComputerMoved
    | Closed
)


def request_map(msg: Any) -> JSON:
    """A client message as the journal keeps it: no request id, never a password."""
    data = to_map(msg)
    data.pop("id", None)
    data.pop("password", None)
    return data


def move_entry(player: str, msg: p.Move) -> JSON:
    """``encode(Request(player, msg))`` for a ``move`` (which decides nothing beyond
    itself), made directly: on the path of every move. (``request_map`` leaves out
    a move's ``id``; a test holds the two equal.)"""
    return {"k": "msg", "p": player, "m": {"type": "move", "move": msg.move}}


def encode(entry: Entry) -> JSON:
    """``entry`` as the map the store keeps (without ``t``, which the hub adds)."""
    match entry:
        case Tick():
            return {"k": "tick"}
        case Restored(down=down):
            return {"k": "restored", "down": down}
        case JobAnswered(ticket=ticket, answer=answer, player=player, connected=connected):
            data: JSON = {"k": "work", "ticket": ticket, "answer": answer}
            if player is not None:
                data.update(p=player, c=connected)
            if entry.elsewhere:
                data["e"] = True
            return _who(data, entry.name, entry.color)
        case Request(player=player, message=message, address=address, seat=seat):
            data = {"k": "msg", "p": player, "m": request_map(message)}
            if address is not None:
                data["addr"] = address
            if seat is not None:
                data["seat"] = seat
            return _who(data, entry.name, entry.color)
        case Joined(player=player, role=role):
            return _who({"k": "join", "p": player, "role": role}, entry.name, entry.color)
        case ComputerSeated(player=player, level=level):
            return {"k": "computer-seat", "p": player, "level": level}
        case Gone(player=player):
            return {"k": "gone", "p": player}
        case Back(player=player, since=since):
            return {"k": "back", "p": player, "since": since}
        case ComputerMoved(player=player, request=request, move=move):
            return {"k": "computer", "p": player, "request": request, "move": move}
        case Closed():
            return {"k": "closed"}
    raise TypeError(f"not a journal entry: {entry!r}")


def _who(data: JSON, name: str | None, color: str | None) -> JSON:
    """``data`` with the name and colour someone arrived under, when known."""
    if name is not None:
        data["name"] = name
    if color is not None:
        data["color"] = color
    return data


def _text(data: JSON, key: str) -> str | None:
    value = data.get(key)
    return None if value is None else str(value)


def decode(data: JSON) -> Entry:
    """The entry a stored map describes (``t`` and unknown extra keys are ignored)."""
    try:
        kind = data["k"]
        if kind == "tick":
            return Tick()
        if kind == "restored":
            return Restored(float(data["down"]))
        if kind == "work":
            connected = data.get("c")
            return JobAnswered(
                int(data["ticket"]),
                data["answer"],
                data.get("p"),
                None if connected is None else bool(connected),
                _text(data, "name"),
                _text(data, "color"),
                bool(data.get("e", False)),
            )
        if kind == "msg":
            message = data["m"]
            return Request(
                str(data["p"]),
                from_map(p.CLIENT_MESSAGES[message["type"]], message),
                data.get("addr"),
                data.get("seat"),
                _text(data, "name"),
                _text(data, "color"),
            )
        if kind == "join":
            return Joined(str(data["p"]), data["role"], _text(data, "name"), _text(data, "color"))
        if kind == "computer-seat":
            return ComputerSeated(str(data["p"]), str(data["level"]))
        if kind == "gone":
            return Gone(str(data["p"]))
        if kind == "back":
            since = data.get("since")
            return Back(str(data["p"]), None if since is None else int(since))
        if kind == "computer":
            return ComputerMoved(str(data["p"]), data["request"], data["move"])
        if kind == "closed":
            return Closed()
    except p.ProtocolError:
        raise  # a request the protocol now refuses: replayed as refused, as it first was
    except (KeyError, TypeError, ValueError) as exc:
        raise JournalError(f"journal entry {data.get('k')!r} cannot be read: {exc!r}") from None
    raise JournalError(f"unknown journal entry {kind!r}")


def player_of(entry: Entry) -> str | None:
    """The player an entry names, if any (the one whose input it was)."""
    return getattr(entry, "player", None)
