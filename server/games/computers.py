"""The computer players' fixed reference ratings, by level.

A game's options refuse a rated game against a computer that has none (an external
engine), and the core's ratings (``server/core/ratings.py``) rate a person against
them. It lives in the games layer, the lowest of the server's, so that both read it
and the games import nothing above them.
"""

from __future__ import annotations

REFERENCE: dict[str, tuple[float, float]] = {"easy": (20.0, 1.0), "hard": (28.0, 1.0)}
"""Each computer level's fixed (mu, sigma): easy shows 1680, hard 2000."""
