"""The hub of one cluster node: the single-process hub, plus rooms arriving and leaving.

A node adopts a room another node owned (after a takeover) through the SAME replay
code a restart uses (``server/core/restoring.py``: the room replayed on a cast of its
own, then the ``restored`` input that moves the clocks past the downtime), and lets a room go at once when the store says another
node owns it now. Identities made on other nodes are fetched from the shared store when
their token says hello here. Still no I/O of its own: the lookups are callables the
cluster service passes in.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Collection
from typing import Any

from gridhall import protocol as p
from gridhall.protocol import ErrorCode, ProtocolError
from gridhall.protocol.i18n import gettext as _

from ..core.config import ServerConfig
from ..core.effects import Effect, Outbox, Wake
from ..core.entropy import Entropy
from ..core.hub import Hub, SavedRoom
from ..core.identity import Device, Identity, token_hash
from ..core.journal import Back
from ..core.linking import code_hash, normal
from ..core.restoring import Quarantined
from ..io.link_store import DeviceRow

log = logging.getLogger("gridhall.cluster")

IdentityRow = dict[str, Any]
NODE_KEYS = ("node", "address", "until")
"""What the cluster's lobby adds to a room's listing (not sent to clients)."""
UNAVAILABLE = (
    "{what}, and this server node cannot reach the rest of the cluster right "
    "now; nothing changed. Try again in a moment."
)


class ClusterHub(Hub):
    """See the module docstring."""

    def __init__(
        self,
        config: ServerConfig,
        entropy: Entropy,
        fetch_identity: Callable[[str], IdentityRow | None] = lambda digest: None,
        elsewhere: Callable[[], list[Any]] = list,
    ) -> None:
        super().__init__(config, entropy)
        self.fetch_identity = fetch_identity
        """Token hash -> the identity row the shared store has (made on any node)."""
        self.elsewhere = elsewhere
        """The public listings of rooms other nodes own (the lobby shows them too)."""
        self.fetch_by_id: Callable[[str], IdentityRow | None] = lambda pid: None
        """Player id -> the identity row the shared store has."""
        self.available: Callable[[], bool] = lambda: True
        """Redis answers (else what needs another node, or a lease, is refused)."""
        self.take_link: Callable[[str], tuple[str, float] | None] = lambda digest: None
        self.held_elsewhere: Callable[[str], int] = lambda address: 0
        self.fetch_lost: Callable[[str], Quarantined | None] = lambda pid: None
        """Player id -> the room set aside it was in (by any node), if any."""
        self.shared_creations: Callable[[str, float], float] = lambda address, now: 0.0
        """The cluster's bucket of room creations for an address: the wait, or 0.0."""
        """Open rooms other live nodes hold that were created from an address."""
        """A link code's hash -> its player and end, used up in the shared store."""
        self.token_revoked: Callable[[str], bool] = lambda digest: False
        """Was this token signed out on some node (the shared store's ``revoked_tokens``)?"""
        self.devices_of: Callable[[str], tuple[list[str], list[DeviceRow]]] = lambda pid: (
            [],
            [],
        )
        """Player id -> its linked tokens' hashes and its device rows in the shared store."""

    def hello(self, msg: p.Hello, now: float, address: str = "") -> tuple[Identity, list[Effect]]:
        known = self.identities.resume(msg.token) if msg.token and msg.link is None else None
        if known is not None and msg.token and self.token_revoked(token_hash(msg.token)):
            self.identities.revoke(known, token_hash(msg.token))  # signed out on another node
            known = None
        if msg.token and msg.link is None and known is None:
            digest = token_hash(msg.token)
            row = self.fetch_identity(digest)
            if row is not None:
                ident = self._known(row)
                if digest != ident.token_hash:  # a device linked on another node
                    self.identities.add_token(ident, digest)
                lost = self.fetch_lost(ident.id)
                if lost is not None:  # set aside by another node: told here
                    self.set_aside(lost)
        if msg.link is not None and self.links.wait(address, now) <= 0:
            self._fetch_link(msg.link)
        return super().hello(msg, now, address)

    def _fetch_link(self, text: str) -> None:
        """A link code is used up in the shared store first (a code made on any node
        works once, on any node): known here if it was live there, dropped here if
        another node used it."""
        code = normal(text)
        if code is None:
            return
        digest = code_hash(code)
        taken = self.take_link(digest)
        if taken is None:
            self.links.drop(digest)
            return
        player, expires = taken
        if player not in self.identities.by_id:
            row = self.fetch_by_id(player)
            if row is None:
                return
            self._known(row)
        self.links.add(digest, player, expires)

    def _refresh_devices(self, ident: Identity) -> None:
        """Tokens linked, and devices seen, on other nodes are in the shared store: the
        device list and its cap take them in (and drop those signed out there)."""
        try:
            linked, rows = self.devices_of(ident.id)
        except Exception:  # noqa: BLE001 - PostgreSQL unreachable: what this node knows
            log.warning("the device list of %s is this node's only", ident.id)
            return
        for digest in set(ident.linked) - set(linked):
            self.identities.revoke(ident, digest)
        for digest in linked:
            if digest not in ident.linked:
                self.identities.add_token(ident, digest)
        for pid, digest, about, created_at, last_seen in rows:
            if pid == ident.id and digest in ident.tokens():
                ident.devices[digest] = Device(about, created_at, last_seen)

    def _list_rooms(self, out: Outbox, ident: Identity, msg: p.ListRooms, now: float) -> None:
        here = self.lobby.listing()
        codes = {r["room"] for r in here}
        others = [
            {k: v for k, v in r.items() if k not in NODE_KEYS}
            for r in self.elsewhere()
            if r.get("room") not in codes
        ]
        out.send([ident.id], p.Rooms(rooms=here + others, re=msg.id))

    def _create_room(self, out: Outbox, ident: Identity, msg: p.CreateRoom, now: float) -> None:
        if not self.available():
            raise ProtocolError(
                ErrorCode.CLUSTER_UNAVAILABLE,
                UNAVAILABLE.format(what="A new room needs a lease"),
                msg.id,
                retry_after=1.0,
            )
        self._not_in_room(ident)
        cap = self.lobby.max_rooms_per_address
        if cap is not None and self.lobby.held_by(ident.address) < cap <= self.lobby.held_by(
            ident.address
        ) + self.held_elsewhere(ident.address):
            raise ProtocolError(
                ErrorCode.SERVER_BUSY,
                _(
                    "Your address already holds {cap} rooms on this server's nodes, as many "
                    "as one address may; leave one first.",
                    cap=cap,
                ),
                msg.id,
            )
        wait = self.shared_creations(ident.address, now) if ident.address else 0.0
        if wait > 0:  # (after the refusals that spend nothing)
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                _(
                    "Your address is creating rooms too fast; wait {seconds} s.",
                    seconds=f"{wait:.1f}",
                ),
                msg.id,
                retry_after=round(wait, 3),
            )
        super()._create_room(out, ident, msg, now)

    def _join_room(self, out: Outbox, ident: Identity, msg: p.JoinRoom, now: float) -> None:
        code = msg.room.strip().upper()
        if not self._replaying and code not in self.lobby.rooms:
            listing = next((r for r in self.elsewhere() if r.get("room") == code), None)
            if not self.available():
                raise ProtocolError(
                    ErrorCode.CLUSTER_UNAVAILABLE,
                    UNAVAILABLE.format(what=f"Room {code} may be on another node"),
                    msg.id,
                    retry_after=1.0,
                )
            if listing is not None and listing.get("address"):
                raise ProtocolError(
                    ErrorCode.NO_SUCH_ROOM,
                    f"Room {code} is served by "
                    f"another node: connect to {listing['address']} "
                    "to join it.",
                    msg.id,
                )
        super()._join_room(out, ident, msg, now)

    def attach(
        self, pid: str, address: str, since: int | None, deltas: bool, now: float
    ) -> tuple[Identity, list[Effect]]:
        """A player connected to another node, whose session runs here (the relay):
        that node checked the token; here it is back in its room, if it has one, with
        what it missed after ``since``."""
        ident = self.identities.by_id.get(pid)
        if ident is None:
            row = self.fetch_by_id(pid)
            if row is None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    "Your identity is not known to "
                    "the node that serves this room; say hello again.",
                )
            ident = self._known(row)
        ident.connected = True
        ident.address = address
        ident.deltas = deltas
        ident.device = ""  # its token said hello on the other node, which knows the device
        out = Outbox()
        if self._expiry.pop(ident.id, None) is not None:
            out.add(Wake("@" + ident.id, None))
        room = ident.room
        if room is not None:
            self._input(
                out,
                room,
                Back(ident.id, since),
                now,
                functools.partial(room.resumed, out, ident, now, None, since),
            )
        return ident, out.effects

    def _known(self, row: IdentityRow) -> Identity:
        ident = self.identities.by_id.get(row["id"])
        if ident is None:
            ident = Identity(
                id=row["id"],
                token_hash=row["token_hash"],
                name=row["name"],
                color=row["color"],
                bot=row["bot"],
            )
            self.identities.add(ident)
        return ident

    def adopt(
        self,
        saved: SavedRoom,
        identities: list[IdentityRow],
        now: float,
        down_since: float,
        online: Collection[str] = (),
    ) -> list[Effect]:
        """Take over a room another node owned: replay it as a restart does (on a cast
        of its own, so no other room or identity here is touched), move its clocks
        past the time since its owner was last known alive (``down_since``), and give
        its people the grace period; those already connected here (``online``) are
        back in their seats at once. One that cannot be replayed is set aside."""
        code = saved.row["code"]
        if code in self.lobby.rooms:
            return []
        for row in identities:
            self._known(row)
        out = Outbox()
        room = self.restorer.bring_back(out, saved, now, down_since)
        if room is None:
            return out.effects
        for m in list(room.members):
            if m.id in online and not m.bot:
                m.connected = True
                self._input(
                    out,
                    room,
                    Back(m.id, None),
                    now,
                    functools.partial(room.resumed, out, m, now, None, None),
                )
        log.info("room %s taken over", code, extra={"room": code})
        return out.effects

    def let_go(self, code: str) -> list[str]:
        """Another node owns room ``code`` now: forget it here without a word to the
        store. Returns who was in it (their connections are to be closed)."""
        room = self.lobby.rooms.pop(code, None)
        if room is None:
            return []
        members = [m for m in room.members if not m.bot]
        for m in room.members:
            m.room = m.role = None
            if m.bot:
                self.identities.forget(m)
        self._journal_n.pop(code, None)
        self._snapshot_n.pop(code, None)
        self._budgets.pop(code, None)
        self._armed.pop(code, None)
        log.warning("room %s: another node owns it now; let go", code, extra={"room": code})
        return [m.id for m in members]
