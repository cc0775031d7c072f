"""Turn what a person types for ``--server`` into a WebSocket URL.

Accepted forms: ``host``, ``host:port``, ``[v6addr]:port``, a bare IPv6
address, or a full ``ws://`` / ``wss://`` URL (kept as given, with ``/`` added
when the path is empty). The default port is the protocol's 8765. Every program that
connects to a server reads its ``--server`` so: the clients and ``gridhall-bridge``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from gridhall.protocol import DEFAULT_PORT
from gridhall.protocol.i18n import _

DEFAULT_HOST = "localhost"


class AddressError(ValueError):
    """The text cannot name a server; the message says what is wrong."""


def _port(text: str, original: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise AddressError(
            _("{address}: the port must be a number from 1 to 65535", address=repr(original))
        )
    return int(text)


def server_url(text: str | None) -> str:
    """The ``ws://`` URL for ``text`` (``None`` or blank means localhost:8765)."""
    raw = (text or "").strip()
    if not raw:
        return f"ws://{DEFAULT_HOST}:{DEFAULT_PORT}/"
    if "://" in raw:
        parts = urlsplit(raw)
        if parts.scheme not in ("ws", "wss"):
            raise AddressError(
                _("{address}: use ws:// or wss://, or just HOST[:PORT]", address=repr(raw))
            )
        if not parts.hostname:
            raise AddressError(_("{address}: the URL has no host", address=repr(raw)))
        try:
            parts.port  # noqa: B018 - validates the port
        except ValueError as exc:
            raise AddressError(f"{raw!r}: {exc}") from None
        return raw if parts.path else raw + "/"
    if raw.startswith("["):
        host, sep, rest = raw[1:].partition("]")
        if not sep or not host:
            raise AddressError(
                _("{address}: an IPv6 address needs a closing ']'", address=repr(raw))
            )
        if rest and not rest.startswith(":"):
            raise AddressError(_("{address}: expected ':PORT' after ']'", address=repr(raw)))
        port = _port(rest[1:], raw) if rest else DEFAULT_PORT
        return f"ws://[{host}]:{port}/"
    if raw.count(":") > 1:  # a bare IPv6 address, no port
        return f"ws://[{raw}]:{DEFAULT_PORT}/"
    host, sep, port_text = raw.partition(":")
    if not host or any(c in host for c in "/ ?#@"):
        raise AddressError(
            _(
                "{address} is not a host name; try HOST, HOST:PORT or ws://HOST:PORT/",
                address=repr(raw),
            )
        )
    port = _port(port_text, raw) if sep else DEFAULT_PORT
    return f"ws://{host}:{port}/"
