"""Reversi (Othello): 8×8 (or 6×6, 10×10), flips in eight directions, passes, most discs wins."""

from .board import Position
from .game import ReversiGame
from .spec import SPEC

__all__ = ["SPEC", "Position", "ReversiGame"]
