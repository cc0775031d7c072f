"""What the connected server adds to the games' descriptions: its external engines.

The Python clients draw their create forms from the packaged descriptions
(:mod:`gridhall.protocol.games`). A server started with ``--engine NAME=COMMAND``
serves the games those engines play with more ``ai`` choices (``engine:NAME``) at
``GET /games.json``; after connecting, the client reads that list (:func:`refresh`, off
the event loop, bounded in time and size) and each game's description gains the same
choices, or loses them again on a server that offers none. Names are data: only
well-formed ones are taken (:func:`gridhall.protocol.games.engines.offered`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.request
from types import MappingProxyType
from urllib.parse import urlsplit, urlunsplit

from gridhall.client.views import VIEWS
from gridhall.protocol import games
from gridhall.protocol.games.engines import offered, with_engines

MAX_BYTES = 2**20
"""The most of ``/games.json`` read (the packaged one is a few dozen KB)."""
TIMEOUT = 5.0
PACKAGED = MappingProxyType(dict(games.GAMES))
"""The descriptions as packaged, before any server's engines."""


def games_url(ws_url: str) -> str:
    """``ws://host:port/`` -> ``http://host:port/games.json`` (wss -> https)."""
    parts = urlsplit(ws_url)
    scheme = "https" if parts.scheme == "wss" else "http"
    return urlunsplit((scheme, parts.netloc, "/games.json", "", ""))


def fetch_engines(ws_url: str, timeout: float = TIMEOUT) -> dict[str, list[str]]:
    """The engine names the server at ``ws_url`` offers, by game (a game it offers
    none for, or does not describe, is left out)."""
    with urllib.request.urlopen(games_url(ws_url), timeout=timeout) as reply:  # noqa: S310
        data = json.loads(reply.read(MAX_BYTES + 1)[:MAX_BYTES])
    served = data.get("games") if isinstance(data, dict) else None
    if not isinstance(served, dict):
        return {}
    found = {name: offered(served[name]) for name in PACKAGED if isinstance(served.get(name), dict)}
    return {name: names for name, names in found.items() if names}


def install(engines: dict[str, list[str]]) -> None:
    """Every game's description, as every client view reads it, with the engines it
    is offered (the packaged one for a game offered none): the registry's and the
    game's view (its create form and lobby words)."""
    for name, packaged in PACKAGED.items():
        described = with_engines(packaged, engines.get(name, []))
        games.GAMES[name] = described
        view = VIEWS.get(name)
        if view is not None:
            view.description = described
            view.form = tuple(f for f in described.form if f.form)


async def refresh(ws_url: str) -> dict[str, list[str]]:
    """Read the server's engines off the event loop and install them; a server that
    cannot be asked leaves the packaged descriptions."""
    engines: dict[str, list[str]] = {}
    with contextlib.suppress(OSError, ValueError):
        engines = await asyncio.to_thread(fetch_engines, ws_url)
    install(engines)
    return engines
