"""A page from another site, in a real browser, cannot open a WebSocket to the game
server (a LAN player's browser must not play or chat for them); the server's own
page and origins the operator allows can."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.web.harness import Browser, ServerThread

OPEN_SOCKET = """
const done = arguments[arguments.length - 1];
const ws = new WebSocket(arguments[0]);
ws.onopen = () => { ws.close(); done("open"); };
ws.onerror = () => done("refused");
"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server hook's name
        body = b"<!doctype html><title>another site</title><p>another site</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def other_site() -> Iterator[str]:
    """Another web site on loopback (its own port: its own origin), serving one page."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join(10)


def socket_from(browser: Browser, page: str, server: ServerThread) -> str:
    browser.driver.get(page)
    return str(
        browser.driver.execute_async_script(OPEN_SOCKET, f"ws://127.0.0.1:{server.server.port}/")
    )


def test_another_sites_page_cannot_open_a_socket_but_the_servers_own_can(
    ann: Browser, web_server: ServerThread, other_site: str
) -> None:
    assert socket_from(ann, other_site + "/", web_server) == "refused"
    assert any("403" in line for line in ann.console(level="SEVERE"))  # read: not a page error
    assert web_server.sync(lambda: len(web_server.server.connections)) == 0
    assert socket_from(ann, web_server.url, web_server) == "open"


def test_an_allowed_origin_can_open_a_socket(ann: Browser, other_site: str, tmp_path: Path) -> None:
    server = ServerThread(tmp_path / "gridhall.db", allow_origins=(other_site,))
    try:
        assert socket_from(ann, other_site + "/", server) == "open"
    finally:
        server.close()
