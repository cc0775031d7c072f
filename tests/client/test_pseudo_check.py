"""The pseudo-locale and the check built on it find what they are for, so the clients'
screen walks passing (``test_*_pseudo.py``) means something: every message marked and
accented with its placeholders kept, and every kind of hole reported."""

from __future__ import annotations

import re

from gridhall.protocol import catalogs, i18n, pseudo
from tests.pseudo import Findings, pseudo_locale, unmarked


def test_every_message_of_the_template_is_marked_accented_and_keeps_its_placeholders() -> None:
    made = pseudo.catalog()
    template = [m for m in catalogs.read(catalogs.TEMPLATE) if m.id]
    assert len(made.messages) == len(template) > 500
    for message in template:
        ids = list(message.id) if isinstance(message.id, list | tuple) else [message.id]
        key = f"{message.context}\x04{ids[0]}" if message.context else str(ids[0])
        found = made.messages[key]
        forms = list(found) if isinstance(found, tuple) else [found]
        assert len(forms) == len(ids)
        for msgid, form in zip(ids, forms, strict=True):
            assert form.startswith("⟦") and form.endswith("⟧")
            assert not re.search(r"[A-Za-z]", re.sub(r"\{[^{}]*\}", "", form)), form
            assert i18n.placeholders(form) == i18n.placeholders(str(msgid))


def test_the_pseudo_locale_is_offered_while_installed_and_reads_english_plurals() -> None:
    with pseudo_locale() as lang:
        assert i18n.language() == lang == "qps" and lang in i18n.LANGUAGES
        assert i18n.gettext("Resign") == "⟦Ŕéšíĝñ⟧"
        assert i18n.ngettext("{n} room open", "{n} rooms open", 1) == "⟦1 ŕóóɱ óþéñ⟧"
        assert i18n.ngettext("{n} room open", "{n} rooms open", 3) == "⟦3 ŕóóɱš óþéñ⟧"
        assert i18n.catalog(lang).to_json()["dates"] == "zh-Hans"
    assert "qps" not in i18n.LANGUAGES and i18n.language() == "en"


def test_unmarked_words_cut_texts_and_data_are_told_apart() -> None:
    marked = pseudo.pseudo
    assert unmarked(marked("Resign")) == []
    assert unmarked(f"{marked('Players')}: Resign") == [("Resign", f"{marked('Players')}: Resign")]
    nested = "⟦Ŵáţçĥíñĝ · ⟦Ŕéšíĝñ⟧⟧"  # a marked text holding another
    assert unmarked(nested) == []
    wrapped = "⟦Ŵáţçĥíñĝ\nţĥé ŕóóɱ⟧"  # one text over two lines
    assert unmarked(wrapped) == []
    assert [w for w, _ in unmarked("⟦Ŵáţçĥíñĝ ţĥé")] == ["cut text"]  # its end not shown
    assert [w for w, _ in unmarked("Ann wins", ["Ann"])] == ["wins"]
    assert [w for w, _ in unmarked("Announcement", ["Ann"])] == ["Announcement"]  # whole only
    assert unmarked("H8 · 12:05 · g · 2026年11月27日") == []  # a cell, a time, a key, a date


def test_findings_name_the_screen_the_line_and_the_word() -> None:
    found = Findings()
    found.allow("Ann")
    found.check("lobby", ["⟦Ĵóíñ⟧ Ann", "Create room"], ["Input#password: ⟦Þáššŵ"])
    found.check("room", ["⟦Ŕéšíĝñ⟧"])
    assert found.screens == ["lobby", "room"]
    assert list(found.holes) == ["lobby"]
    report = found.report()
    assert "['Create', 'room']  in  'Create room'" in report
    assert "['shown cut short']  in  'Input#password: ⟦Þáššŵ'" in report
