"""A real gridhall server in a background thread and headless Chromium sessions for it.

Selenium's calls block, so the server cannot share the test's event loop: it runs on
its own loop in a thread (port 0, fresh database). Chromium is Debian's
``/usr/bin/chromium`` driven through ``/usr/bin/chromedriver``; nothing is downloaded.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webelement import WebElement

from gridhall.server.core.config import ServerConfig
from gridhall.server.io.net.app import GameServer

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
)
WAIT = 30.0
"""Generous bound for any one condition: the machine is shared and loaded."""

T = TypeVar("T")


def browser_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(path):
            return f"{path} is missing (apt-get install chromium chromium-driver)"
    return None


class ServerThread:
    """A GameServer on 127.0.0.1:0, running on its own event loop in a thread."""

    def __init__(self, db: Path, **overrides: Any) -> None:
        self.config = ServerConfig(**{"host": "127.0.0.1", "port": 0, "db": str(db), **overrides})
        self.loop = asyncio.new_event_loop()
        self.server = GameServer(self.config)
        self._thread = threading.Thread(
            target=self.loop.run_forever, name="gridhall-test-server", daemon=True
        )
        self._thread.start()
        self.call(self.server.start())

    def call(self, coro: Any, timeout: float = WAIT) -> Any:
        """Run a coroutine on the server's loop and wait for its result."""
        future: Future[Any] = asyncio.run_coroutine_threadsafe(coro, self.loop)
        return future.result(timeout)

    def sync(self, fn: Callable[[], T], timeout: float = WAIT) -> T:
        """Run ``fn`` on the server's loop (to read server state safely)."""

        async def run() -> T:
            return fn()

        result: T = self.call(run(), timeout)
        return result

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.port}/"

    def close(self) -> None:
        try:
            self.call(self.server.close())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(10)
            self.loop.close()


class Browser:
    """One headless Chromium with its own profile (its own localStorage, so its own
    player), plus waits on conditions with a generous bound."""

    def __init__(
        self, width: int = 1280, height: int = 900, mobile: bool = False, lang: str | None = None
    ) -> None:
        self.profile = tempfile.mkdtemp(prefix="gridhall-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        if lang is not None:  # the browser's language (navigator.languages, Accept-Language)
            options.add_argument(f"--lang={lang}")
            options.add_experimental_option("prefs", {"intl.accept_languages": lang})
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(WAIT)
        if mobile:
            self.emulate_phone(width, height)

    def emulate_phone(self, width: int, height: int) -> None:
        """A touch screen of ``width`` CSS pixels (touch events, coarse pointer)."""
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
        )
        self.driver.execute_cdp_cmd(
            "Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5}
        )
        self.driver.execute_cdp_cmd(
            "Emulation.setEmitTouchEventsForMouse", {"enabled": True, "configuration": "mobile"}
        )

    # ---- finding and waiting --------------------------------------------------------------
    def find(self, css: str) -> WebElement:
        return self.driver.find_element("css selector", css)

    def find_all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements("css selector", css)

    def wait(self, condition: Callable[[], T], what: str, timeout: float = WAIT) -> T:
        """Poll ``condition`` until it returns something truthy; fail naming ``what``."""
        end = time.monotonic() + timeout
        last: Exception | None = None
        while time.monotonic() < end:
            try:
                value = condition()
                if value:
                    return value
            except (StaleElementReferenceException, WebDriverException) as exc:
                last = exc
            time.sleep(0.05)
        raise AssertionError(
            f"timed out waiting for {what}"
            + (f" (last error: {last.__class__.__name__})" if last else "")
            + f"; console: {self.console()[-5:]}"
        )

    def wait_css(self, css: str, timeout: float = WAIT) -> WebElement:
        def visible() -> WebElement | None:
            for element in self.find_all(css):
                if element.is_displayed():
                    return element
            return None

        return self.wait(visible, f"a visible {css!r}", timeout)

    def js(self, script: str, *args: Any) -> Any:
        return self.driver.execute_script(script, *args)

    def console(self, level: str | None = None) -> list[str]:
        """Console lines logged since the last call (of ``level`` only, if given)."""
        try:
            entries = self.driver.get_log("browser")
        except WebDriverException:
            return []
        return [e["message"] for e in entries if level is None or e["level"] == level]

    # ---- the client's hooks (docs/web-client.md) -------------------------------------
    def cell(self, x: int, y: int) -> WebElement:
        return self.find(f"[data-board] [data-x='{x}'][data-y='{y}']")

    def cells(self, attribute: str) -> dict[tuple[int, int], str | None]:
        """Every board cell's ``data-<attribute>``, read in one round trip."""
        rows = self.js(
            "return [...document.querySelectorAll('[data-board] [data-x][data-y]')]"
            ".map(c => [+c.dataset.x, +c.dataset.y, c.getAttribute(arguments[0])]);",
            f"data-{attribute}",
        )
        return {(int(x), int(y)): value for x, y, value in rows}

    def status(self) -> str:
        return str(self.find("[data-status]").text)

    def status_state(self) -> str:
        return str(self.find("[data-status]").get_attribute("data-status"))

    def screenshot(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(path))

    def quit(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


# ---- flows every browser test uses --------------------------------------------------------


def open_lobby(browser: Browser, server: ServerThread, name: str) -> None:
    """Open the server's page with ``?name=`` and wait until the lobby is connected."""
    browser.driver.get(f"{server.url}?name={name}")
    browser.wait(
        lambda: browser.find("#connection").get_attribute("data-connection") == "connected",
        f"{name}'s page to connect",
    )
    browser.wait_css("#lobby")


def choose(browser: Browser, name: str, value: str) -> None:
    """Pick ``value`` in the create form's <select name=...>, as a person would."""
    from selenium.webdriver.support.select import Select

    Select(browser.find(f"#create-form [name='{name}']")).select_by_value(value)


def create_room(browser: Browser, game: str, **selects: str) -> str:
    """Create a room from the lobby form; returns its code once the board shows."""
    choose(browser, "game", game)
    for name, value in selects.items():
        choose(browser, name.replace("_", "-"), value)
    browser.find("#create-form button[type=submit]").click()
    browser.wait_css(f"[data-board='{game}']")
    return str(browser.wait(lambda: browser.find("[data-room-code]").text, "the room code"))


def invite_link(browser: Browser) -> str:
    return str(
        browser.wait(lambda: browser.find("#invite-link").get_attribute("value"), "the invite link")
    )


def join_by_link(browser: Browser, link: str, name: str, game: str) -> None:
    """Open an invite link (with ``?name=`` put before the ``#``) and wait for the board."""
    base, _, code = link.partition("#")
    browser.driver.get(f"{base}?name={name}#{code}")
    browser.wait_css(f"[data-board='{game}']")
