"""An identity's devices: link codes to carry it to another device, the device
list, and signing a device out. A mixin of :class:`~gridhall.server.core.hub.Hub`
(``hub_core.py`` says why).
"""

from __future__ import annotations

import logging

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError

from . import devices
from .effects import DropLinkCode, Outbox, SaveLinkCode, SaveToken
from .hub_core import HubCore
from .identity import Identity, token_hash
from .linking import LinkRefused, shown

log = logging.getLogger("gridhall.hub")


class DeviceRequests(HubCore):
    """``hello`` with a link code, ``link-code``, ``list-devices``, ``sign-out-device``."""

    def _redeem(self, out: Outbox, msg: p.Hello, address: str, now: float) -> tuple[Identity, str]:
        """``hello`` with a link code: the identity that asked for it, with a new
        token of this device's own (its hash kept beside the first one's)."""
        assert msg.link is not None
        wait = self.links.wait(address, now)
        if wait > 0:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"Too many wrong link codes; wait {wait:.1f} s before trying again.",
                msg.id,
                retry_after=round(wait, 3),
            )
        try:
            player, digest = self.links.redeem(msg.link, address, now)
            ident = self.identities.by_id.get(player)
            if ident is None or ident.bot is not None:
                raise LinkRefused(player)
        except LinkRefused:
            raise ProtocolError(
                ErrorCode.BAD_LINK,
                "That link code is wrong, used or expired; ask the other device for a new one.",
                msg.id,
            ) from None
        out.add(DropLinkCode(digest))
        self._refuse_banned(ident.ban_key(), now, msg.id)
        token = self.entropy.token_urlsafe(24)
        self.identities.add_token(ident, token_hash(token))
        out.add(SaveToken(ident.id, token_hash(token)))
        self._refresh_devices(ident)
        devices.cap(out, self.identities, ident, keep={token_hash(token)})
        log.info("%s linked a new device from %s", ident.id, address, extra={"player": ident.id})
        return ident, token

    def _link_code(self, out: Outbox, ident: Identity, msg: p.LinkCode, now: float) -> None:
        """A one-time code for another device to become this identity (the asking
        address's oldest code goes past its share: ``LinkCodes.make_room``)."""
        for dropped, pid in self.links.make_room(ident.address, ident.id, now):
            out.add(DropLinkCode(dropped))
            kept = self.identities.by_id.get(pid)
            if kept is not None and pid in self._expiry:  # offline: kept for it no more
                self._expire_later(out, kept, now)
        code, digest, _old = self.links.issue(ident.id, now, ident.address)
        expires = self.links.expires(ident.id) or now
        out.add(SaveLinkCode(digest, ident.id, expires))
        out.send([ident.id], p.LinkCodeIssued(code=shown(code), expires_at=expires, re=msg.id))

    def _list_devices(self, out: Outbox, ident: Identity, msg: p.ListDevices, now: float) -> None:
        self._refresh_devices(ident)
        out.send([ident.id], devices.listing(msg.id, ident))

    def _sign_out_device(
        self, out: Outbox, ident: Identity, msg: p.SignOutDevice, now: float
    ) -> None:
        """Sign out one of the sender's devices (their own too: the session then closes
        this connection, ``server/core/session.py``)."""
        self._refresh_devices(ident)
        devices.sign_out(out, self.identities, ident, msg.device, msg.id)
        log.info("%s signed out a device", ident.id, extra={"player": ident.id})
        out.send([ident.id], devices.listing(msg.id, ident))

    def _refresh_devices(self, ident: Identity) -> None:
        """Before the device list is read or changed: one process knows every token
        already (a cluster node fetches the others' from the shared store)."""
