"""The message catalogs: complete, translated, in step with the code, and filled right.

A new user-facing string in any client (``_()`` / ``t()``) without a translation in
every catalog fails here, so does a translation that lost or renamed a placeholder;
``python -m gridhall.protocol.catalogs update`` then ``todo`` says what to translate.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog as PoCatalog

from gridhall.protocol import catalogs, i18n
from gridhall.protocol.i18n import Catalog

LANGS = catalogs.languages()
CJK = re.compile(r"[\u3400-\u9fff]")
ENGLISH = {
    "the",
    "and",
    "you",
    "your",
    "room",
    "rooms",
    "game",
    "games",
    "with",
    "is",
    "are",
    "to",
    "of",
    "player",
    "players",
    "this",
    "that",
    "please",
    "click",
    "board",
    "watching",
    "waiting",
    "playing",
    "offline",
    "server",
    "servers",
    "join",
    "watch",
}
"""Words that give away an English sentence left in a Latin-script catalog."""
CODE = re.compile(r"\{[^}]*\}|--\w+|\w+://\S*|HOST\S*|gridhall(?:-server)?|mDNS|UDP|Textual|Tk")
"""What a translation keeps as written: placeholders, options, addresses, names."""
KEPT = {
    "enter",
    "esc",
    "lan",
    "url",
    "ipv6",
    "qr",
    "localhost",
    "port",
    "w",
    "f",
    "c",
    "a",
    "x",
    "g",
    "y",
    "n",
    "m",
}
"""Words a translation may share with its English: key names and technical terms."""
SAME_ALLOWED: dict[str, set[str]] = {"vi": {", "}}
"""msgids whose translation may equal them: Vietnamese separates a list with ", " too."""


def english_words(text: str) -> set[str]:
    """The words of ``text`` written in plain ASCII letters, lower-cased, less ``KEPT``."""
    return {w.lower() for w in re.findall(r"\b[A-Za-z]+\b", text)} - KEPT


def po(lang: str) -> PoCatalog:
    return catalogs.read(i18n.catalog_path(lang), lang)


def entries(catalog: PoCatalog) -> dict[str, Any]:
    return {(m.id[0] if isinstance(m.id, list | tuple) else m.id): m for m in catalog if m.id}


def template_ids() -> set[str]:
    return set(entries(catalogs.read(catalogs.TEMPLATE)))


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalog_has_every_message_translated_with_its_placeholders(lang: str) -> None:
    assert catalogs.problems(po(lang), template_ids()) == []


def test_a_catalog_problem_is_found() -> None:
    """The check above finds each kind of fault (so its silence means something)."""
    bad = PoCatalog(locale="vi", domain="gridhall")
    bad.add("Resign", "")
    bad.add("Leave room {code}.", "Rời phòng {ma}.")
    bad.add("Watch", "Xem", flags=["fuzzy"])
    found = catalogs.problems(bad, {"Resign", "Leave room {code}.", "Watch", "Join"})
    assert found == [
        "missing: 'Join'",
        "untranslated: 'Resign'",
        "placeholders ['ma'] != ['code']: 'Leave room {code}.'",
        "fuzzy: 'Watch'",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_is_left_in_a_catalog(lang: str) -> None:
    left = []
    for msgid, m in entries(po(lang)).items():
        forms = list(m.string) if isinstance(m.string, list | tuple) else [m.string]
        for text in forms:
            words = CODE.sub(" ", str(text))
            if not re.search(r"[A-Za-z]", CODE.sub(" ", msgid)):
                continue  # nothing to translate but punctuation and placeholders
            if text == msgid and msgid not in SAME_ALLOWED.get(lang, set()):
                left.append(msgid)
            elif lang.startswith("zh") and not CJK.search(words):
                left.append(msgid)
            elif english_words(words) & (ENGLISH | english_words(CODE.sub(" ", msgid))):
                left.append(msgid)
    assert left == []


def test_the_template_holds_every_marked_string_of_the_sources() -> None:
    """A string marked in the code (or index.html) but missing from the template, or a
    template entry no code uses any more: run ``python -m gridhall.protocol.catalogs update``."""
    extracted = set(entries(catalogs.extract()))
    assert extracted == template_ids()


JS_CALL = re.compile(r'(?<![\w.])(tn?|tp\(\s*"(?:[^"\\]|\\.)*"\s*,)\(?\s*"((?:[^"\\]|\\.)*)"')
"""``t("...")``, ``tn("...", ...)`` and ``tp("ctx", "...")`` in the browser's modules."""


def test_every_browser_message_reaches_the_template() -> None:
    """Babel's JavaScript lexer loses calls in some places (inside a template literal's
    ``${...}`` with an object literal, for one): every literal t() call must be there."""
    js = catalogs.ROOT / "client" / "web" / "js"
    called = {
        m.group(2).replace('\\"', '"')
        for path in js.rglob("*.js")
        for m in JS_CALL.finditer(path.read_text("utf-8"))
    }
    assert len(called) > 40
    assert called - template_ids() == set()


@pytest.mark.parametrize("lang", LANGS)
def test_a_catalog_is_sorted_and_in_step_with_the_template(lang: str) -> None:
    ids = [str(m.id[0] if isinstance(m.id, list | tuple) else m.id) for m in po(lang) if m.id]
    assert set(ids) == template_ids()
    assert ids == sorted(ids)


# ---- filling: plurals and placeholders ---------------------------------------------------


def test_vietnamese_and_chinese_fill_placeholders_and_their_one_plural_form() -> None:
    vi, zh = i18n.catalog("vi"), i18n.catalog("zh_Hans")
    assert vi.gettext("Watching: {names}", names="An, Bình") == "Đang xem: An, Bình"
    assert zh.gettext("room {code}", code="AB12") == "房间 AB12"
    for n in (0, 1, 2, 21):
        assert vi.ngettext("{n} room open", "{n} rooms open", n) == f"{n} phòng đang mở"
        assert zh.ngettext("{n} room open", "{n} rooms open", n) == f"{n} 个房间开放中"


def test_english_picks_singular_or_plural_and_falls_back_for_unknown_messages() -> None:
    en = i18n.catalog("en")
    assert en.ngettext("{n} room open", "{n} rooms open", 1) == "1 room open"
    assert en.ngettext("{n} room open", "{n} rooms open", 0) == "0 rooms open"
    assert (
        i18n.catalog("vi").gettext("A sentence no catalog has, {x}.", x=1)
        == "A sentence no catalog has, 1."
    )


def test_a_language_with_more_plural_forms_picks_them_by_cldr_rules() -> None:
    """Polish (one, few, many): the forms Babel's CLDR data chooses, not n == 1."""
    pl = Catalog("pl", {"{n} room open": ("{n} pokój", "{n} pokoje", "{n} pokoi")})
    got = {n: pl.ngettext("{n} room open", "{n} rooms open", n) for n in (1, 2, 5, 12, 22, 25)}
    assert got == {
        1: "1 pokój",
        2: "2 pokoje",
        5: "5 pokoi",
        12: "12 pokoi",
        22: "22 pokoje",
        25: "25 pokoi",
    }


def test_a_fuzzy_translation_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A guess ``update`` or a translator flagged as unsure reads as English until checked."""
    path = tmp_path / "vi" / "LC_MESSAGES" / "gridhall.po"
    path.parent.mkdir(parents=True)
    path.write_text(
        'msgid ""\nmsgstr ""\n"Language: vi\\n"\n\n#, fuzzy\nmsgid "Resign"\n'
        'msgstr "Đầu hàng"\n\nmsgid "Watch"\nmsgstr "Xem"\n',
        "utf-8",
    )
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.catalog.cache_clear()
    try:
        vi = i18n.catalog("vi")
        assert vi.gettext("Watch") == "Xem"
        assert vi.gettext("Resign") == "Resign"
    finally:
        i18n.catalog.cache_clear()


def test_a_placeholder_a_translation_misspells_stays_visible_instead_of_crashing() -> None:
    broken = Catalog("vi", {"Leave room {code}.": "Rời phòng {ma}."})
    assert broken.gettext("Leave room {code}.", code="X") == "Rời phòng {ma}."
    assert i18n.fill("{a} {b}", {"a": 1}) == "1 {b}"


def test_the_process_language_follows_lang_then_the_locale() -> None:
    try:
        assert i18n.from_environment({"LANG": "vi_VN.UTF-8"}) == "vi"
        assert i18n.from_environment({"LANGUAGE": "zh_CN:en", "LANG": "vi_VN.UTF-8"}) == "zh_Hans"
        assert i18n.from_environment({"LANG": "zh_TW.UTF-8"}) == "en"
        assert i18n.from_environment({"LANG": "C.UTF-8"}) == "en"
        assert i18n.set_language("zh-CN") == "zh_Hans"
        assert i18n._("Resign") == "认输"
    finally:
        i18n.set_language("en")
    assert i18n._("Resign") == "Resign"


def test_a_refusal_reads_in_the_players_language_not_the_servers_english() -> None:
    from gridhall.client.messages import Refused
    from gridhall.client.views.common import error_text

    refused = Refused(code="not-your-turn", message="It is Bob's turn.", request="move")
    assert error_text(refused) == "It is Bob's turn."  # English: the server's own sentence
    try:
        i18n.set_language("vi")
        said = error_text(refused)
    finally:
        i18n.set_language("en")
    assert (
        said == i18n.catalog("vi").gettext("It is not your turn yet.") != "It is not your turn yet."
    )
