"""The Tk client (``gridhall --tk``): the same lobby, rooms and games as the
terminal client, drawn on canvases, over the shared :mod:`client.session`."""

from __future__ import annotations

import tkinter  # noqa: F401 - missing Tk fails at import, which client.cli reports
from collections.abc import Callable
from typing import Any


Listener = Callable[[Any], None]


def main(server: str | None, name: str, *, default: str = "",
         remember: Callable[[str], Listener] | None = None) -> int:  # fmt: skip
    """Open the window and run until it is closed; the exit status. Without a
    ``server`` (``--server`` text) the window first shows the connect screen, with
    ``default`` typed in. ``remember(server)`` makes a listener for the session
    (the CLI's: save the server once it answered)."""
    from gridhall.client.address import server_url
    from gridhall.client.tk.app import TkApp
    from gridhall.client.tk.connect import ask_server
    from gridhall.client.tk.theme import apply

    root = tkinter.Tk(className="gridhall")
    if server is None:
        root.title("gridhall · choose a server")
        apply(root)
        server = ask_server(root, default)
        if server is None:
            root.destroy()
            return 0
    app = TkApp(server_url(server), name, root=root)
    if remember is not None:
        app.session.add_listener(remember(server))
    return app.run()


__all__ = ["main"]
