"""Display-free view models shared by the terminal and Tk clients, one class per game.

:data:`VIEWS` is the registry: game name -> its :class:`GameView` subclass
(``client/views/<game>.py``). Both UIs read everything game-specific from it
(titles, create-room forms, status lines, actions, event texts) and keep only
their own registry of board widgets. No toolkit imports here.
"""

from gridhall.client.views.base import GameView
from gridhall.client.views.common import Look
from gridhall.client.views.gomoku import GomokuView
from gridhall.client.views.linkmatch import LinkMatchView
from gridhall.client.views.minesweeper import MinesweeperView
from gridhall.client.views.reversi import ReversiView
from gridhall.protocol.i18n import gettext as _

VIEWS: dict[str, type[GameView]] = {
    GomokuView.name: GomokuView,
    MinesweeperView.name: MinesweeperView,
    LinkMatchView.name: LinkMatchView,
    ReversiView.name: ReversiView,
}


def view_for(game: str) -> GameView:
    """The view of ``game``; a plain one for a game this client does not know."""
    cls = VIEWS.get(game)
    return cls() if cls is not None else GameView(game)


def titles() -> dict[str, str]:
    """Game name -> title, in registry order (the create dialogs' game list)."""
    return {name: _(cls.title) for name, cls in VIEWS.items()}


__all__ = ["VIEWS", "GameView", "Look", "titles", "view_for"]
