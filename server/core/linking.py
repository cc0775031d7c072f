"""Link codes: carry an identity to another device without accounts.

The first device asks for a code (``link-code``) and shows it; the second says
``hello`` with ``link`` instead of a token and becomes the same identity, with a
token of its own. A code is 8 characters of the room-code alphabet (about 40
bits), works once, for :data:`VALID_FOR` seconds, and is kept only as its sha256
(in memory and in the store), so a leaked database holds no usable code. An
identity holds at most one live code: asking again replaces it. Wrong codes back
off per address like room passwords (5 free, then 1 s doubling up to 60 s), so
guessing 2**40 codes from a LAN is hopeless. Pure: time comes in as ``now``.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

from .fairness import Backoff, address_key
from .lobby import CODE_ALPHABET

CODE_LENGTH = 8
VALID_FOR = 600.0
"""Seconds a code works after it was given."""


class LinkRefused(Exception):
    """A code that is malformed, unknown, used or expired (``bad-link``)."""


@dataclass
class Pending:
    """A live code, known by its hash."""

    player: str
    expires: float


def new_code() -> str:
    """A fresh code, as typed (no dash)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown(code: str) -> str:
    """A code as people read it: ``K7MQ-2D9X``."""
    half = CODE_LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


def normal(text: str) -> str | None:
    """What a person typed as a code: any case, with or without the dash or spaces;
    None if it cannot be a code."""
    code = "".join(text.split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def code_hash(code: str) -> str:
    return hashlib.sha256(("link:" + code).encode()).hexdigest()


class LinkCodes:
    """The live codes and the backoff on wrong ones."""

    def __init__(self) -> None:
        self.by_hash: dict[str, Pending] = {}
        self.by_player: dict[str, str] = {}
        """Player id -> the hash of its one live code."""
        self.guesses = Backoff(free=5, base=1.0, cap=60.0, forget=600.0)

    def issue(self, player: str, now: float) -> tuple[str, str, str | None]:
        """A new code for ``player``: (code, its hash, the hash of the code it replaced)."""
        old = self.by_player.pop(player, None)
        if old is not None:
            self.by_hash.pop(old, None)
        code = new_code()
        digest = code_hash(code)
        while digest in self.by_hash:  # pragma: no cover - 2**40 codes
            code = new_code()
            digest = code_hash(code)
        self.add(digest, player, now + VALID_FOR)
        return code, digest, old

    def add(self, digest: str, player: str, expires: float) -> None:
        """Know a code (issued now, or loaded from the store)."""
        self.by_hash[digest] = Pending(player, expires)
        self.by_player[player] = digest

    def wait(self, address: str, now: float) -> float:
        """Seconds before ``address`` may try a code again (0.0: now)."""
        return self.guesses.wait(address_key(address), now)

    def redeem(self, text: str, address: str, now: float) -> tuple[str, str]:
        """The player a code names, and the code's hash (now used up); a wrong code
        counts against ``address`` and raises :class:`LinkRefused`."""
        code = normal(text)
        digest = code_hash(code) if code is not None else ""
        pending = self.by_hash.get(digest)
        if pending is None or pending.expires <= now:
            if pending is not None:
                self.drop(digest)
            self.guesses.failed(address_key(address), now)
            raise LinkRefused(text)
        self.drop(digest)  # a right code does not clear the address's failures: anyone
        return pending.player, digest  # can make one for themselves, between guesses

    def drop(self, digest: str) -> None:
        pending = self.by_hash.pop(digest, None)
        if pending is not None and self.by_player.get(pending.player) == digest:
            del self.by_player[pending.player]

    def forget_player(self, player: str) -> str | None:
        """``player`` is forgotten: its code goes too (its hash, if it had one)."""
        digest = self.by_player.get(player)
        if digest is not None:
            self.drop(digest)
        return digest

    def expires(self, player: str) -> float | None:
        """When ``player``'s live code stops working, if it has one."""
        digest = self.by_player.get(player)
        return self.by_hash[digest].expires if digest is not None else None
