"""Who may reach the server's admin page and channel: a peer from an allowed network
that knows the admin token.

The token is made at start (``secrets.token_urlsafe(24)``, or fixed with
``--admin-token``) and printed once as the fragment of the admin link, so it never
travels in a request line, a log or a Referer. Only loopback peers are allowed
unless ``--admin-from CIDR`` names more networks. A wrong token costs the address:
after a few in a row each further attempt waits longer (exponential backoff, see
:class:`~gridhall.server.core.fairness.Backoff`), so guessing 32 random bytes stays
hopeless. All pure: the time comes in as ``now``.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
from collections.abc import Iterable

from .fairness import Backoff

FREE_FAILURES = 5
"""Wrong tokens in a row an address may send before it has to wait."""
FAILURE_WAIT = 1.0
FAILURE_WAIT_CAP = 300.0
FAILURES_FORGOTTEN = 3600.0
"""Seconds without a wrong token after which an address starts afresh."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def new_token() -> str:
    """A fresh admin token (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def network(text: str) -> Network:
    """An ``--admin-from`` value: an address or a network in CIDR form; ValueError if not."""
    return ipaddress.ip_network(text.strip(), strict=False)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        found = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        return found.ipv4_mapped
    return found


class AdminAccess:
    """The admin token, the networks allowed, and the wrong-token backoff per address."""

    def __init__(self, token: str | None = None, networks: Iterable[str] = ()) -> None:
        self.token = token or new_token()
        self.networks: tuple[Network, ...] = tuple(network(n) for n in networks)
        self.failures = Backoff(FREE_FAILURES, FAILURE_WAIT, FAILURE_WAIT_CAP, FAILURES_FORGOTTEN)

    def peer_allowed(self, address: str) -> bool:
        """A loopback peer, or one inside an ``--admin-from`` network."""
        found = _address(address)
        if found is None:
            return False
        return found.is_loopback or any(
            found in net for net in self.networks if net.version == found.version
        )

    def token_ok(self, token: str) -> bool:
        """The admin token, compared in constant time."""
        return hmac.compare_digest(token.encode(), self.token.encode())

    def wait(self, address: str, now: float) -> float:
        """Seconds ``address`` must wait before its next try (0.0: now)."""
        return self.failures.wait(address, now)

    def attempt(self, address: str, token: str, now: float) -> bool:
        """Check ``token`` from ``address`` (call only once :meth:`wait` is 0): a wrong
        one counts toward the address's backoff, a right one clears it."""
        if self.token_ok(token):
            self.failures.succeeded(address)
            return True
        self.failures.failed(address, now)
        return False
