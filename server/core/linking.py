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
from dataclasses import dataclass

from .entropy import Entropy
from .fairness import Backoff, address_key
from .lobby import CODE_ALPHABET

CODE_LENGTH = 8
VALID_FOR = 600.0
"""Seconds a code works after it was given."""
LIVE_PER_ADDRESS = 4
"""Live codes asked for from one address (an IPv6 /64) at once; one more drops its
oldest. An identity offline is kept while its code works, so without this bound a
stranger asking for a code on each of 2,000 connections and hanging up kept 2,000
identities for :data:`VALID_FOR` seconds; now at most this many outlive their grace."""


class LinkRefused(Exception):
    """A code that is malformed, unknown, used or expired (``bad-link``)."""


@dataclass
class Pending:
    """A live code, known by its hash."""

    player: str
    expires: float
    address: str = ""
    """Who asked for it, as :func:`~.fairness.address_key` counts it ("" once loaded)."""


def new_code(entropy: Entropy) -> str:
    """A fresh code, as typed (no dash)."""
    return "".join(entropy.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


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

    def __init__(self, entropy: Entropy) -> None:
        self.entropy = entropy
        """Where codes come from (``server/core/entropy.py``)."""
        self.by_hash: dict[str, Pending] = {}
        self.by_player: dict[str, str] = {}
        """Player id -> the hash of its one live code."""
        self.guesses = Backoff(free=5, base=1.0, cap=60.0, forget=600.0)
        self.by_address: dict[str, dict[str, None]] = {}
        """Address key -> the hashes of the codes it asked for, oldest first."""

    def make_room(self, address: str, player: str, now: float) -> list[tuple[str, str]]:
        """Before ``player`` asks for a code from ``address``: drop its own code (a new
        one replaces it), the address's expired ones and, when it holds
        :data:`LIVE_PER_ADDRESS` live ones, its oldest; (hash, player) of each live one
        dropped (that player is kept offline no longer for it)."""
        dropped: list[tuple[str, str]] = []
        own = self.by_player.get(player)
        if own is not None:
            dropped.append((own, player))
            self.drop(own)
        digests = self.by_address.get(address_key(address), {})
        for digest in [d for d in digests if self.by_hash[d].expires <= now]:
            self.drop(digest)
        while len(digests) >= LIVE_PER_ADDRESS:
            digest = next(iter(digests))
            dropped.append((digest, self.by_hash[digest].player))
            self.drop(digest)
        return dropped

    def issue(self, player: str, now: float, address: str = "") -> tuple[str, str, str | None]:
        """A new code for ``player``, asked for from ``address``: (code, its hash, the
        hash of the code it replaced)."""
        old = self.by_player.get(player)
        if old is not None:
            self.drop(old)
        code = new_code(self.entropy)
        digest = code_hash(code)
        while digest in self.by_hash:  # pragma: no cover - 2**40 codes
            code = new_code(self.entropy)
            digest = code_hash(code)
        self.add(digest, player, now + VALID_FOR, address)
        return code, digest, old

    def add(self, digest: str, player: str, expires: float, address: str = "") -> None:
        """Know a code (issued now, or loaded from the store)."""
        key = address_key(address) if address else ""
        self.by_hash[digest] = Pending(player, expires, key)
        self.by_player[player] = digest
        if key:
            self.by_address.setdefault(key, {})[digest] = None

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
        if pending is None:
            return
        if self.by_player.get(pending.player) == digest:
            del self.by_player[pending.player]
        held = self.by_address.get(pending.address)
        if held is not None:
            held.pop(digest, None)
            if not held:
                del self.by_address[pending.address]

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
