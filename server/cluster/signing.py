"""The cluster secret: what makes a node one of the cluster's (docs/cluster.md,
"Securing a cluster").

Without it, anyone who can write to Redis joins the cluster: a node entry written by
hand is listed in every ``welcome.nodes`` (clients failing over would send it their
tokens) and its pages are let in as this server's own; a message written by hand on a
room's input stream speaks for any player. So what one node writes for the others to
act on carries an HMAC-SHA256 under the secret every node is started with: the node
registry's entries (with an expiry), the lobby's listings (with an expiry) and the
relay's messages (with the stream they are on). Whatever fails the check is ignored.

The secret does not stop a Redis writer from disrupting the cluster (deleting leases,
filling memory): keeping Redis private and password-protected does that.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from ..core.cluster_settings import MIN_SECRET

Part = bytes | str | int

SIGNATURE_BYTES = 16
"""HMAC-SHA256 truncated to 128 bits (as RFC 4868 does): ample against forgery, and
half the bytes on every relayed message."""


def _bytes(part: Part) -> bytes:
    """A value as redis-py writes it (so a value read back signs the same)."""
    if isinstance(part, bytes):
        return part
    if isinstance(part, bool):  # redis-py refuses bools; so does a signature
        raise TypeError("a bool has no Redis form")
    if isinstance(part, int):
        return str(part).encode()
    return part.encode()


class Signer:
    """Signs and checks with one cluster secret."""

    def __init__(self, secret: str) -> None:
        if len(secret) < MIN_SECRET:
            raise ValueError(f"a cluster secret has at least {MIN_SECRET} characters")
        self._key = hashlib.sha256(b"gridhall cluster\0" + secret.encode()).digest()

    def sign(self, *parts: Part) -> bytes:
        """The signature of ``parts`` (each length-prefixed: no two sequences of parts
        sign alike). One message, one C call: a relayed move signs and checks two."""
        message = bytearray()
        for part in parts:
            data = _bytes(part)
            message += len(data).to_bytes(4, "big")
            message += data
        return hmac.digest(self._key, message, "sha256")[:SIGNATURE_BYTES]

    def valid(self, signature: object, *parts: Part) -> bool:
        """Whether ``signature`` (bytes, or hex text) is that of ``parts``."""
        if isinstance(signature, str):
            try:
                signature = bytes.fromhex(signature)
            except ValueError:
                return False
        if not isinstance(signature, bytes):
            return False
        return hmac.compare_digest(signature, self.sign(*parts))

    def sign_fields(self, stream: str, fields: Mapping[str, Part]) -> bytes:
        """A relay message's signature: its stream's name and every field (sorted)."""
        return self.sign(*_field_parts(stream, fields))

    def valid_fields(self, stream: str, fields: Mapping[bytes, bytes], field: bytes) -> bool:
        """Whether a message read from ``stream`` carries its own signature in ``field``."""
        given = fields.get(field)
        rest = {name.decode(): value for name, value in fields.items() if name != field}
        return given is not None and self.valid(given, *_field_parts(stream, rest))


def _field_parts(stream: str, fields: Mapping[str, Part]) -> list[Part]:
    parts: list[Part] = [stream]
    for name in sorted(fields):
        parts += [name, fields[name]]
    return parts
