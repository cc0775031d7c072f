"""A player's devices: every token that resumes their identity, as they see and manage it.

An identity has one token per device: the first device's, and one more for each device
a link code carried it to (``server/core/linking.py``). Each token is shown as a device:
what its client said it is in ``hello.device`` (its kind and platform), when it was added
and when it was last seen (a ``hello`` with it, or that connection's end). A player
lists them (``list-devices``) and signs one out (``sign-out-device``): its token stops
resuming the identity at once, and a connection of that device is closed (4001).

An identity holds at most :data:`MAX_DEVICES` tokens: linking one more drops the one
seen longest ago (never the device linking, nor the one connected), so a photographed
code or 300 codes redeemed in a row leave 10 working tokens, not 300 (issue 41).

Pure: the hub calls these with the time and adds the store's effects they return.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.devices import Description
from gridhall.protocol.i18n import gettext as _

from .effects import DropToken, Outbox, SaveDevice, SaveIdentity
from .identity import Device, Identities, Identity

MAX_DEVICES = 10
"""Tokens an identity holds at most (phone, tablet, laptops, a browser or two, the
terminal and Tk clients...); past it the device seen longest ago is signed out."""
SIGNED_OUT = 4001
"""The close code of a connection whose device was signed out."""
SIGNED_OUT_REASON = "this device was signed out"


def device_id(digest: str) -> str:
    """The id a client names a device by: derived from the token's hash, never the hash
    itself (which bans and the store use)."""
    return hashlib.sha256(("device:" + digest).encode()).hexdigest()[:16]


def seen(ident: Identity, digest: str, about: Description | None, now: float) -> SaveDevice:
    """A connection said hello with ``digest``: the device is seen now (described by
    ``about`` when the client said what it is); the identity's connected device is
    this one."""
    known = ident.devices.get(digest) or Device(created_at=now)
    known.about = about or known.about
    known.last_seen = now
    ident.devices[digest] = known
    ident.device = digest
    return _saved(ident, digest)


def left(ident: Identity, now: float) -> SaveDevice | None:
    """The connected device's connection ended: last seen now (unless signed out)."""
    known = ident.devices.get(ident.device)
    if known is None:
        return None
    known.last_seen = now
    return _saved(ident, ident.device)


def listing(msg_id: int | None, ident: Identity) -> p.Devices:
    """``devices``: every token of ``ident`` as a device, the one asking marked."""
    rows: list[dict[str, Any]] = []
    for digest in ident.tokens():
        known = ident.devices.get(digest) or Device()
        rows.append(
            {
                "device": device_id(digest),
                **known.about.fields(),
                "created_at": known.created_at or None,
                "last_seen": known.last_seen or None,
                "current": digest == ident.device,
            }
        )
    rows.sort(key=lambda r: (not r["current"], -(r["last_seen"] or 0.0)))
    return p.Devices(devices=rows, re=msg_id)


def sign_out(
    out: Outbox, identities: Identities, ident: Identity, device: str, rid: int | None
) -> str:
    """Sign out ``ident``'s device ``device`` (an id from :func:`listing`): its token
    stops working now. Returns its token's hash; ``bad-message`` if there is none."""
    digest = next((d for d in ident.tokens() if device_id(d) == device), None)
    if digest is None:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            _("You have no device {device}; it may have been signed out already.", device=device),
            rid,
        )
    ident.signed_out = digest == ident.device
    drop(out, identities, ident, digest)
    return digest


def cap(out: Outbox, identities: Identities, ident: Identity, keep: set[str]) -> None:
    """Past :data:`MAX_DEVICES` tokens, sign out those seen longest ago (never ``keep``)."""
    tokens = ident.tokens()
    spare = len(tokens) - MAX_DEVICES
    if spare <= 0:
        return
    oldest = sorted(
        (d for d in tokens if d not in keep and d != ident.device),
        key=lambda d: (ident.devices.get(d) or Device()).last_seen,
    )
    for digest in oldest[:spare]:
        drop(out, identities, ident, digest)


def drop(out: Outbox, identities: Identities, ident: Identity, digest: str) -> None:
    """``digest`` stops resuming ``ident`` here and in the store (the first device's:
    the identity's row keeps a hash no token has)."""
    first = digest == ident.token_hash
    identities.revoke(ident, digest)
    out.add(DropToken(ident.id, digest))
    if first:
        out.add(SaveIdentity(ident.id, ident.token_hash, ident.name, ident.color, ident.bot, None))


def _saved(ident: Identity, digest: str) -> SaveDevice:
    known = ident.devices[digest]
    return SaveDevice(ident.id, digest, known.about, known.created_at, known.last_seen)
