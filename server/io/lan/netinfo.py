"""This machine's LAN addresses, to tell the operator what players should type."""

from __future__ import annotations

import socket
import struct
import sys


def _linux_interface_addresses() -> set[str]:
    """IPv4 address of every interface, read with SIOCGIFADDR (sends no packets)."""
    import fcntl

    found: set[str] = set()
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        for _index, name in socket.if_nameindex():
            try:
                packed = fcntl.ioctl(
                    sock.fileno(),
                    0x8915,  # SIOCGIFADDR
                    struct.pack("256s", name[:15].encode()),
                )
            except OSError:
                continue  # an interface without an IPv4 address
            found.add(socket.inet_ntoa(packed[20:24]))
    finally:
        sock.close()
    return found


def lan_addresses() -> list[str]:
    """Non-loopback IPv4 addresses of this machine, best effort, sorted."""
    found: set[str] = set()
    try:
        found.update(
            str(i[4][0]) for i in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        )
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        try:
            found |= _linux_interface_addresses()
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith("127."))
