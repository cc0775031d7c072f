"""The pseudo-locale ``qps``: every message of the template marked ``⟦…⟧`` and accented.

A screen shown in it reads ``⟦Ŕéšíĝñ⟧`` wherever a text came through the catalogs, so
a word left in plain letters came from somewhere else: a literal in client code, a
text never marked for extraction, a description's label shown untranslated. The tests
render every screen of every client in it and fail on such a word (``tests/i18n/``);
a player never sees it (it is offered only once :func:`install` ran). The markers also
show a text cut short (an opening ``⟦`` without its ``⟧``).

Placeholders (``{name}``) stay as written, so they are filled as in any language, and
the data filled in (names, numbers, codes) stays unmarked inside the markers. Plural
forms follow English's rules, dates Chinese's (:data:`DATES`).
"""

from __future__ import annotations

import re

from gridhall.protocol import i18n
from gridhall.protocol.catalogs import TEMPLATE, read

PSEUDO = "qps"
"""BCP 47's private-use language subtag for pseudo-localisation (as Windows' qps-ploc)."""
NAME = "⟦Ƥšéúðó⟧"
OPEN, CLOSE = "⟦", "⟧"
DATES = "zh_Hans"
"""Dates and times come from CLDR, not the catalogs: the pseudo-locale writes them as
Chinese does, so one written in the browser's English instead of the page's language
("Nov 27, 9:39 PM") stands out as plain letters."""

_PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_ACCENTED = "áƀçðéƒĝĥíĵķļɱñóþǫŕšţúṽŵẋýžÁƁÇÐÉƑĜĤÍĴĶĻṀÑÓÞǪŔŠŢÚṼŴẊÝŽ"
ACCENTS = str.maketrans(_PLAIN, _ACCENTED)
"""Every ASCII letter to an accented look-alike: no plain letter is left in a marked text."""
FIELD = re.compile(r"(\{\{|\}\}|\{[^{}]*\})")
"""A placeholder (or an escaped brace), kept as written."""


def pseudo(message: str) -> str:
    """``message`` marked and accented, its placeholders untouched."""
    parts = FIELD.split(message)
    accented = "".join(p if i % 2 else p.translate(ACCENTS) for i, p in enumerate(parts))
    return f"{OPEN}{accented}{CLOSE}"


def catalog() -> i18n.Catalog:
    """The pseudo-locale's catalog, made from the template (``gridhall.pot``) as it is now."""
    made = i18n.Catalog(PSEUDO, rules=i18n.SOURCE, dates=DATES)
    for message in read(TEMPLATE):
        if not message.id:
            continue
        if isinstance(message.id, list | tuple):
            singular, plural = (str(m) for m in message.id[:2])
            made.messages[singular] = (pseudo(singular), pseudo(plural))
        else:
            key = f"{message.context}\x04{message.id}" if message.context else str(message.id)
            made.messages[key] = pseudo(str(message.id))
    return made


def install() -> str:
    """Offer the pseudo-locale in this process (until ``i18n.uninstall(PSEUDO)``)."""
    i18n.install(catalog(), NAME)
    return PSEUDO
