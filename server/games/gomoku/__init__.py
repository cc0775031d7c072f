"""Gomoku: five in a row on 15x15 or 19x19, freestyle, standard or renju."""

from .game import GomokuGame
from .renju import forbidden_points, foul
from .rules import Board
from .spec import SPEC

__all__ = ["SPEC", "Board", "GomokuGame", "forbidden_points", "foul"]
