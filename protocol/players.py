"""How every client names a player: a computer player in the reader's language.

The server names its computer players ``Computer (LEVEL)`` (``Computer (hard)``, and
``Computer (rapfi)`` for an external engine ``engine:rapfi``) and keeps every name that
starts with ``Computer`` for them (PROTOCOL.md, "Names"). Such a name is the server's
English, not a word a person chose, so the clients show it translated: by the entry's
``bot`` where the wire gives one (a room's players, leaderboard rows), else by the name
alone (the lobby's rooms, a finished game's players). Every other name is data, shown
as written. The browser does the same (``client/web/js/describe.js``, ``shownName``).
"""

from __future__ import annotations

import re

from gridhall.protocol.i18n import N_, gettext

COMPUTER_NAME = re.compile(r"Computer \(([^()]{1,40})\)")
"""A computer player's name as the server makes it."""
ENGINE = "engine:"
LEVELS = {"easy": N_("easy"), "hard": N_("hard")}
"""The built-in computer levels in words."""


def level_word(level: object) -> str:
    """A computer level in words: ``easy`` and ``hard`` translated, an engine by its name
    (``engine:rapfi`` -> ``rapfi``, the operator's word), anything else as ``?``."""
    if not isinstance(level, str) or not level:
        return "?"
    if level in LEVELS:
        return gettext(LEVELS[level])
    return level.removeprefix(ENGINE)


def computer_level(name: str, bot: object = None) -> str | None:
    """The level of a computer player (``bot``, else read from its ``name``), or None for a
    person."""
    if isinstance(bot, str) and bot:
        return bot
    found = COMPUTER_NAME.fullmatch(name)
    if found is None:
        return None
    level = found.group(1)
    return level if level in LEVELS else ENGINE + level


def shown_name(name: object, bot: object = None) -> str:
    """The name to show for a player: a computer's in the reader's language, anyone
    else's as written."""
    text = str(name)
    level = computer_level(text, bot)
    if level is None:
        return text
    return gettext("Computer ({level})", level=level_word(level))
