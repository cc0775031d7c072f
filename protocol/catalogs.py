"""Keeping the message catalogs in step with the code: ``python -m gridhall.protocol.catalogs``.

``update`` extracts every marked string of the three clients (``_``/``ngettext``/
``pgettext``/``N_``/``Nn_`` in Python, ``t``/``tn``/``tp`` in JavaScript, the
``data-i18n`` attributes of ``index.html``) into ``locale/gridhall.pot`` and merges
it into each language's ``.po``: new messages arrive empty, removed ones go,
entries stay sorted by msgid and carry no source locations, so a merge of two
branches conflicts only where both touched the same message. ``todo`` lists what
is left to translate; ``check`` exits 1 while anything is (CI runs the same
checks in ``tests/client/test_catalogs.py``).

Plain pybabel does the same for the code (it cannot read ``index.html``)::

    pybabel extract -F protocol/locale/babel.cfg -k t -k tn:1,2 -k tp:1c,2 \\
        --sort-output --no-location -o protocol/locale/gridhall.pot .
    pybabel update -i protocol/locale/gridhall.pot -d protocol/locale -D gridhall \\
        --no-fuzzy-matching --ignore-obsolete
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from gridhall.protocol.i18n import DOMAIN, LANGUAGES, LOCALE_DIR, SOURCE, placeholders

ROOT = LOCALE_DIR.parent.parent
"""The source tree (the folder holding ``protocol/``, ``client/`` and ``server/``)."""
MAPPING = LOCALE_DIR / "babel.cfg"
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
HTML = ROOT / "client" / "web" / "index.html"

KEYWORDS: dict[str, Any] = {
    **DEFAULT_KEYWORDS,
    "Nn_": (1, 2),
    "t": None,
    "tn": (1, 2),
    "tp": ((1, "c"), 2),
}
"""Python's gettext names (Babel's defaults, ``N_`` included, and ``Nn_`` for a message with
plural forms marked at import time) and the browser's."""

DATA_I18N = re.compile(r'data-i18n(?:-(?:placeholder|title|aria-label))?="([^"]+)"')
"""Static texts of ``index.html``: ``data-i18n="Join"`` (the element's text) and
``data-i18n-placeholder`` / ``-title`` / ``-aria-label`` (that attribute)."""


def _method_map() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    """The ``[method: pattern]`` sections of ``babel.cfg``."""
    from babel.messages.frontend import parse_mapping_cfg

    with MAPPING.open(encoding="utf-8") as f:
        sections: tuple[list[tuple[str, str]], dict[str, dict[str, str]]] = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    return sections


def _html_messages() -> Iterator[str]:
    for match in DATA_I18N.finditer(HTML.read_text(encoding="utf-8")):
        yield match.group(1).replace("&amp;", "&").replace("&quot;", '"')


def extract() -> Catalog:
    """Every marked message of the sources, as a template catalog."""
    method_map, options_map = _method_map()
    template = Catalog(
        project="gridhall",
        domain=DOMAIN,
        fuzzy=False,
        creation_date=datetime(2026, 1, 1, tzinfo=UTC),
    )
    for _filename, _lineno, message, comments, context in extract_from_dir(
        str(ROOT),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",),
        strip_comment_tags=True,
    ):
        template.add(message, None, auto_comments=comments, context=context)
    for text in _html_messages():
        template.add(text, None)
    return template


def write(catalog: Catalog, path: Path) -> None:
    """Sorted by msgid, no source locations, no obsolete entries: stable diffs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(
            f,
            catalog,
            width=100,
            no_location=True,
            omit_header=False,
            sort_output=True,
            ignore_obsolete=True,
            include_previous=False,
        )


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def languages() -> list[str]:
    """The languages with a catalog (every offered one but English, the source)."""
    return [lang for lang in LANGUAGES if lang != SOURCE]


def update() -> None:
    """Extract the template and merge it into every language's catalog."""
    template = extract()
    write(template, TEMPLATE)
    for lang in languages():
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        if path.exists():
            catalog = read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project="gridhall", fuzzy=False)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, path)


def problems(catalog: Catalog, template_ids: set[Any] | None = None) -> list[str]:
    """What is wrong with one language's catalog: messages missing, empty, fuzzy, or
    with other placeholders than their msgid."""
    found: list[str] = []
    ids = {m.id if not isinstance(m.id, list | tuple) else m.id[0]: m for m in catalog if m.id}
    if template_ids is not None:
        keys = {(i if not isinstance(i, list | tuple) else i[0]) for i in template_ids}
        found += [f"missing: {k!r}" for k in sorted(keys - set(ids), key=str)]
    for key, m in ids.items():
        singular, plural = (m.id[0], m.id[1]) if isinstance(m.id, list | tuple) else (m.id, None)
        forms = list(m.string) if isinstance(m.string, list | tuple) else [m.string]
        if m.fuzzy:
            found.append(f"fuzzy: {key!r}")
        if not all(forms):
            found.append(f"untranslated: {key!r}")
            continue
        wanted = placeholders(str(singular)) | placeholders(str(plural or ""))
        for form in forms:
            have = placeholders(str(form))
            if have - wanted or (plural is None and have != wanted):
                found.append(f"placeholders {sorted(have)} != {sorted(wanted)}: {key!r}")
    return found


def todo(lang: str) -> list[Message]:
    """The messages of ``lang`` still to translate (empty or fuzzy)."""
    catalog = read(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po", lang)
    return [
        m
        for m in catalog
        if m.id
        and (m.fuzzy or not all(m.string if isinstance(m.string, list | tuple) else [m.string]))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gridhall.protocol.catalogs",
        description="Keep the message catalogs in step with the code.",
    )
    parser.add_argument(
        "command",
        choices=("update", "todo", "check"),
        help="update: extract and merge; todo: list what is left to translate; "
        "check: exit 1 if anything is",
    )
    args = parser.parse_args(argv)
    if args.command == "update":
        update()
        print(f"updated {TEMPLATE.relative_to(ROOT)} and {', '.join(languages())}")
        return 0
    template_ids = {m.id for m in read(TEMPLATE) if m.id}
    bad = 0
    for lang in languages():
        path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        issues = problems(read(path, lang), template_ids)
        bad += len(issues)
        for issue in issues:
            print(f"{lang}: {issue}")
    return 1 if bad and args.command == "check" else 0


if __name__ == "__main__":
    sys.exit(main())
