"""Display-free view models shared by the terminal and Tk clients, one class per game.

:data:`VIEWS` is the registry: game name -> its :class:`GameView` subclass, found by
the game's name among the packaged descriptions (:data:`gridhall.protocol.games.NAMES`):
``client/views/<name>.py`` exports it as ``VIEW``. Both UIs read everything
game-specific from it (titles, create-room forms, status lines, actions, event texts,
what a replay adds to the board) and find their board widgets the same way. No
toolkit imports here.
"""

from importlib import import_module

from gridhall.client.views.base import GameView
from gridhall.client.views.common import Look
from gridhall.protocol.games import NAMES
from gridhall.protocol.i18n import gettext as _


def _view(name: str) -> type[GameView]:
    found = import_module(f"{__name__}.{name}").VIEW
    if not (isinstance(found, type) and issubclass(found, GameView) and found.name == name):
        raise TypeError(f"client/views/{name}.py: VIEW must be the GameView of {name!r}")
    return found


VIEWS: dict[str, type[GameView]] = {name: _view(name) for name in NAMES}


def view_for(game: str) -> GameView:
    """The view of ``game``; a plain one for a game this client does not know."""
    cls = VIEWS.get(game)
    return cls() if cls is not None else GameView(game)


def titles() -> dict[str, str]:
    """Game name -> title, in registry order (the create dialogs' game list)."""
    return {name: _(cls.title) for name, cls in VIEWS.items()}


__all__ = ["VIEWS", "GameView", "Look", "titles", "view_for"]
