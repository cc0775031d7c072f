"""Find gridhall servers on the LAN (mDNS/DNS-SD), so nobody types an address.

Servers announce ``_gridhall._tcp.local.`` with their name, protocol version and
room count in the TXT record (see ``server/io/lan/discovery.py``). A :class:`Browser`
watches for them on its own thread and event loop, so the terminal client
(asyncio), the Tk client (Tk's main loop) and ``gridhall --find`` (plain code)
use it alike: it calls ``on_change`` from its thread with the full list each time
the list changes, and :meth:`Browser.servers` reads the list from any thread.

``$GRIDHALL_DISCOVERY_INTERFACES`` (comma-separated IPv4 addresses) limits the
interfaces it browses on; tests set it to ``127.0.0.1`` so no query leaves the
machine. ``$GRIDHALL_DISCOVERY_TAG`` (or ``tag=``) browses a separate hall's type
only (``protocol/lan.py``); tests take a new tag each run, so they hear their own
servers and never one a player runs on the same machine. Browsing failures (no network, no multicast) leave an empty list and a
sentence in :attr:`Browser.error`; they never stop the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gridhall.client.plain import plain
from gridhall.protocol import PROTOCOL_VERSION
from gridhall.protocol.i18n import _, ngettext
from gridhall.protocol.lan import SERVICE_TYPE, check_tag, service_type, tag_from_env
from gridhall.protocol.lan import interfaces_from_env as _interfaces

if TYPE_CHECKING:
    from zeroconf import ServiceStateChange, Zeroconf
    from zeroconf.asyncio import AsyncZeroconf

log = logging.getLogger("gridhall.discovery")

RESOLVE_MS = 3000
FIND_SECONDS = 3.0
"""How long ``gridhall --find`` listens: servers answer a query within about a second."""


@dataclass(frozen=True)
class FoundServer:
    """A server seen on the LAN, as its announcement describes it."""

    key: str
    """The service instance name (stable while the server runs)."""
    name: str
    host: str
    port: int
    protocol: int | None
    rooms: int | None
    addresses: tuple[str, ...] = ()

    @property
    def address(self) -> str:
        """What ``--server`` takes: ``HOST:PORT``."""
        return f"{self.host}:{self.port}"

    @property
    def compatible(self) -> bool:
        """Whether this client speaks the server's protocol version."""
        return self.protocol in (None, PROTOCOL_VERSION)

    def describe(self) -> str:
        """One line for a list: name, address, rooms, and a warning if incompatible
        (made :func:`plain`: it comes from whoever answers on the LAN)."""
        parts = [f"{plain(self.name)}  {plain(self.address)}"]
        if self.rooms is not None:
            parts.append(ngettext("{n} room open", "{n} rooms open", self.rooms))
        if not self.compatible:
            parts.append(
                _("protocol {protocol}: needs another gridhall version", protocol=self.protocol)
            )
        return plain(" · ".join(parts))


def _text(value: bytes | str | None) -> str:
    if value is None:
        return ""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _number(value: bytes | str | None) -> int | None:
    text = _text(value).strip()
    return int(text) if text.isdigit() else None


def instance_label(key: str, kind: str = SERVICE_TYPE) -> str:
    """``gridhall on pc._gridhall._tcp.local.`` -> ``gridhall on pc``."""
    return key[: -len(kind) - 1] if key.endswith("." + kind) else key


def best_address(addresses: list[str]) -> str | None:
    """Of a server's addresses, the one on a network this machine is on: the one
    sharing the most leading bits with the source address the kernel would use to
    reach it (a UDP ``connect`` only picks a route; nothing is sent)."""
    best: tuple[int, int, str] | None = None
    for order, address in enumerate(addresses):
        try:
            target = ipaddress.IPv4Address(address)
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((address, 9))
                source = ipaddress.IPv4Address(sock.getsockname()[0])
            shared = 32 - (int(target) ^ int(source)).bit_length()
        except (OSError, ValueError):
            shared = -1  # no route from here
        if best is None or (shared, -order) > (best[0], best[1]):
            best = (shared, -order, address)
    return best[2] if best is not None else None


def parse_service(
    key: str,
    addresses: list[str],
    port: int | None,
    properties: Mapping[bytes, bytes | None],
    kind: str = SERVICE_TYPE,
) -> FoundServer | None:
    """A :class:`FoundServer` from a resolved announcement (None if it has no IPv4
    address or port, so a client could not connect to it)."""
    host = best_address(addresses)
    if host is None or not port:
        return None
    name = plain(_text(properties.get(b"name")).strip() or instance_label(key, kind))
    return FoundServer(
        key=key,
        name=name[:100],
        host=host,
        port=int(port),
        protocol=_number(properties.get(b"protocol")),
        rooms=_number(properties.get(b"rooms")),
        addresses=tuple(addresses),
    )


def interfaces_from_env() -> list[str] | None:
    """The interfaces ``$GRIDHALL_DISCOVERY_INTERFACES`` names, or None for all."""
    return _interfaces() or None


class Browser:
    """Watches the LAN for gridhall servers on a background thread."""

    def __init__(
        self,
        on_change: Callable[[list[FoundServer]], None] | None = None,
        interfaces: list[str] | None = None,
        tag: str | None = None,
    ) -> None:
        self.on_change = on_change
        self.interfaces = interfaces if interfaces is not None else interfaces_from_env()
        self.tag = tag
        """The hall browsed (None: ``$GRIDHALL_DISCOVERY_TAG``'s, "" the default)."""
        self._kind = SERVICE_TYPE
        self.error: str | None = None
        """Why browsing is not possible here, if it is not."""
        self._found: dict[str, FoundServer] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._zc: AsyncZeroconf | None = None
        self._resolving: set[asyncio.Task[None]] = set()

    # ---- from any thread ------------------------------------------------------------------
    def start(self) -> Browser:
        """Begin browsing (returns at once)."""
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name="gridhall-discovery", daemon=True
            )
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Stop browsing and wait (up to ``timeout`` s) for the thread to end."""
        thread = self._thread
        if thread is None:
            return
        self._ready.wait(timeout)
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop already ended
                loop.call_soon_threadsafe(stop.set)
        thread.join(timeout)

    def wait_ready(self, timeout: float) -> bool:
        """Wait until browsing runs (or failed: see :attr:`error`)."""
        return self._ready.wait(timeout)

    def servers(self) -> list[FoundServer]:
        """The servers seen so far and still there, by name."""
        with self._lock:
            return sorted(self._found.values(), key=lambda s: (s.name.lower(), s.address))

    # ---- the browsing thread --------------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        finally:
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            from zeroconf import InterfaceChoice, IPVersion
            from zeroconf.asyncio import AsyncServiceBrowser, AsyncZeroconf

            self._kind = service_type(tag_from_env() if self.tag is None else check_tag(self.tag))
            interfaces: Any = self.interfaces or InterfaceChoice.All
            self._zc = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
            browser = AsyncServiceBrowser(self._zc.zeroconf, self._kind, handlers=[self._changed])
        except Exception as exc:  # noqa: BLE001 - no network must not stop the client
            self.error = _(
                "cannot look for servers on this network ({problem})",
                problem=exc or type(exc).__name__,
            )
            log.warning("%s", self.error)
            self._ready.set()
            self._notify()
            return
        self._ready.set()
        try:
            await self._stop.wait()
        finally:
            for task in list(self._resolving):
                task.cancel()
            with contextlib.suppress(Exception):
                await browser.async_cancel()
            with contextlib.suppress(Exception):
                await self._zc.async_close()

    def _changed(
        self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange
    ) -> None:
        """zeroconf's handler (on our loop): resolve new and changed servers."""
        from zeroconf import ServiceStateChange

        if state_change is ServiceStateChange.Removed:
            with self._lock:
                gone = self._found.pop(name.lower(), None)
            if gone is not None:
                self._notify()
            return
        task = asyncio.get_running_loop().create_task(self._resolve(zeroconf, name))
        self._resolving.add(task)
        task.add_done_callback(self._resolving.discard)

    async def _resolve(self, zeroconf: Zeroconf, name: str) -> None:
        from zeroconf import IPVersion
        from zeroconf.asyncio import AsyncServiceInfo

        info = AsyncServiceInfo(self._kind, name)
        try:
            if not await info.async_request(zeroconf, RESOLVE_MS):
                return
        except Exception as exc:  # noqa: BLE001
            log.debug("could not resolve %s: %s", name, exc)
            return
        found = parse_service(
            name, info.parsed_addresses(IPVersion.V4Only), info.port, info.properties, self._kind
        )
        if found is None:
            return
        with self._lock:
            changed = self._found.get(name.lower()) != found
            self._found[name.lower()] = found
        if changed:
            self._notify()

    def _notify(self) -> None:
        if self.on_change is not None:
            try:
                self.on_change(self.servers())
            except Exception:  # a UI that went away must not kill the browser
                log.exception("discovery listener failed")


def search_text(servers: list[FoundServer], error: str | None) -> str:
    """The note under a connect screen's list: what to do, or why it is empty."""
    if error:
        return _(
            "Cannot look for servers: {error}. Type the address the server printed.", error=error
        )
    if not servers:
        return _(
            "Looking for servers… None yet: is one running on this network? (A firewall "
            "must let mDNS, UDP port 5353, through.) Or type the address the server "
            "printed."
        )
    return _("Pick a server and press enter; servers appear here as they start.")


def find(
    wait: float = FIND_SECONDS,
    interfaces: list[str] | None = None,
    tag: str | None = None,
    until: Callable[[list[FoundServer]], bool] | None = None,
) -> tuple[list[FoundServer], str | None]:
    """Listen for ``wait`` seconds; the servers seen, and why none could be, if so.
    ``until`` ends the listening early once the servers seen satisfy it (a caller that
    knows what it waits for: then ``wait`` is only a bound)."""
    heard = threading.Event()

    def changed(servers: list[FoundServer]) -> None:
        if until is not None and until(servers):
            heard.set()

    browser = Browser(changed, interfaces=interfaces, tag=tag).start()
    try:
        browser.wait_ready(wait)
        if browser.error is None:
            heard.wait(wait)  # how long to listen is the point here, not a race
    finally:
        browser.stop()
    return browser.servers(), browser.error
