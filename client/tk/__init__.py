"""The Tk client (``gridhall --tk``): the same lobby, rooms and games as the
terminal client, drawn on canvases, over the shared :mod:`client.session`."""

from __future__ import annotations

import tkinter  # noqa: F401 - missing Tk fails at import, which client.cli reports


def main(url: str, name: str) -> int:
    """Open the window and run until it is closed; the exit status."""
    from gridhall.client.tk.app import TkApp

    return TkApp(url, name).run()


__all__ = ["main"]
