"""Display-free view models shared by the terminal and Tk clients.

They turn a room ``state`` (as kept by :class:`client.session.Session`) into
what to draw: a :class:`Look` (glyph + colours) per cell, status-line text,
player lines. No toolkit imports here, and no game rules beyond reading views.
"""

from gridhall.client.views.common import Look

__all__ = ["Look"]
