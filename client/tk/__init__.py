"""The Tk client (``gridhall --tk``): the same lobby, rooms and games as the
terminal client, drawn on canvases, over the shared :mod:`client.session`."""

from __future__ import annotations

import tkinter  # noqa: F401 - missing Tk fails at import, which client.cli reports
from collections.abc import Callable


def main(url: str, name: str, token: str | None = None,
         keep_token: Callable[[str], None] | None = None) -> int:
    """Open the window and run until it is closed; the exit status."""
    from gridhall.client.tk.app import TkApp

    return TkApp(url, name, token=token, keep_token=keep_token).run()


__all__ = ["main"]
