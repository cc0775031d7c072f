"""Link codes on the client side, shared by every UI: carry this player's identity
to another device (PROTOCOL.md, "Link codes").

The first device asks the server for a code (:meth:`Session.request_link_code`)
and shows it with :func:`code_lines`; on the second the player types it, and
:func:`parse_code` checks it before :meth:`Session.link_with` reconnects with
``hello.link``. Pure: no I/O, no UI.
"""

from __future__ import annotations

import time

from gridhall.protocol.i18n import _

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""The room-code alphabet, which link codes are made of."""
LENGTH = 8
FEATURE = "link"
"""The name in ``welcome.features`` of a server that gives link codes."""


def parse_code(text: str) -> str:
    """What a person typed as a link code, as sent (any case, with or without the
    dash or spaces); ValueError with a sentence to show if it cannot be one."""
    code = "".join(text.split()).replace("-", "").upper()
    if not code:
        raise ValueError(_("Type the code shown on your other device."))
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        raise ValueError(
            _("A link code has 8 letters and digits, like {example}.", example="K7MQ-2D9X")
        )
    return code


def minutes_left(expires_at: float, now: float | None = None) -> int:
    """Whole minutes (rounded up) until ``expires_at``; 0 once it has passed."""
    left = expires_at - (time.time() if now is None else now)
    return max(0, int(-(-left // 60)))


def code_lines(code: str, expires_at: float, now: float | None = None) -> list[str]:
    """What to show beside a code: how to use it and how long it works."""
    minutes = minutes_left(expires_at, now)
    clock = time.strftime("%H:%M", time.localtime(expires_at))
    return [
        _(
            'On your other device, choose "I have a code" and type this code. It works '
            "once; that device then plays as you, with your name and ratings."
        ),
        _("Valid until {time} ({minutes} min).", time=clock, minutes=minutes)
        if minutes
        else _("This code has expired; ask for a new one."),
    ]
