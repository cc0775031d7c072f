"""Room passwords: a slow hash, computed as a job off the event loop.

PBKDF2 makes a leaked store slow to crack, which is exactly why it must never
run on the event loop (about 20 ms a guess): the room asks for
:func:`password_job` and compares digests when the answer comes back, and
``server/core/fairness.py`` limits how often anyone may guess.
"""

from __future__ import annotations

import hashlib
import hmac

from ..games.jobs import Job

ITERATIONS = 20_000


def hash_password(password: str, salt: bytes) -> bytes:
    """The stored form of a room password."""
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, ITERATIONS)


def password_digest(password: str, salt_hex: str) -> str:
    """:func:`hash_password` as plain data in and out (a job's answer)."""
    return hash_password(password, bytes.fromhex(salt_hex)).hex()


def password_job(password: str, salt: bytes) -> Job:
    return Job(password_digest, (password, salt.hex()), kind="password")


def same_digest(answer: str, digest: bytes) -> bool:
    """Compare a job's hex answer with a stored digest in constant time."""
    try:
        given = bytes.fromhex(answer)
    except ValueError:
        return False
    return hmac.compare_digest(given, digest)
