"""``GET /admin``: the admin page's static file, for allowed peers only.

The page holds no server data (it asks the admin channel for everything, with the
token from the link's fragment), so serving it says nothing; still, a peer the
admin page is not for gets the same 404 as any unknown path, and so learns
nothing either. ``/admin.html`` (the file's own path) is gated the same way.
"""

from __future__ import annotations

import dataclasses
from http import HTTPStatus

from websockets.http11 import Request, Response

from ..net import web

PATHS = frozenset({"/admin", "/admin.html"})
PAGE = "/admin.html"
"""The packaged file (``client/web/admin.html``) the admin page is."""


def path_of(request: Request) -> str:
    """The request's path without its query."""
    return request.path.split("?", 1)[0].split("#", 1)[0]


def is_admin(request: Request) -> bool:
    return path_of(request) in PATHS


def respond(request: Request, allowed: bool) -> Response | None:
    """The page (or 404 for a peer that is not ``allowed``); None lets a WebSocket
    upgrade go on to the admin channel (the caller refuses a peer not allowed)."""
    if request.headers.get("Upgrade", "").strip().lower() == "websocket":
        return None
    if not allowed:
        return web._plain(HTTPStatus.NOT_FOUND, "not found\n")
    return web.respond(dataclasses.replace(request, path=PAGE))
