"""The names this server answers to, gathered at start, and the answer to a request that
names another (421; the rule and why are in ``server/core/origin.py``)."""

from __future__ import annotations

import socket
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from ...core import origin
from ...core.config import ServerConfig
from ..lan.discovery import WILDCARD_HOSTS, host_label


def own_names(config: ServerConfig) -> list[str]:
    """The names a server with ``config`` is known by before it listens: the names
    given (``--server-name``), the host it listens on and the node address it is
    given when they are names, this machine's name (alone, as given and as
    ``NAME.local``) and the mDNS name it announces (``server/io/lan/discovery.py``)."""
    machine = socket.gethostname().lower()
    label = machine.split(".")[0]
    names = [*config.server_names, config.host, machine, label, f"{label}.local"]
    names.append(f"{host_label()}.local")
    names.append(url_host(config.node_address) or "")
    return [n for n in names if n and n not in WILDCARD_HOSTS]


def url_host(url: str | None) -> str | None:
    """The host of a ``ws://host:port/`` URL (None if there is none)."""
    try:
        return urlsplit(url or "").hostname
    except ValueError:
        return None


def misdirected(
    connection: ServerConnection, request: Request, known: origin.KnownHosts
) -> Response | None:
    """421 for a request whose ``Host`` names a host this server is not known by (400
    when it names none, or several, or is malformed); None if it names this server."""
    given = request.headers.get_all("Host")
    if len(given) != 1 or origin.host_name(given[0]) is None:
        return connection.respond(HTTPStatus.BAD_REQUEST, origin.NO_HOST)
    if known.known(given[0]):
        return None
    shown = given[0][:100].encode("ascii", "replace").decode()
    return connection.respond(HTTPStatus.MISDIRECTED_REQUEST, origin.MISDIRECTED.format(host=shown))
