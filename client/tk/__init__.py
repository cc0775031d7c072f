"""The Tk client (``gridhall --tk``): the same lobby, rooms and games as the
terminal client, drawn on canvases, over the shared :mod:`client.session`."""

from __future__ import annotations

import tkinter  # noqa: F401 - missing Tk fails at import, which client.cli reports
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gridhall.client.history import Opening

Listener = Callable[[Any], None]
Tokens = tuple[Callable[[str], str | None], Callable[[str, str], None]]
"""Read and keep a server's token, by server URL (the CLI's: the config file)."""


def main(
    server: str | None,
    name: str,
    *,
    default: str = "",
    remember: Callable[[str], Listener] | None = None,
    tokens: Tokens | None = None,
    opening: Opening | None = None,
    link: str | None = None,
) -> int:
    """Open the window and run until it is closed; the exit status. Without a
    ``server`` (``--server`` text) the window first shows the connect screen, with
    ``default`` typed in. ``remember(server)`` makes a listener for the session
    (the CLI's: save the server once it answered); ``tokens`` reads the token kept
    for the chosen server (back to our seat) and keeps the one it gives; ``opening``
    is what ``--history`` / ``--replay ID`` asked to show once connected; ``link``
    (``--link CODE``) makes this device the player who showed that code elsewhere."""
    from gridhall.client.tk.app import TkApp
    from gridhall.client.tk.connect import ask_server
    from gridhall.client.tk.theme import apply
    from gridhall.protocol.address import server_url
    from gridhall.protocol.i18n import _

    root = tkinter.Tk(className="gridhall")
    if server is None:
        root.title("gridhall · " + _("choose a server"))
        apply(root)
        server = ask_server(root, default)
        if server is None:
            root.destroy()
            return 0
    url = server_url(server)
    token, keep = None, None
    if tokens is not None:
        saved, save = tokens
        token = saved(url)

        def keep(new: str) -> None:
            save(url, new)

    app = TkApp(url, name, root=root, token=token, keep_token=keep, opening=opening, link=link)
    if remember is not None:
        app.session.add_listener(remember(server))
    return app.run()


__all__ = ["main"]
