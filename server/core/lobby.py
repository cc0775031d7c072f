"""The lobby: room codes, creation within the server's caps, the public list."""

from __future__ import annotations

from gridhall.protocol import ErrorCode, ProtocolError

from ..games import registry
from ..games.base import JSON, GameSpec, OptionError
from .entropy import Entropy
from .identity import Identity
from .passwords import hash_password
from .room import Room, RoomHost

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Letters and digits that cannot be misread aloud (no 0/O, 1/I/L)."""
CODE_LENGTH = 6


class Lobby:
    """Every open room by code, and the rules for making one."""

    def __init__(
        self,
        host: RoomHost,
        max_rooms: int,
        grace_seconds: float,
        max_rooms_per_address: int | None = None,
        *,
        entropy: Entropy,
    ) -> None:
        self.host = host
        self.entropy = entropy
        """Where codes, salts and seeds come from (``server/core/entropy.py``)."""
        self.max_rooms = max_rooms
        self.max_rooms_per_address = max_rooms_per_address
        self.grace_seconds = grace_seconds
        self.rooms: dict[str, Room] = {}
        self.games: dict[str, GameSpec] = registry()
        self.reserved: set[str] = set()
        """Codes of rooms set aside (``server/core/restoring.py``): never given again."""

    def new_code(self) -> str:
        while True:
            code = "".join(self.entropy.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms and code not in self.reserved:
                return code

    def create(
        self,
        creator: Identity,
        game: str,
        options: JSON | None,
        private: bool,
        password: str | None,
        address: str = "",
    ) -> Room:
        """A new room with ``creator`` not yet seated; ProtocolError to refuse.

        The password's digest is worked out here, on the event loop: one PBKDF2
        (about 20 ms) per room, and room creations per address are rate-limited
        (``server/core/fairness.py``); guesses, which anyone can send, run as jobs.
        Rooms count against the address that created them until they close (a
        dropped creator's room closes only when its reconnect grace ends)."""
        if len(self.rooms) >= self.max_rooms:
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                "The server has as many rooms as it allows; join an existing room or try later.",
            )
        cap = self.max_rooms_per_address
        if cap is not None and self.held_by(address) >= cap:
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                f"Your address already holds {cap} "
                "rooms, as many as one address may; leave one first.",
            )
        spec = self.games.get(game)
        if spec is None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                f"This server does not host {game!r}; "
                "it hosts " + ", ".join(sorted(self.games)) + ".",
            )
        try:
            parsed = spec.parse_options(dict(options or {}))
        except OptionError as exc:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"Bad {game} options: {exc}") from None
        if parsed.get("ai") and spec.computer is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"{game} has no computer opponent.")
        salt = self.entropy.token_bytes(16)
        room = Room(
            self.host,
            self.new_code(),
            spec,
            parsed,
            creator.id,
            private or password is not None,
            hash_password(password, salt) if password else None,
            salt,
            self.entropy.randbits(63),
            self.grace_seconds,
            address=address,
        )
        self.rooms[room.code] = room
        return room

    def held_by(self, address: str) -> int:
        """Open rooms created from ``address``."""
        return sum(1 for r in self.rooms.values() if r.address == address and not r.closed)

    def find(self, code: str) -> Room:
        room = self.rooms.get(code.strip().upper())
        if room is None or room.closed:
            raise ProtocolError(
                ErrorCode.NO_SUCH_ROOM,
                f"There is no room {code!r}; check the code or list the rooms.",
            )
        return room

    def listing(self) -> list[JSON]:
        return [r.summary() for r in self.rooms.values() if not r.private and not r.closed]

    def remove(self, room: Room) -> None:
        self.rooms.pop(room.code, None)
