"""Browser tests: a real server (in a thread, port 0) and real headless Chromium.

Two browsers (two profiles, so two players) start once for the whole run; every test
gets a fresh server, whose new port is a new origin with empty storage. Set
``GRIDHALL_SCREENSHOTS=docs/screenshots`` to refresh the README's pictures.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.web.harness import Browser, ServerThread, browser_missing


def _browser() -> Iterator[Browser]:
    missing = browser_missing()
    if missing is not None:  # the only skip: CI installs Debian's chromium and chromium-driver
        pytest.skip(f"browser tests need Chromium: {missing}")
    browser = Browser()
    yield browser
    browser.quit()


@pytest.fixture(scope="session")
def ann() -> Iterator[Browser]:
    yield from _browser()


@pytest.fixture(scope="session")
def bob() -> Iterator[Browser]:
    yield from _browser()


@pytest.fixture
def web_server(tmp_path: Path, ann: Browser, bob: Browser) -> Iterator[ServerThread]:
    server = ServerThread(tmp_path / "gridhall.db")
    for browser in (ann, bob):
        browser.console()  # start with an empty log
    yield server
    errors = [line for browser in (ann, bob) for line in browser.console(level="SEVERE")]
    for browser in (ann, bob):  # close the pages' sockets before the server goes
        browser.driver.get("about:blank")
    server.close()
    assert not errors, f"the pages logged errors: {errors}"


@pytest.fixture
def shots() -> Path | None:
    """Where to save screenshots for the README, if asked to."""
    target = os.environ.get("GRIDHALL_SCREENSHOTS")
    return Path(target) if target else None
