"""Where the core's randomness comes from: passed in, never imported.

Identity ids and tokens, room codes, salts and seeds, and link codes are all drawn
from an :class:`Entropy` the I/O layer hands the hub. In production it is the
``secrets`` module itself (a CSPRNG: none of these may be guessable); a test or a
model check may pass a seeded one, so the same inputs give the same outputs, down
to every token (``tests/server/test_core_is_pure.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Entropy(Protocol):
    """The few draws the core makes (the ``secrets`` module's names and meanings)."""

    def token_urlsafe(self, nbytes: int) -> str:
        """``nbytes`` random bytes as URL-safe text."""
        ...

    def token_hex(self, nbytes: int) -> str:
        """``nbytes`` random bytes as hex."""
        ...

    def token_bytes(self, nbytes: int) -> bytes: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def randbits(self, k: int) -> int: ...
