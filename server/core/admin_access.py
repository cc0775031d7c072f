"""Who may reach the server's admin page and channel: a peer from an allowed network
that knows the admin token.

The token is made at start (192 bits from the entropy the I/O layer passes in, the
``secrets`` module; or fixed with ``--admin-token``) and printed once as the fragment of the admin link, so it never
travels in a request line, a log or a Referer. Only loopback peers are allowed
unless ``--admin-from CIDR`` names more networks.

A token is compared first, in constant time, and the right one is taken at once
whatever came before it: wrong ones must never lock the operator out, and any
process on this machine shares the operator's address. Wrong ones are slowed down
instead: after a few in a row from an address (an IPv6 /64) the answer to each
further one waits longer (exponential backoff, see
:class:`~gridhall.server.core.fairness.Backoff`), and so it does after many from
anywhere, so guessing 192 random bits stays hopeless. All pure: the time comes in
as ``now``.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable

from .entropy import Entropy
from .fairness import Backoff, address_key

FREE_FAILURES = 5
"""Wrong tokens in a row an address may send before their answers are held back."""
FAILURE_WAIT = 1.0
FAILURE_WAIT_CAP = 60.0
FAILURES_FORGOTTEN = 3600.0
"""Seconds without a wrong token after which an address starts afresh."""
FREE_FAILURES_IN_ALL = 20
"""Wrong tokens in a row from all addresses together before every answer to one is
held back (an attacker with many addresses)."""
FAILURE_WAIT_IN_ALL = 0.25
FAILURE_WAIT_IN_ALL_CAP = 30.0
FAILURES_IN_ALL_FORGOTTEN = 600.0
ALL = "*"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def new_token(entropy: Entropy) -> str:
    """A fresh admin token (192 random bits, URL-safe)."""
    return entropy.token_urlsafe(24)


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

    def __init__(
        self, token: str | None, networks: Iterable[str] = (), entropy: Entropy | None = None
    ) -> None:
        """``token``: the operator's own, else (None) a new one from ``entropy``."""
        if not token:
            if entropy is None:
                raise ValueError("no admin token, and no entropy to make one")
            token = new_token(entropy)
        self.token = token
        self.networks: tuple[Network, ...] = tuple(network(n) for n in networks)
        self.failures = Backoff(FREE_FAILURES, FAILURE_WAIT, FAILURE_WAIT_CAP, FAILURES_FORGOTTEN)
        self.all_failures = Backoff(
            FREE_FAILURES_IN_ALL,
            FAILURE_WAIT_IN_ALL,
            FAILURE_WAIT_IN_ALL_CAP,
            FAILURES_IN_ALL_FORGOTTEN,
        )

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

    def check(self, address: str, token: str, now: float) -> float | None:
        """None if ``token`` is the admin token (the address's wrong ones are forgiven);
        else the wrong one is counted, and the result is how many seconds its answer
        is held back (0.0: none): what the wrong ones before it still cost, per address
        and over all addresses (so the first few in a row are answered at once)."""
        key = address_key(address)
        if self.token_ok(token):
            self.failures.succeeded(key)
            return None
        held = max(self.failures.wait(key, now), self.all_failures.wait(ALL, now))
        self.failures.failed(key, now)
        self.all_failures.failed(ALL, now)
        return held
