"""How every computer player answers what people ask of it, in one place.

The room applies it to its own computer seats and ``gridhall-bridge`` to an
external engine it seats, so a person meets the same opponent either way: it
lets you take a move back, never agrees to a draw, and always plays again.
It is part of the protocol (PROTOCOL.md, Gomoku: "A computer opponent accepts
take-backs and declines draws"): the server's core and the bridge, which sit in
different layers, both follow it from here.
"""

from __future__ import annotations


class ComputerPolicy:
    """The answers a computer player gives."""

    agrees_again = True
    """It agrees to every play-again."""

    @staticmethod
    def accepts(kind: str) -> bool:
        """Accept a take-back (it costs the computer nothing), refuse a draw (it plays on)."""
        return kind == "takeback"
