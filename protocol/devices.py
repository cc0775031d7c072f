"""A device as the device lists describe it (PROTOCOL.md, "Devices").

A client says what it is in ``hello.device``: ``{"kind": "tk", "platform": "Linux"}``.
The kind is a code, so each viewer's client names it in the viewer's language (a
Chinese player's phone lists the laptop as 终端 · Linux); the platform is data, shown
as given. An older client sends one string of its own instead, kept and shown as data.
:func:`parse` checks what came (the schema only knows it is a string or a map).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import ErrorCode, ProtocolError
from .fields import Clean
from .schema import check

TERMINAL = "terminal"
TK = "tk"
BROWSER = "browser"
KINDS: dict[str, str] = {TERMINAL: "Terminal", TK: "Tk", BROWSER: "Browser"}
"""gridhall's own clients' kinds and their English names (for the ``name`` an older
client shows; newer ones translate the kind). Other clients send codes of their own."""
KIND = re.compile(r"[a-z][a-z0-9-]{0,15}")
"""What a kind code looks like: a word of the protocol, not text."""
PLATFORM_LENGTH = 32
NAME_LENGTH = 48
"""The longest ``hello.device`` an older client's plain string may be."""


@dataclass(frozen=True)
class Description:
    """What a device list says of a device: a kind (a code) and a platform, or an older
    client's own ``name`` for it (no kind); all empty when nothing was said."""

    kind: str = ""
    platform: str = ""
    name: str = ""

    def english(self) -> str:
        """The device's name in English (``Tk · Linux``): the ``name`` of its row, which
        clients from before kinds show as it is."""
        if not self.kind:
            return self.name
        kind = KINDS.get(self.kind, self.kind)
        return f"{kind} · {self.platform}" if self.platform else kind

    def fields(self) -> dict[str, Any]:
        """The row's ``name``, ``kind`` and ``platform`` (null when not known)."""
        return {
            "name": self.english() or None,
            "kind": self.kind or None,
            "platform": self.platform or None,
        }


def parse(value: str | dict[str, Any] | None, rid: int | None = None) -> Description | None:
    """``hello.device`` as a :class:`Description` (None when not sent); a map whose
    ``kind`` is not a code, or whose ``platform`` is not short plain text, raises
    ProtocolError(bad-message). Other keys of the map are left for later versions."""
    if value is None:
        return None
    if isinstance(value, str):  # an older client's name (the schema checked it)
        return Description(name=value)
    kind = value.get("kind")
    if not isinstance(kind, str) or not KIND.fullmatch(kind):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            "Field 'device.kind' must be a code of 1..16 lowercase letters, digits or"
            " dashes, starting with a letter (such as 'tk').",
            rid,
        )
    platform = value.get("platform")
    if platform is None:
        return Description(kind=kind)
    try:
        text = check("device.platform", platform, str, Clean(max_len=PLATFORM_LENGTH))
        return Description(kind=kind, platform=text)
    except ProtocolError as error:
        raise ProtocolError(error.code, error.message, rid) from None
