"""The browser client's lobby on a 1280x800 screen: the create form's *Create room* shows
without scrolling for every game, and no field's placeholder is cut, in English and in
Vietnamese (whose words run longer)."""

from __future__ import annotations

import pytest
from selenium.webdriver.support.select import Select

from tests.web.harness import Browser, ServerThread, choose, open_lobby
from tests.web.layout import DESKTOP, emulate

FOLD = """const button = document.querySelector('#create-form button[type=submit]').getBoundingClientRect();
return {bottom: button.bottom, height: window.innerHeight, scrollY: window.scrollY};"""

PLACEHOLDERS = """const measure = document.createElement('canvas').getContext('2d');
const cut = [];
for (const input of document.querySelectorAll('#lobby input[placeholder]')) {
  if (!input.offsetParent) continue;
  const style = getComputedStyle(input);
  measure.font = style.font;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const need = measure.measureText(input.placeholder).width;
  if (need > room + 1) cut.push([input.placeholder, Math.round(need), Math.round(room)]);
}
return cut;"""


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_create_room_shows_without_scrolling_and_placeholders_are_whole(
    ann: Browser, web_server: ServerThread, lang: str
) -> None:
    emulate(ann, DESKTOP)
    try:
        open_lobby(ann, web_server, "Ann")
        if lang != "en":
            Select(ann.find("#language")).select_by_value(lang)
            ann.wait(lambda: ann.js("return document.documentElement.lang") == lang, lang)
        for game in ("gomoku", "minesweeper", "linkmatch"):
            choose(ann, "game", game)
            got = ann.js(FOLD)
            assert got["scrollY"] == 0 and got["bottom"] <= got["height"], (game, got)
        assert ann.js(PLACEHOLDERS) == []
    finally:
        emulate(ann, DESKTOP)
        ann.js("localStorage.removeItem('gridhall.lang')")
