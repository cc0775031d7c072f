"""This player's devices on the client side, shared by every UI: each token of the
identity as a device, with its name and when it was last seen, and signing one out
(PROTOCOL.md, "Devices").

A UI asks with :meth:`Session.list_devices` (answered ``devices``), shows
:func:`device_rows`, and signs one out with :meth:`Session.sign_out_device` (answered
``devices`` again, the list after it). Signing out THIS device ends the connection
(close 4001) and the session forgets its token. Pure: no I/O, no UI.
"""

from __future__ import annotations

import platform
import time
from dataclasses import dataclass
from typing import Any

from gridhall.client.plain import plain
from gridhall.protocol.devices import BROWSER, PLATFORM_LENGTH, TERMINAL, TK
from gridhall.protocol.i18n import _, ngettext, pgettext

FEATURE = "devices"
"""The name in ``welcome.features`` of a server that lists and signs out devices."""


def this_device(kind: str) -> dict[str, str]:
    """What this device is (``hello.device``): the client's ``kind``, a code every
    viewer's client names in its own language, and the platform it runs on, data."""
    system = platform.system().strip()[:PLATFORM_LENGTH]
    return {"kind": kind, "platform": system} if system else {"kind": kind}


def kind_name(kind: str) -> str:
    """A device's kind in the player's language; a kind this client does not know (a
    client of another make) as its code, plain."""
    # TRANSLATORS: the kinds of gridhall client a device list names, each before the
    # device's platform: "Terminal · Linux", "Browser · Android".
    if kind == TERMINAL:
        return pgettext("device", "Terminal")
    if kind == TK:
        return pgettext("device", "Tk")
    if kind == BROWSER:
        return pgettext("device", "Browser")
    return plain(kind)


def device_name(entry: dict[str, Any]) -> str:
    """A device's name as a list shows it: its kind translated and its platform
    (``终端 · Linux``); from an older client, the name it gave (data)."""
    kind, system, name = entry.get("kind"), entry.get("platform"), entry.get("name")
    if isinstance(kind, str) and kind:
        shown = kind_name(kind)
        return f"{shown} · {plain(system)}" if isinstance(system, str) and system else shown
    return plain(name) if isinstance(name, str) and name else _("an unnamed device")


@dataclass(frozen=True)
class DeviceRow:
    """One device as a list shows it (texts made plain: what the server passes on is data)."""

    device: str
    name: str
    seen: str
    current: bool


def seen_text(last_seen: float | None, current: bool, now: float | None = None) -> str:
    """When a device was last seen, for people: this one is online now."""
    if current:
        return _("this device, now")
    if not last_seen:
        return _("not seen since devices were listed")
    ago = max(0.0, (time.time() if now is None else now) - last_seen)
    if ago < 60:
        return _("just now")
    if ago < 3600:
        minutes = int(ago // 60)
        return ngettext("{n} minute ago", "{n} minutes ago", minutes)
    if ago < 86400:
        hours = int(ago // 3600)
        return ngettext("{n} hour ago", "{n} hours ago", hours)
    return time.strftime("%Y-%m-%d", time.localtime(last_seen))


def device_rows(answer: Any, now: float | None = None) -> list[DeviceRow]:
    """A ``devices`` answer (its typed message, or the map) as rows, in its order;
    malformed entries are skipped."""
    entries = answer.get("devices") if isinstance(answer, dict) else answer.devices
    rows: list[DeviceRow] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("device"), str):
            continue
        seen = entry.get("last_seen")
        current = entry.get("current") is True
        rows.append(
            DeviceRow(
                device=plain(entry["device"]),
                name=device_name(entry),
                seen=seen_text(seen if isinstance(seen, (int, float)) else None, current, now),
                current=current,
            )
        )
    return rows
