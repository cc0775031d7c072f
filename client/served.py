"""What the connected server adds to the games' descriptions: its external engines.

The Python clients draw their create forms from the packaged descriptions
(:mod:`gridhall.protocol.games`). A server started with ``--engine NAME=COMMAND``
serves Gomoku with more ``ai`` choices (``engine:NAME``) at ``GET /games.json``;
after connecting, the client reads that list (:func:`refresh`, off the event loop,
bounded in time and size) and its Gomoku description gains the same choices, or
loses them again on a server that offers none. Names are data: only well-formed
ones are taken (:func:`gridhall.protocol.games.engines.offered`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from gridhall.client.views import VIEWS
from gridhall.protocol import games
from gridhall.protocol.games.engines import offered, with_engines
from gridhall.protocol.games.gomoku import GOMOKU

MAX_BYTES = 2**20
"""The most of ``/games.json`` read (the packaged one is a few dozen KB)."""
TIMEOUT = 5.0


def games_url(ws_url: str) -> str:
    """``ws://host:port/`` -> ``http://host:port/games.json`` (wss -> https)."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return urlunsplit((scheme, parts.netloc, "/games.json", "", ""))


def fetch_engines(ws_url: str, timeout: float = TIMEOUT) -> list[str]:
    """The engine names the server at ``ws_url`` offers ([] when it offers none or
    does not say)."""
    with urllib.request.urlopen(games_url(ws_url), timeout=timeout) as reply:  # noqa: S310
        data = json.loads(reply.read(MAX_BYTES + 1)[:MAX_BYTES])
    gomoku = data.get("games", {}).get("gomoku") if isinstance(data, dict) else None
    return offered(gomoku) if isinstance(gomoku, dict) else []


def install(names: list[str]) -> None:
    """Gomoku's description, as every client view reads it, with these engines: the
    registry's and the Gomoku view's (its create form and lobby words)."""
    described = with_engines(GOMOKU, names)
    games.GAMES["gomoku"] = described
    view = VIEWS.get("gomoku")
    if view is not None:
        view.description = described
        view.form = tuple(f for f in described.form if f.form)


async def refresh(ws_url: str) -> list[str]:
    """Read the server's engines off the event loop and install them; a server that
    cannot be asked leaves the packaged description."""
    names: list[str] = []
    with contextlib.suppress(OSError, ValueError):
        names = await asyncio.to_thread(fetch_engines, ws_url)
    install(names)
    return names
