"""Test "hosts" in Linux network namespaces (``ip netns``) joined by veth cables to a
bridge, itself inside a namespace of its own ("the switch"): nothing is added to the
machine's own network namespace, so no packet between these hosts can leave the
machine, and their private addresses exist only inside this run's namespaces.

Needs root (``CAP_SYS_ADMIN``, ``CAP_NET_ADMIN``) and iproute2's ``ip``."""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

CLONE_NEWNET = 0x40000000
SUBNET = "10.26.0"
"""Private /24 of this run's hosts; it exists only inside its namespaces."""


def ip(*args: str) -> None:
    """Run ``ip ARGS``; its error text in the exception when it fails."""
    result = subprocess.run(["ip", *args], capture_output=True, text=True)
    if result.returncode:
        raise OSError(f"ip {' '.join(args)}: {result.stderr.strip()}")


def unavailable() -> str | None:
    """Why namespaces cannot be made here (None: they can); tries one for real."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    if shutil.which("ip") is None:
        return "iproute2's ip is not installed (apt-get install iproute2)"
    probe = f"gh{os.getpid()}probe"
    try:
        ip("netns", "add", probe)
    except OSError as exc:
        return f"ip netns add is not permitted here: {exc}"
    with contextlib.suppress(OSError):
        ip("netns", "del", probe)
    return None


class Host:
    """One namespace with one cable (``eth0``) to the switch, at ``address``."""

    def __init__(self, lan: Lan, name: str, index: int) -> None:
        self.ns = f"{lan.prefix}-{name}"
        self.address = f"{SUBNET}.{index}"
        self.port = f"port{index}"
        """Its cable's end on the switch."""
        ip("netns", "add", self.ns)
        lan.namespaces.append(self.ns)
        ip("-n", self.ns, "link", "set", "lo", "up")
        ip(
            "-n",
            lan.ns,
            "link",
            "add",
            self.port,
            "type",
            "veth",
            "peer",
            "name",
            "eth0",
            "netns",
            self.ns,
        )
        ip("-n", lan.ns, "link", "set", self.port, "master", "br0", "up")
        ip("-n", self.ns, "addr", "add", f"{self.address}/24", "dev", "eth0")
        ip("-n", self.ns, "link", "set", "eth0", "up")

    def run(self) -> list[str]:
        """The prefix that runs a command on this host."""
        return ["ip", "netns", "exec", self.ns]

    def socket_to(self, address: str, port: int) -> socket.socket:
        """A TCP connection made from this host (a thread joins the namespace just to
        make it: a socket keeps the namespace it was made in)."""
        made: list[Any] = []

        def connect() -> None:
            try:
                with open(f"/run/netns/{self.ns}") as ns:
                    if ctypes.CDLL(None, use_errno=True).setns(ns.fileno(), CLONE_NEWNET):
                        raise OSError(ctypes.get_errno(), "setns")
                made.append(socket.create_connection((address, port), timeout=10))
            except OSError as exc:
                made.append(exc)

        thread = threading.Thread(target=connect, daemon=True)
        thread.start()
        thread.join()
        if isinstance(made[0], OSError):
            raise made[0]
        sock: socket.socket = made[0]
        sock.setblocking(False)
        return sock


class Lan:
    """A switch (a bridge in its own namespace) and the hosts cabled to it."""

    def __init__(self) -> None:
        self.prefix = f"gh{os.getpid()}"
        self.ns = f"{self.prefix}-switch"
        self.namespaces: list[str] = []
        self.hosts: list[Host] = []

    def setup(self) -> None:
        ip("netns", "add", self.ns)
        self.namespaces.append(self.ns)
        ip("-n", self.ns, "link", "add", "br0", "type", "bridge")
        ip("-n", self.ns, "link", "set", "br0", "up")

    def host(self, name: str) -> Host:
        host = Host(self, name, len(self.hosts) + 2)
        self.hosts.append(host)
        return host

    def unplug(self, host: Host) -> None:
        """Pull ``host``'s cable out of the switch: a lost machine, still running."""
        ip("-n", self.ns, "link", "set", host.port, "down")

    def plug(self, host: Host) -> None:
        ip("-n", self.ns, "link", "set", host.port, "up")

    def cut(self, host: Host, other: Host) -> None:
        """Partition ``host`` from ``other`` alone (each drops what goes to the other);
        both still reach everyone else."""
        ip("-n", host.ns, "route", "add", "prohibit", f"{other.address}/32")
        ip("-n", other.ns, "route", "add", "prohibit", f"{host.address}/32")

    def heal(self, host: Host, other: Host) -> None:
        ip("-n", host.ns, "route", "del", "prohibit", f"{other.address}/32")
        ip("-n", other.ns, "route", "del", "prohibit", f"{host.address}/32")

    def remove(self) -> None:
        """Kill what still runs in this run's namespaces (only processes it started),
        then delete them; their cables go with them."""
        for ns in reversed(self.namespaces):
            pids = subprocess.run(
                ["ip", "netns", "pids", ns], capture_output=True, text=True
            ).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            with contextlib.suppress(OSError):
                ip("netns", "del", ns)


@contextlib.contextmanager
def lan() -> Iterator[Lan]:
    """A switch for one test; everything on it removed at the end, even on failure."""
    made = Lan()
    try:
        made.setup()
        yield made
    finally:
        made.remove()
