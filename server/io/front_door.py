"""What the server answers to an HTTP request before any game begins: the checks every
request passes (its host, a ban, the admin page's peers), the plain pages, and whether
a WebSocket upgrade may go on to the game.

Kept apart from :class:`~gridhall.server.io.app.GameServer` because it is a decision
about one request, made from the server's settings and caps and nothing else.
"""

from __future__ import annotations

import math
import time
from http import HTTPStatus
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ..core import origin
from ..core.bans import refusal
from ..core.fairness import address_key
from . import admin_web, hosts, web

if TYPE_CHECKING:
    from .app import GameServer


def answer(server: GameServer, connection: ServerConnection, request: Request) -> Response | None:
    """First of all, a request naming a host this server is not known by gets 421
    (DNS rebinding; :mod:`~gridhall.server.core.origin`). Then ``GET /healthz``
    answers 200 for health checks; a plain GET gets the browser client's files
    (:mod:`.web`); WebSocket upgrades go on to the game (None), unless they come from
    another site's page (403) or the address opens connections too fast (429 with
    Retry-After). A banned address gets 403 with the ban's end and reason;
    ``/admin`` is the admin page and channel, for allowed peers only (others: 404,
    or 403 at the upgrade; see ``server/io/admin_web.py``)."""
    misdirected = hosts.misdirected(connection, request, server.hosts)
    if misdirected is not None:
        return misdirected
    method = getattr(request, "method", "GET")
    peer = peer_of(connection)
    admin = admin_web.is_admin(request)
    if admin:
        allowed = server.admin.peer_allowed(peer)
        page = admin_web.respond(request, allowed)
        if page is not None:
            return page
        if not allowed:
            return connection.respond(HTTPStatus.FORBIDDEN, "forbidden\n")
    else:
        ban = server.hub.bans.address(peer, time.time())
        if ban is not None:
            return connection.respond(HTTPStatus.FORBIDDEN, refusal(ban) + "\n")
    if server.metrics is not None and request.path.split("?", 1)[0] == "/metrics":
        return server.metrics.respond(request, peer)
    if request.path == "/healthz" and method in web.ALLOWED_METHODS:
        health = connection.respond(HTTPStatus.OK, "ok\n")
        return web.headers_only(health) if method == "HEAD" else health
    page = web.respond(request, server.served, server.hub.nodes.addresses())
    if page is not None:
        return page
    if not origin.allowed(
        request.headers.get("Origin"),
        request.headers.get("Host"),
        server.allowed_origins | server.hub.nodes.origins(),
    ):
        return connection.respond(HTTPStatus.FORBIDDEN, origin.REFUSAL)
    if admin:  # the admin channel bounds its own sockets (server/io/admin_channel.py)
        return None
    return crowded(server, connection, peer)


def crowded(server: GameServer, connection: ServerConnection, peer: str) -> Response | None:
    """429 for an address with too many connections not yet past hello, cooling down
    after one was closed for abuse, or opening them too fast; None lets the upgrade
    go on."""
    if server.unwelcomed.by_address[peer] >= server.unwelcomed.per_address:
        return too_many(
            connection,
            "Too many connections from your address have not "
            "said hello yet; retry in a few seconds.\n",
            server.config.hello_timeout,
        )
    now = time.time()
    cooling = server.abusers.wait(address_key(peer), now)
    if cooling > 0:
        return too_many(
            connection,
            "A connection from your address was closed for flooding; "
            f"retry after {cooling:.1f} s.\n",
            cooling,
        )
    wait = server.connects.take(peer, now)
    if wait > 0:
        return too_many(
            connection,
            f"Too many connections from your address; retry after {wait:.1f} s.\n",
            wait,
        )
    return None


def too_many(connection: ServerConnection, text: str, retry_after: float) -> Response:
    """HTTP 429 with ``text`` and ``Retry-After`` (whole seconds, rounded up)."""
    response = connection.respond(HTTPStatus.TOO_MANY_REQUESTS, text)
    response.headers["Retry-After"] = str(math.ceil(retry_after))
    return response


def peer_of(connection: ServerConnection) -> str:
    """The address a connection comes from (``?`` when the socket does not say)."""
    return str(connection.remote_address[0]) if connection.remote_address else "?"
