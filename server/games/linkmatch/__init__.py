"""Race-mode Link-match (Lianliankan): pure rules, board generation and the game.

Public API others may call: :func:`find_path`, :func:`available_pairs`, and
``SPEC`` (the :class:`~server.games.base.GameSpec` the room registry uses).
"""

from .paths import available_pairs, find_path
from .spec import SPEC

__all__ = ["SPEC", "available_pairs", "find_path"]
