"""The words of every client in every language: gettext catalogs read with Babel.

One catalog per language, shared by the terminal, Tk and browser clients:
``protocol/locale/<lang>/LC_MESSAGES/gridhall.po``. English is the source
language: a message id *is* its English text, so an English client needs no
catalog, and a missing translation falls back to English rather than to a key.

Placeholders are Python brace fields (``"{name} resigned."``), filled from
keyword arguments; the browser fills the same fields (``client/web/js/i18n.js``).
Plurals follow CLDR through Babel: a catalog's plural forms are ordered by the
CLDR categories its language uses (``zero one two few many other``, those in
use), and the browser picks the same form with ``Intl.PluralRules``. So the two
sides never carry hand-made plural rules.

The Python clients speak one language per process: :func:`set_language` once at
start-up (``--lang``, else the locale), then :func:`gettext` / :func:`ngettext`
(also as ``_``) wherever a sentence is made. Data declared at import time
marks its texts with :func:`N_` and translates them when shown.
"""

from __future__ import annotations

import os
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import read_po

DOMAIN = "gridhall"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE = "en"
LANGUAGES: dict[str, str] = {"en": "English", "zh_Hans": "简体中文", "vi": "Tiếng Việt"}
"""Every language a client offers, by its Babel identifier, each named in itself."""

CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it yet (data made at import
    time is translated when it is shown)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (gettext's naming)
    """Mark a message with plural forms for the catalogs without translating it yet: the
    catalogs then hold it as one entry with its forms, which :func:`ngettext` reads (two
    ``N_`` would make two unrelated entries, and ngettext would find neither)."""
    return singular, plural


class _Keep(dict[str, Any]):
    """Format arguments that leave an unknown field as written, so a translation with a
    typo shows ``{nmae}`` instead of crashing a client."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def fill(template: str, params: Mapping[str, Any]) -> str:
    """``template`` with its ``{field}`` placeholders filled from ``params``."""
    if not params or "{" not in template:
        return template
    try:
        return string.Formatter().vformat(template, (), _Keep(params))
    except (ValueError, IndexError, AttributeError, KeyError):
        return template


def placeholders(template: str) -> set[str]:
    """The names of the ``{field}`` placeholders in ``template``."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}
    except ValueError:
        return set()


def plural_categories(lang: str) -> tuple[str, ...]:
    """The CLDR plural categories ``lang`` uses, in catalog order (English: one, other)."""
    tags = Locale.parse(lang).plural_form.tags | {"other"}
    return tuple(tag for tag in CLDR_ORDER if tag in tags)


@dataclass
class Catalog:
    """One language's translations: msgid (or ``context\\x04msgid``) -> text or plural forms."""

    lang: str
    messages: dict[str, str | tuple[str, ...]] = field(default_factory=dict)
    rules: str = ""
    """The language whose plural rules apply, when ``lang`` has none of its own (the
    pseudo-locale counts as English); empty: ``lang``'s."""
    dates: str = ""
    """The language whose CLDR words dates and times are written in (the browser's
    ``Intl``); empty: ``lang``'s."""

    @property
    def categories(self) -> tuple[str, ...]:
        return plural_categories(self.rules or self.lang)

    def gettext(self, message: str, **params: Any) -> str:
        """``message`` translated; a message held with plural forms gives its first, as
        GNU gettext does (the same English is also asked for with ``ngettext``)."""
        found = self.messages.get(message)
        if isinstance(found, tuple):
            found = found[0] if found and all(found) else None
        text = found if isinstance(found, str) and found else message
        return fill(text, params)

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        found = self.messages.get(f"{context}\x04{message}")
        text = found if isinstance(found, str) and found else message
        return fill(text, params)

    def ngettext(self, singular: str, plural: str, n: int, **params: Any) -> str:
        """The form for ``n`` (``n`` is also a placeholder)."""
        params = {"n": n, **params}
        found = self.messages.get(singular)
        if isinstance(found, tuple) and all(found):
            category = Locale.parse(self.rules or self.lang).plural_form(abs(n))
            cats = self.categories
            index = cats.index(category) if category in cats else len(cats) - 1
            return fill(found[min(index, len(found) - 1)], params)
        return fill(singular if n == 1 else plural, params)

    def to_json(self) -> dict[str, Any]:
        """What the browser loads (``GET /i18n/<lang>.json``)."""
        return {
            "lang": self.lang,
            "name": LANGUAGES.get(self.lang, self.lang),
            "rules": (self.rules or self.lang).replace("_", "-"),
            "dates": (self.dates or self.lang).replace("_", "-"),
            "plural_categories": list(self.categories),
            "messages": {
                k: (list(v) if isinstance(v, tuple) else v) for k, v in self.messages.items()
            },
        }


def catalog_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


_made: dict[str, Catalog] = {}
"""Catalogs made in memory rather than read from a file (:func:`install`)."""


def install(made: Catalog, name: str) -> None:
    """Offer ``made`` as one more language, named ``name``, in this process (the clients'
    choices, the server's ``/i18n/``): the pseudo-locale the tests render every screen
    in (``python -m gridhall.protocol.catalogs pseudo``). :func:`uninstall` undoes it."""
    _made[made.lang] = made
    LANGUAGES[made.lang] = name
    catalog.cache_clear()


def uninstall(lang: str) -> None:
    """Stop offering a language :func:`install` added."""
    if _made.pop(lang, None) is not None:
        LANGUAGES.pop(lang, None)
        catalog.cache_clear()


@cache
def catalog(lang: str) -> Catalog:
    """The catalog of ``lang`` (English, or a language without a file: empty, so every
    message reads as its English id)."""
    if lang in _made:
        return _made[lang]
    lang = lang if lang in LANGUAGES else SOURCE
    out = Catalog(lang)
    path = catalog_path(lang)
    if lang == SOURCE or not path.exists():
        return out
    with path.open("rb") as f:
        po = read_po(f, locale=lang, domain=DOMAIN)
    for message in po:
        if not message.id or message.fuzzy:
            continue  # the header; a fuzzy guess is not a translation (gettext skips it too)
        if isinstance(message.id, tuple | list):
            key, value = str(message.id[0]), message.string
            forms = tuple(str(s) for s in value) if isinstance(value, tuple | list) else ()
            out.messages[_key(message.context, key)] = forms
        elif message.string:
            out.messages[_key(message.context, str(message.id))] = str(message.string)
    return out


def _key(context: str | None, message: str) -> str:
    return f"{context}\x04{message}" if context else message


def negotiate(preferred: Iterable[str]) -> str:
    """The offered language closest to ``preferred`` (``zh-CN``, ``vi_VN.UTF-8``,
    ``zh-Hans``...), English if none is."""
    for raw in preferred:
        tag = raw.split(".")[0].split("@")[0].replace("-", "_").strip()
        if not tag or tag in {"C", "POSIX"}:
            continue
        if tag in LANGUAGES:
            return tag
        try:
            locale = Locale.parse(tag)
        except (ValueError, UnknownLocaleError):
            continue
        if locale.language == "zh":
            script = locale.script or ("Hant" if locale.territory in {"TW", "HK", "MO"} else "Hans")
            if script == "Hans":
                return "zh_Hans"
            continue
        if locale.language in LANGUAGES:
            return locale.language
    return SOURCE


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the user's locale asks for (``LANGUAGE``, ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG``, as gettext reads them)."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return negotiate(value.split(":"))
    return SOURCE


_current: Catalog = Catalog(SOURCE)


def set_language(lang: str) -> str:
    """Use ``lang`` (negotiated to an offered one) for this process; returns it."""
    global _current
    _current = catalog(negotiate([lang]))
    return _current.lang


def language() -> str:
    """The language this process speaks."""
    return _current.lang


def gettext(message: str, **params: Any) -> str:
    """``message`` in this process's language, placeholders filled."""
    return _current.gettext(message, **params)


def pgettext(context: str, message: str, **params: Any) -> str:
    """``message`` in a context (the same English word that translates two ways)."""
    return _current.pgettext(context, message, **params)


def ngettext(singular: str, plural: str, n: int, **params: Any) -> str:
    """The plural form for ``n`` in this process's language."""
    return _current.ngettext(singular, plural, n, **params)


_ = gettext
