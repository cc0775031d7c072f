"""Player identities: public id, secret token, name, and where they are."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .room import Room


@dataclass(eq=False)
class Identity:
    """A player as the server knows them; survives reconnects through ``token``."""

    id: str
    token_hash: str
    """sha256 of the secret token: the server (and its store) never keeps the token."""
    name: str
    color: str | None = None
    connected: bool = False
    """A connection currently speaks for this identity (never for a computer)."""
    room: Room | None = None
    role: Literal["player", "spectator"] | None = None
    bot: str | None = None
    """For a computer player: its level ("easy", "hard") or engine name."""
    address: str = ""
    """The network address of the connection that last said hello for it."""
    deltas: bool = False
    """That connection folds ``moved`` deltas (it said ``deltas: true`` in ``hello``)."""
    linked: set[str] = field(default_factory=set)
    """Hashes of more tokens for it: devices it was carried to with a link code."""

    @property
    def online(self) -> bool:
        """What the room shows as ``connected``: computers are always there."""
        return self.bot is not None or self.connected


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Identities:
    """Every identity the server currently knows, by id and by token hash."""

    def __init__(self) -> None:
        self.by_id: dict[str, Identity] = {}
        self.by_token: dict[str, Identity] = {}

    def create(self, name: str, bot: str | None = None) -> tuple[Identity, str]:
        """A new identity and its secret token (192 random bits), which only the
        client keeps."""
        pid = "p" + secrets.token_hex(4)
        while pid in self.by_id:
            pid = "p" + secrets.token_hex(4)
        token = secrets.token_urlsafe(24)
        ident = Identity(id=pid, token_hash=token_hash(token), name=name, bot=bot)
        self.add(ident)
        return ident, token

    def add(self, ident: Identity) -> None:
        self.by_id[ident.id] = ident
        self.by_token[ident.token_hash] = ident

    def add_token(self, ident: Identity, digest: str) -> None:
        """One more token for ``ident`` (a linked device); both keep working."""
        ident.linked.add(digest)
        self.by_token[digest] = ident

    def resume(self, token: str) -> Identity | None:
        return self.by_token.get(token_hash(token))

    def forget(self, ident: Identity) -> None:
        """Drop an identity nobody can resume any more (offline and roomless)."""
        self.by_id.pop(ident.id, None)
        self.by_token.pop(ident.token_hash, None)
        for digest in ident.linked:
            self.by_token.pop(digest, None)

    def __len__(self) -> int:
        return len(self.by_id)
