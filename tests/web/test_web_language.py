"""The browser client in the player's language: it follows the browser's (a Chromium
set to Chinese gets Chinese), and the switcher changes every text at once, is
remembered, and reaches the room screen too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.support.select import Select

from gridhall.protocol import i18n
from gridhall.protocol.games import GAMES, NAMES
from tests.web.harness import Browser, ServerThread, browser_missing, create_room, open_lobby


@pytest.fixture
def chinese() -> Iterator[Browser]:
    """A Chromium whose language is Chinese (China): navigator.languages, Accept-Language."""
    missing = browser_missing()
    if missing is not None:
        pytest.skip(f"browser tests need Chromium: {missing}")
    browser = Browser(lang="zh-CN")
    yield browser
    browser.quit()


def heading(browser: Browser) -> str:
    return str(browser.find("#lobby h2").text)


def test_a_chinese_browser_gets_chinese_and_the_switcher_changes_to_vietnamese(
    tmp_path: Path, chinese: Browser
) -> None:
    server = ServerThread(tmp_path / "gridhall.db")
    b = chinese
    try:
        open_lobby(b, server, "Lan")
        assert str(b.js("return navigator.languages[0]")).startswith("zh")
        b.wait(lambda: heading(b) == "本服务器上的房间", "the lobby in Chinese")
        assert b.find("#connection").text == "● 已连接"
        assert b.find("#join-form button[value=spectator]").text == "观战"
        assert b.find("#join-form [name=code]").get_attribute("placeholder") == "房间号"
        assert b.js("return document.documentElement.lang") == "zh-Hans"
        switcher = Select(b.find("#language"))
        assert switcher.first_selected_option.text == "简体中文"
        assert [o.text for o in switcher.options] == ["English", "简体中文", "Tiếng Việt"]

        switcher.select_by_value("vi")
        b.wait(lambda: heading(b) == "Các phòng trên máy chủ này", "the lobby in Vietnamese")
        assert b.find("#connection").text == "● đã kết nối"
        assert b.find("#create-form button[type=submit]").text == "Tạo phòng"
        assert b.js("return localStorage.getItem('gridhall.lang')") == "vi"

        b.driver.refresh()  # the choice outlives the page
        b.wait(lambda: heading(b) == "Các phòng trên máy chủ này", "Vietnamese after a reload")

        create_room(b, "gomoku")
        assert b.find("#leave").text == "Rời phòng"
        b.wait(lambda: "(bạn)" in b.find("#players").text, "the players list in Vietnamese")
        Select(b.find("#language")).select_by_value("zh_Hans")
        b.wait(lambda: b.find("#leave").text == "离开房间", "the room in Chinese")
        b.wait(lambda: "（你）" in b.find("#players").text, "the players list in Chinese")
        assert b.find("#actions [data-action=resign]").text == "认输"
        assert "房间" in b.find("#room-title").text
        errors = b.console(level="SEVERE")
        assert not errors, f"the page logged errors: {errors}"
    finally:
        b.driver.get("about:blank")
        server.close()


def test_a_switch_redraws_the_create_form_and_the_notice_and_keeps_the_choices(
    ann: Browser, web_server: ServerThread
) -> None:
    """Switched in a room, the lobby's form reads in the new language once back (it was
    built once, in the first one); a notice showing is said again in the new language."""
    vi = i18n.catalog("vi")
    open_lobby(ann, web_server, "Ann")
    create_room(ann, "linkmatch", preset="1")  # the 12×7 quick race
    ann.find("#actions [data-action=start]").click()
    ann.wait(lambda: ann.status_state() == "playing", "the race")
    Select(ann.find("#language")).select_by_value("vi")
    ann.wait(lambda: ann.find("#leave").text == vi.gettext("Leave room"), "the room in Vietnamese")
    # 12 x 7 = 84 tiles, in Vietnamese (the catalog's plural entry, not English)
    ann.wait(lambda: vi.ngettext("{n} tile left", "{n} tiles left", 84) in ann.status(), "84 tiles")
    ann.find("#leave").click()
    ann.wait_css("#confirm-bar [data-confirm=yes]").click()  # leaving a live race asks first
    ann.wait_css("#lobby")

    form = ann.find("#create-form")
    game = Select(form.find_element("css selector", "[name=game]"))
    assert game.first_selected_option.text == vi.gettext("Link-match")
    assert [o.text for o in game.options] == [vi.gettext(GAMES[name].title) for name in NAMES]
    preset = Select(ann.find("#create-preset"))
    assert preset.first_selected_option.text == vi.gettext("12×7 quick, 5 min")
    label = ann.find("#create-fields [data-field=time_limit]").text
    assert label.startswith(vi.gettext("Time limit (s)")) and "Time limit" not in label
    values = [
        ann.find(f"#create-form [name=opt-{k}]").get_attribute("value")
        for k in ("width", "time_limit")
    ]
    assert values == ["12", "300"]  # the preset's values, kept

    ann.find("#join-form [name=code]").send_keys("NOSUCH")
    ann.find("#join-form button[value=player]").click()  # a refusal: the notice says why
    no_room = "There is no room with that code; check it and try again."
    notice = ann.wait_css("#notice .notice-text")
    ann.wait(lambda: vi.gettext(no_room) in notice.text, "the notice in Vietnamese")
    Select(ann.find("#language")).select_by_value("zh_Hans")
    zh = i18n.catalog("zh_Hans")
    ann.wait(
        lambda: zh.gettext(no_room) in ann.find("#notice .notice-text").text,
        "the notice in Chinese",
    )
    assert zh.gettext("Could not join") in ann.find("#notice .notice-text").text
    ann.wait(
        lambda: game.first_selected_option.text == zh.gettext("Link-match"), "the form in Chinese"
    )
    assert Select(ann.find("#create-preset")).first_selected_option.text == zh.gettext(
        "12×7 quick, 5 min"
    )
