"""Which web pages may open a WebSocket to the server.

Browsers send ``Origin`` with every WebSocket handshake and let any page open a
socket to any address, so without a check a page from another site, opened by
a player on the LAN, could play and chat as that player (and use up their
address's quotas). Accepted: handshakes without ``Origin`` (the Python clients
send none), browsers on a page of this server (the origin's host and port are
those of the request's ``Host``), and origins the operator lists with
``--allow-origin``. Everything else gets HTTP 403.
"""

from __future__ import annotations

from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def normalize(url: str) -> str | None:
    """``scheme://host:port`` (lower case, the port always given) of an origin or
    URL; None if it is not an http(s) origin."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or DEFAULT_PORTS[scheme]}"


def _host_port(host_header: str, default_port: int) -> str | None:
    """``host:port`` of a Host header (lower case, the port always given)."""
    try:
        parts = urlsplit("//" + host_header.strip())
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port or default_port}"


def allowed(origin: str | None, host: str | None, extra: frozenset[str] = frozenset()) -> bool:
    """May a handshake with these ``Origin`` and ``Host`` headers go on? ``extra``
    holds :func:`normalize`\\ d origins the operator allows."""
    if origin is None:
        return True
    own = normalize(origin)
    if own is None:  # "null" (sandboxed frames, files) or nonsense
        return False
    if own in extra:
        return True
    scheme, _, rest = own.partition("://")
    return host is not None and _host_port(host, DEFAULT_PORTS[scheme]) == rest


REFUSAL = (
    "This server accepts WebSocket connections only from its own web page.\n"
    "Open the game at the server's own address, or ask its operator to allow "
    "your page with --allow-origin.\n"
)
