"""Player identities: public id, secret token, name, and where they are."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from gridhall.protocol.devices import Description

if TYPE_CHECKING:
    from .entropy import Entropy
    from .room import Room


REVOKED = "revoked:"
"""What a signed-out first device's token hash is replaced with (the identity keeps its
row; no token hashes to it): the old hash follows, so bans made before still match."""


@dataclass
class Device:
    """One of an identity's tokens as the player sees it (``server/core/devices.py``)."""

    about: Description = field(default_factory=Description)
    """What the client said it is (``hello.device``): its kind and platform."""
    created_at: float = 0.0
    last_seen: float = 0.0
    """When a connection with this token last said hello or ended (0: before devices
    were kept, or never)."""


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
    devices: dict[str, Device] = field(default_factory=dict)
    """Token hash -> what the player's device list shows of it (names, last seen)."""
    device: str = ""
    """The token hash the connected connection said hello with ("" when not known here:
    a cluster node serving a player connected to another node)."""
    signed_out: bool = False
    """The request being handled signed out the connected device: its session closes."""

    def tokens(self) -> list[str]:
        """The hashes of every token that resumes this identity, the first device's first."""
        first = [] if self.token_hash.startswith(REVOKED) else [self.token_hash]
        return first + sorted(self.linked)

    def ban_key(self) -> str:
        """The first device's token hash as bans name it (also once it was signed out)."""
        return self.token_hash.removeprefix(REVOKED)

    @property
    def online(self) -> bool:
        """What the room shows as ``connected``: computers are always there."""
        return self.bot is not None or self.connected


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Identities:
    """Every identity the server currently knows, by id and by token hash."""

    def __init__(self, entropy: Entropy) -> None:
        self.entropy = entropy
        """Where ids and tokens come from (``server/core/entropy.py``)."""
        self.by_id: dict[str, Identity] = {}
        self.by_token: dict[str, Identity] = {}

    def create(self, name: str, bot: str | None = None) -> tuple[Identity, str]:
        """A new identity and its secret token (192 random bits), which only the
        client keeps."""
        pid = "p" + self.entropy.token_hex(4)
        while pid in self.by_id:
            pid = "p" + self.entropy.token_hex(4)
        token = self.entropy.token_urlsafe(24)
        ident = Identity(id=pid, token_hash=token_hash(token), name=name, bot=bot)
        self.add(ident)
        return ident, token

    def add(self, ident: Identity) -> None:
        self.by_id[ident.id] = ident
        if not ident.token_hash.startswith(REVOKED):
            self.by_token[ident.token_hash] = ident

    def add_token(self, ident: Identity, digest: str) -> None:
        """One more token for ``ident`` (a linked device); both keep working."""
        ident.linked.add(digest)
        self.by_token[digest] = ident

    def revoke(self, ident: Identity, digest: str) -> None:
        """``digest`` no longer resumes ``ident`` (a device signed out, or dropped past
        the cap): at once, here; the caller stores it."""
        if self.by_token.get(digest) is ident:
            del self.by_token[digest]
        ident.linked.discard(digest)
        ident.devices.pop(digest, None)
        if digest == ident.token_hash:
            ident.token_hash = REVOKED + digest

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
