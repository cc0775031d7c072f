"""Advertise the server on the LAN with mDNS/DNS-SD, so players find it by name.

The server announces one ``_gridhall._tcp.local.`` service (python-zeroconf).
Its TXT record carries what a connect screen shows before connecting: the
server's ``name``, the protocol version (``protocol``) and the number of public
rooms (``rooms``), kept current by :meth:`Advertiser.set_rooms` (and a ``serial``
that changes with every announcement).

Advertising is a convenience: it must never stop or stall the server. Every
failure (no network, no multicast route, a firewall, a broken interface) is
logged as one warning and the server goes on without it; registration runs in
the background, so listening never waits for it.

The addresses advertised are also the interfaces announced on: by default the
machine's LAN addresses when the server listens on all of them, else the one
address it listens on. Tests pass ``127.0.0.1`` so nothing leaves the machine.

A discovery tag (``$GRIDHALL_DISCOVERY_TAG``, see ``protocol/lan.py``) puts the
server in a separate hall: its own service type and its own host name for the
address records, so neither mixes with an untagged server on the same machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
import secrets
import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gridhall.protocol import PROTOCOL_VERSION
from gridhall.protocol.lan import check_tag, interfaces_from_env, service_type, tag_from_env

from .netinfo import lan_addresses

if TYPE_CHECKING:
    from zeroconf import ServiceInfo
    from zeroconf.asyncio import AsyncZeroconf

log = logging.getLogger("gridhall.discovery")

WILDCARD_HOSTS = ("", "0.0.0.0", "::")
ROOMS_EVERY = 2.0
"""Seconds between looks at the room count (announced again only when it changed)."""
MAX_LABEL = 63
"""DNS labels (the service instance name) are at most 63 bytes."""


def default_addresses(host: str) -> list[str]:
    """Where to advertise when not told: ``$GRIDHALL_DISCOVERY_INTERFACES`` if set (the
    tests' guard: 127.0.0.1), else the LAN addresses for a server listening on every
    interface, else the one IPv4 address it listens on (none for a name or IPv6)."""
    chosen = interfaces_from_env()
    if chosen:
        return chosen
    if host in WILDCARD_HOSTS:
        return lan_addresses()
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return []
    return [str(address)] if address.version == 4 else []


def instance_name(name: str, hostname: str | None = None) -> str:
    """The service instance label: the server's name and the machine's, e.g.
    ``gridhall on kitchen-pc`` (zeroconf adds `` (2)`` if another server took it)."""
    host = (hostname or socket.gethostname()).split(".")[0] or "gridhall"
    label = f"{name} on {host}" if name.strip() else host
    label = " ".join(label.replace(".", " ").split())
    return label.encode()[:MAX_LABEL].decode(errors="ignore")


def host_label(hostname: str | None = None, tag: str = "") -> str:
    """A DNS-safe host label for the A records (never the machine's own ``.local``
    name, which the system's own responder may already announce). A tagged hall's
    differs: address records of one name merge in a listener's cache, so a server
    of another hall on this machine would otherwise lend ours its addresses."""
    host = (hostname or socket.gethostname()).split(".")[0].lower()
    host = re.sub(r"[^a-z0-9-]+", "-", host).strip("-") or "host"
    return f"{host[:40]}-gridhall" + (f"-{tag}" if tag else "")


def txt_record(name: str, rooms: int, serial: int) -> dict[str, str]:
    """The TXT properties: what a client lists before it connects. ``serial`` differs in
    every announcement: browsers report a TXT record as changed only when its bytes
    differ from every copy they still hold, and a count may go back to an old value."""
    return {
        "name": name[:100],
        "protocol": str(PROTOCOL_VERSION),
        "rooms": str(rooms),
        "serial": str(serial),
    }


class Advertiser:
    """One advertised server. :meth:`start` never raises and never waits on the
    network; :meth:`close` withdraws the service (goodbye packets) when it ran."""

    def __init__(
        self, name: str, port: int, addresses: Sequence[str], tag: str | None = None
    ) -> None:
        self.name = name
        self.tag = tag
        """The hall announced in (None: ``$GRIDHALL_DISCOVERY_TAG``'s, "" the default)."""
        self.port = port
        self.addresses = list(dict.fromkeys(addresses))
        self.rooms = 0
        self.running = False
        """True once the service is registered (announced) on the network."""
        self._zc: AsyncZeroconf | None = None
        self._info: ServiceInfo | None = None
        self._task: asyncio.Task[None] | None = None
        self._updating: asyncio.Task[None] | None = None
        self._published: int | None = None
        """The room count the network has now."""
        self._watching: asyncio.Task[None] | None = None
        self._serial = secrets.randbelow(10**9)
        self._tag = ""

    def start(self) -> None:
        """Begin advertising in the background (a warning, never an error, if it cannot)."""
        if not self.addresses:
            log.warning(
                "LAN discovery is off: no network address to advertise on "
                "(players type this machine's address instead)"
            )
            return
        self._task = asyncio.get_running_loop().create_task(self._register())

    def watch(self, count: Callable[[], int], every: float = ROOMS_EVERY) -> None:
        """Keep the TXT record's room count current by asking ``count()`` now and then."""

        async def loop() -> None:
            while True:
                try:
                    self.set_rooms(count())
                except Exception:  # noqa: BLE001 - a count is only a hint
                    log.exception("could not count the rooms for the LAN announcement")
                await asyncio.sleep(every)

        self._watching = asyncio.get_running_loop().create_task(loop())

    async def _register(self) -> None:
        try:
            from zeroconf import IPVersion
            from zeroconf.asyncio import AsyncZeroconf

            self._tag = tag_from_env() if self.tag is None else check_tag(self.tag)
            self._zc = AsyncZeroconf(interfaces=list(self.addresses), ip_version=IPVersion.V4Only)
            self._info = self._service_info(f"{instance_name(self.name)}.{service_type(self._tag)}")
            self._published = self.rooms
            announced = await self._zc.async_register_service(self._info, allow_name_change=True)
            await announced
            self.running = True
            log.info(
                "advertising %r on the LAN (%s) as %s",
                self.name,
                ", ".join(self.addresses),
                self._info.name,
            )
            self.set_rooms(self.rooms)  # rooms made while it was being announced
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - advertising must never stop the server
            log.warning(
                "LAN discovery is off: could not advertise on %s (%s); players "
                "type this machine's address instead",
                ", ".join(self.addresses),
                exc or type(exc).__name__,
            )
            await self._close_zeroconf()

    def _service_info(self, full_name: str) -> ServiceInfo:
        from zeroconf import ServiceInfo

        self._serial += 1
        return ServiceInfo(
            service_type(self._tag),
            full_name,
            port=self.port,
            properties=txt_record(self.name, self.rooms, self._serial),
            server=f"{host_label(tag=self._tag)}.local.",
            parsed_addresses=list(self.addresses),
        )

    def set_rooms(self, rooms: int) -> None:
        """Publish a new room count, in the background, when it changed."""
        self.rooms = rooms
        if not self.running or rooms == self._published:
            return  # a registration still under way publishes the latest count itself
        if self._updating is None or self._updating.done():
            self._updating = asyncio.get_running_loop().create_task(self._update())

    async def _update(self) -> None:
        """Re-announce until the published count is the latest one."""
        try:
            while self._zc is not None and self._info is not None and self._published != self.rooms:
                count = self.rooms
                self._info = self._service_info(self._info.name)
                await (await self._zc.async_update_service(self._info))
                self._published = count
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001
            log.warning("could not update the LAN announcement: %s", exc)

    async def close(self) -> None:
        """Withdraw the service and release the sockets; safe to call at any time."""
        for task in (self._watching, self._task, self._updating):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await self._close_zeroconf()

    async def _close_zeroconf(self) -> None:
        zc, self._zc = self._zc, None
        self.running = False
        if zc is None:
            return
        try:
            await zc.async_close()  # sends the goodbyes of a registered service
        except Exception as exc:  # noqa: BLE001
            log.warning("could not withdraw the LAN announcement: %s", exc)
