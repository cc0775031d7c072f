"""Error codes of the wire contract and the one exception that carries them."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Every ``error.code`` the contract defines (PROTOCOL.md, "Errors")."""

    BAD_MESSAGE = "bad-message"
    UNKNOWN_TYPE = "unknown-type"
    NOT_WELCOMED = "not-welcomed"
    VERSION_MISMATCH = "version-mismatch"
    NO_SUCH_ROOM = "no-such-room"
    ROOM_FULL = "room-full"
    WRONG_PASSWORD = "wrong-password"
    NOT_IN_ROOM = "not-in-room"
    ALREADY_IN_ROOM = "already-in-room"
    NOT_A_PLAYER = "not-a-player"
    NOT_YOUR_TURN = "not-your-turn"
    ILLEGAL_MOVE = "illegal-move"
    NOT_PLAYING = "not-playing"
    NO_PENDING_REQUEST = "no-pending-request"
    RATE_LIMITED = "rate-limited"
    SERVER_BUSY = "server-busy"
    NOT_THE_HOST = "not-the-host"
    """A host action from someone who is not the room's host."""
    KICKED = "kicked"
    """Removed from that room by its host, for a while (``retry_after``)."""
    ROOM_LOCKED = "room-locked"
    MUTED = "muted"
    GAME_IN_PROGRESS = "game-in-progress"
    BANNED = "banned"
    """Kept out of this server by its operator, for a while (``retry_after``)."""
    INTERNAL_ERROR = "internal-error"
    """The server's own fault (a bug), never the client's: nothing changed."""
    ADMIN_REFUSED = "admin-refused"
    """The admin channel's ``admin-hello`` with a wrong token (PROTOCOL.md, "Admin")."""
    BAD_LINK = "bad-link"
    """``hello`` with a link code that is wrong, used or expired (added)."""
    NO_SUCH_PLAYER = "no-such-player"
    """An admin action names a player the server does not know."""
    NO_SUCH_GAME = "no-such-game"
    """No finished game the server keeps has that id (``get-replay``, ``analyse``; added)."""
    ROOM_LOST = "room-lost"
    """After a restart, the room the player was in could not be restored: sent once
    after ``welcome`` to a member resuming with its token, with ``room`` and
    ``reason`` (added)."""
    CLUSTER_UNAVAILABLE = "cluster-unavailable"
    """A cluster node cannot reach Redis and the request needs another node (joining a
    room owned elsewhere, creating a room): nothing changed; retry (added)."""


class ProtocolError(Exception):
    """A request the server refuses: an error code plus a sentence a person can act on.

    ``request_id`` is the offending request's ``id`` when it could be read, so
    the reply can echo it as ``re``.
    """

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        request_id: int | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after
        """Seconds until the same request may succeed (sent as ``retry_after``)."""

    def __repr__(self) -> str:
        return f"ProtocolError({self.code.value!r}, {self.message!r})"
