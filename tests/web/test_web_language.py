"""The browser client in the player's language: it follows the browser's (a Chromium
set to Chinese gets Chinese), and the switcher changes every text at once, is
remembered, and reaches the room screen too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.support.select import Select

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
