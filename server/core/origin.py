"""Which names the server answers to, and which web pages may open a WebSocket to it.

**Host names.** A page from an attacker's site can point its own DNS name at this
server's address (DNS rebinding): the browser then sends that name as ``Host`` and
as the page's ``Origin``, both agree, and the page reaches what the name's owner
should not, from the player's own machine (the admin socket and ``/metrics`` trust
loopback). So the server answers only requests whose ``Host`` it is known by
(:class:`KnownHosts`): any IP address (an address cannot be rebound: the packets
reached this machine), ``localhost``, this machine's own names and mDNS names, and
the names its operator gives with ``--server-name``. Others get HTTP 421 before
anything else. The port in ``Host`` does not matter (a published or forwarded port
may differ from the one listened on); case and one trailing dot do not either.

**Origins.**
Browsers send ``Origin`` with every WebSocket handshake and let any page open a
socket to any address, so without a check a page from another site, opened by
a player on the LAN, could play and chat as that player (and use up their
address's quotas). Accepted: handshakes without ``Origin`` (the Python clients
send none), browsers on a page of this server (the origin's host and port are
those of the request's ``Host``), and origins the operator lists with
``--allow-origin``. Everything else gets HTTP 403.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable
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


NAME = re.compile(r"(?=.{1,253}$)(?!-)[a-z0-9_-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9_-]{1,63}(?<!-))*")
"""A DNS name in lower case without its trailing dot (IDNs come in as punycode)."""
LOOPBACK_NAMES = frozenset({"localhost"})


def host_name(host_header: str | None) -> str | None:
    """The name or address a ``Host`` header names: lower case, without its port, one
    trailing dot or IPv6 brackets; None if the header is missing or malformed."""
    if host_header is None:
        return None
    text = host_header.strip()
    if not text or any(c in text for c in "/?#@\\ \t"):
        return None
    try:
        parts = urlsplit("//" + text)
        parts.port  # noqa: B018  (raises ValueError for a port that is not one)
    except ValueError:
        return None
    host = parts.hostname
    if not host:
        return None
    if text.startswith("["):
        try:
            return str(ipaddress.IPv6Address(host))
        except ValueError:
            return None
    name = host.lower().removesuffix(".")
    if _ip(name):
        return name
    return name if NAME.fullmatch(name) else None


def server_name(text: str) -> str | None:
    """A ``--server-name`` value as it is compared: a DNS name (or an address), lower
    case, no trailing dot; None if it is not one."""
    name = text.strip().lower().removesuffix(".")
    if _ip(name.strip("[]")):
        return name.strip("[]")
    return name if NAME.fullmatch(name) else None


def _ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


class KnownHosts:
    """The names this server answers to; see the module docstring."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names: set[str] = set(LOOPBACK_NAMES)
        self.add(*names)

    def add(self, *names: str) -> None:
        """Answer to these names too (those that are not names are skipped)."""
        for name in names:
            found = server_name(name)
            if found:
                self.names.add(found)

    def known(self, host_header: str | None) -> bool:
        """Does a request with this ``Host`` header name this server?"""
        host = host_name(host_header)
        return host is not None and (host in self.names or _ip(host))


MISDIRECTED = (
    "This server does not answer to the name {host!r}.\n"
    "Open it by its address or by a name its operator gave it with --server-name.\n"
)
NO_HOST = "The request must name this server in one Host header.\n"
