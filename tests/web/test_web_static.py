"""The HTTP side of the browser client, without a browser: what the game port serves
to a plain GET, what it refuses, and that WebSocket upgrades and /healthz still work."""

from __future__ import annotations

import asyncio
import fnmatch
import hashlib
import json
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from gridhall.server import cli
from gridhall.server.io.app import GameServer
from gridhall.server.io.web import CONTENT_TYPES, catalogs, csp, site
from tests.conftest import url_of
from tests.wsclient import WsClient

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "client" / "web"


async def get(server: GameServer, path: str, *headers: str) -> tuple[int, dict[str, str], bytes]:
    """One raw HTTP/1.1 GET; the server closes the connection after answering."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    extra = "".join(f"{h}\r\n" for h in headers)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = {k.strip().lower(): v.strip() for k, v in (ln.split(":", 1) for ln in lines)}
    return int(status_line.split()[1]), fields, body


async def test_root_serves_the_page_with_a_content_security_policy(server: GameServer) -> None:
    status, headers, body = await get(server, "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert int(headers["content-length"]) == len(body)
    assert b'<script type="module" src="/js/main.js"></script>' in body
    policy = headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";")}
    assert directives["default-src"] == ["'self'"] and directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"] and directives["frame-ancestors"] == ["'none'"]
    assert directives["connect-src"] == ["'self'", "ws://127.0.0.1", "wss://127.0.0.1"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["cache-control"] == "no-cache" and headers["etag"].startswith('"')
    status, _, same = await get(server, "/?name=Ann")
    assert status == 200 and same == body


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/index.html", "text/html; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/js/main.js", "text/javascript; charset=utf-8"),
        ("/js/boards/linkmatch.js", "text/javascript; charset=utf-8"),
        ("/vendor/msgpack.min.js", "text/javascript; charset=utf-8"),
        ("/vendor/qrcode.mjs", "text/javascript; charset=utf-8"),
        ("/vendor/msgpack.LICENSE", "text/plain; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ],
)
async def test_each_file_has_its_content_type(server: GameServer, path: str, kind: str) -> None:
    status, headers, body = await get(server, path)
    assert (status, headers["content-type"]) == (200, kind)
    assert body == (WEB / path.lstrip("/")).read_bytes()
    assert headers["content-security-policy"] == csp("127.0.0.1")


@pytest.mark.parametrize(
    ("host", "connect"),
    [
        ("192.168.1.20:8765", "'self' ws://192.168.1.20:8765 wss://192.168.1.20:8765"),
        ("[fe80::1]:8765", "'self' ws://[fe80::1]:8765 wss://[fe80::1]:8765"),
        ("gridhall.lan", "'self' ws://gridhall.lan wss://gridhall.lan"),
        ("evil.example 'unsafe-inline'", "'self'"),
        ("a;script-src *", "'self'"),
        (None, "'self'"),
    ],
)
def test_the_policy_names_only_a_well_formed_host(host: str | None, connect: str) -> None:
    assert f"connect-src {connect};" in csp(host)
    assert "script-src 'self';" in csp(host)


async def test_an_unchanged_file_revalidates_with_304(server: GameServer) -> None:
    _, headers, _ = await get(server, "/js/session.js")
    status, again, body = await get(server, "/js/session.js", f"If-None-Match: {headers['etag']}")
    assert (status, body) == (304, b"") and again["etag"] == headers["etag"]
    status, _, body = await get(server, "/js/session.js", 'If-None-Match: "stale"')
    assert status == 200 and body


@pytest.mark.parametrize(
    "path",
    [
        "/nope.js",
        "/js/",
        "/js",
        "/vendor/refresh.py",
        "/vendor/vendor.json",
        "/client/web/index.html",
        "/JS/main.js",
    ],
)
async def test_unknown_paths_are_404(server: GameServer, path: str) -> None:
    status, headers, body = await get(server, path)
    assert (status, body) == (404, b"not found\n")
    assert headers["content-type"].startswith("text/plain")


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/js/../../server/app.py",
        "/js/../index.html",
        "/%2e%2e/pyproject.toml",
        "/js/..%2fmain.js",
        "//etc/passwd",
        "/./index.html",
        "/vendor/../../../../../../etc/passwd",
    ],
)
async def test_traversal_is_refused(server: GameServer, path: str) -> None:
    status, _, body = await get(server, path)
    assert status == 404 and body == b"not found\n"


async def test_a_websocket_upgrade_on_root_still_plays(server: GameServer) -> None:
    async with WsClient.connect(url_of(server), "Ann") as ann:
        assert ann.player
        rooms = await ann.request("list-rooms", "rooms")
        assert rooms["rooms"] == []


async def test_healthz_still_answers(server: GameServer) -> None:
    status, _, body = await get(server, "/healthz")
    assert (status, body) == (200, b"ok\n")


def servable(path: Path) -> bool:
    return not path.name.startswith((".", "_")) and any(
        path.name.endswith(suffix) for suffix in CONTENT_TYPES
    )


def test_every_client_file_is_packaged_and_served() -> None:
    """pyproject's package-data globs cover every file the server would serve."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["gridhall.client"]
    files = [p for p in WEB.rglob("*") if p.is_file() and servable(p)]
    assert len(files) >= 15
    for path in files:
        rel = path.relative_to(ROOT / "client").as_posix()
        assert any(fnmatch.fnmatch(rel, g) and rel.count("/") == g.count("/") for g in globs), rel
    # catalogs and descriptions are made from the .po files and protocol/games
    served = set(site().assets) - {"/", "/games.json"} - set(catalogs())
    assert served == {"/" + p.relative_to(WEB).as_posix() for p in files}


async def test_games_json_serves_every_description_with_the_page_headers(
    server: GameServer,
) -> None:
    """The browser reads the games' descriptions from the server, never from its own copy."""
    from gridhall.protocol import games

    status, headers, body = await get(server, "/games.json")
    assert status == 200
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert int(headers["content-length"]) == len(body)
    assert headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-cache" and headers["etag"].startswith('"')
    data = json.loads(body)
    assert data == json.loads(json.dumps(games.to_json()))
    assert set(data["games"]) == {"gomoku", "minesweeper", "linkmatch", "reversi"}
    clocks = [v for v, _ in data["games"]["gomoku"]["form"][2]["choices"]]
    assert clocks == [None, "5+3", "10+5", "15+10", "30+20"]  # as the Python clients offer
    status, _, nothing = await get(server, "/games.json", f"If-None-Match: {headers['etag']}")
    assert status == 304 and nothing == b""


def test_vendored_files_match_their_pins() -> None:
    manifest = json.loads((WEB / "vendor" / "vendor.json").read_text("utf-8"))
    names = set()
    for pkg in manifest["packages"]:
        names.add(pkg["name"])
        where = ROOT / pkg["dir"] if "dir" in pkg else WEB / "vendor"
        body = (where / pkg["save_as"]).read_bytes()
        assert hashlib.sha256(body).hexdigest() == pkg["sha256"], pkg["name"]
        assert pkg["integrity"].startswith("sha512-") and pkg["version"]
        licence = (where / pkg["license_as"]).read_text("utf-8")
        assert ("Copyright" in licence and "copies" in licence) or licence.startswith(
            "Mozilla Public License, version 2.0"
        )
    assert names == {"@msgpack/msgpack", "qrcode-generator", "axe-core"}


def test_the_server_prints_the_browser_link(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.0.2.7"])
    server = SimpleNamespace(
        port=8765,
        config=SimpleNamespace(name="hall", db="/tmp/g.db", host="0.0.0.0"),
        hub=SimpleNamespace(lobby=SimpleNamespace(rooms={})),
        admin=SimpleNamespace(token="t" * 32),
    )
    cli.announce(server)  # type: ignore[arg-type]
    out = capsys.readouterr().out
    assert "http://192.0.2.7:8765/" in out
    assert "gridhall --server 192.0.2.7:8765" in out
