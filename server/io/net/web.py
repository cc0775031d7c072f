"""The browser client's files, served over plain HTTP on the game port.

``GET /`` (or any packaged path) without ``Upgrade: websocket`` gets a file from
``gridhall.client``'s ``web/`` folder, and ``GET /games.json`` the games' descriptions
(:mod:`gridhall.protocol.games`); everything else is left to the WebSocket
handshake. The files are read once into a fixed allow-list keyed by URL path, so
a request can only ever name one of them: there is no file-system lookup at
request time and therefore no directory traversal to guard against.
"""

from __future__ import annotations

import email.utils
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from http import HTTPStatus
from importlib import resources
from importlib.resources.abc import Traversable

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from gridhall.protocol import games, i18n

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".LICENSE": "text/plain; charset=utf-8",
}
"""What is served, by file-name ending; other packaged files (scripts, notes) are not."""
JSON = "application/json; charset=utf-8"

ALLOWED_METHODS = ("GET", "HEAD")
"""The only methods the web client's files answer; others get 405 with ``Allow``."""

CSP = (
    "default-src 'self'; connect-src {connect}; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
"""Only our own files run and only our own server is reached. Chromium (and every
CSP level 3 browser) counts the page's own ``ws://`` origin as ``'self'``; older
WebKit does not, so the page's host is also named with both WebSocket schemes."""

HOST = re.compile(r"(?:[A-Za-z0-9.-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?")
"""A Host header that is a plain name, IPv4 or [IPv6] address, with an optional port."""


def csp(host: str | None, nodes: Iterable[str] = ()) -> str:
    """The policy for a page requested with ``Host: host``; ``nodes``: the other nodes
    of its cluster (``ws://host:port/``), where the page's socket may fail over to."""
    connect = "'self'"
    if host and HOST.fullmatch(host):
        connect += f" ws://{host} wss://{host}"
    for node in nodes:
        scheme, _, rest = node.partition("://")
        if scheme in ("ws", "wss") and HOST.fullmatch(rest.rstrip("/")):
            connect += f" {scheme}://{rest.rstrip('/')}"
    return CSP.format(connect=connect)


SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
)


@dataclass(frozen=True)
class Asset:
    """One servable file, held in memory (the whole client is a few hundred KiB)."""

    body: bytes
    content_type: str
    etag: str


def _asset(body: bytes, content_type: str) -> Asset:
    return Asset(body, content_type, '"' + hashlib.sha256(body).hexdigest()[:20] + '"')


def catalogs() -> dict[str, Asset]:
    """The message catalogs for the browser: ``/i18n/index.json`` (the languages offered,
    each named in itself) and ``/i18n/<lang>.json`` per language (``Catalog.to_json``),
    made once from the same ``.po`` files the Python clients read."""
    index = {
        "source": i18n.SOURCE,
        "languages": [{"lang": lang, "name": name} for lang, name in i18n.LANGUAGES.items()],
    }
    found = {"/i18n/index.json": _json(index)}
    for lang in i18n.LANGUAGES:
        found[f"/i18n/{lang}.json"] = _json(i18n.catalog(lang).to_json())
    return found


def _content_type(name: str) -> str | None:
    for suffix, kind in CONTENT_TYPES.items():
        if name.endswith(suffix):
            return kind
    return None


def _json(data: object) -> Asset:
    """``data`` as a compact UTF-8 JSON asset."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return _asset(body, JSON)


def _walk(folder: Traversable, prefix: str) -> dict[str, Asset]:
    found: dict[str, Asset] = {}
    for entry in folder.iterdir():
        if entry.name.startswith((".", "_")):
            continue
        path = f"{prefix}/{entry.name}"
        if entry.is_dir():
            found.update(_walk(entry, path))
            continue
        kind = _content_type(entry.name)
        if kind is None:
            continue
        body = entry.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        found[path] = Asset(body, kind, etag)
    return found


class StaticSite:
    """URL path -> packaged file; answers a request or says it is not ours."""

    def __init__(self, root: Traversable) -> None:
        self.assets = _walk(root, "") if root.is_dir() else {}
        if "/index.html" in self.assets:
            self.assets["/"] = self.assets["/index.html"]
            self.assets.update(catalogs())
        self.assets["/games.json"] = _json(games.to_json())  # every game described once

    @classmethod
    def packaged(cls) -> StaticSite:
        """The files installed with ``gridhall.client`` (``client/web/``)."""
        return cls(resources.files("gridhall.client") / "web")

    def respond(
        self, request: Request, extra: Mapping[str, Asset] | None = None, nodes: Iterable[str] = ()
    ) -> Response | None:
        """A response for a plain GET or HEAD (405 for other methods); None for
        WebSocket upgrades (the handshake goes on). ``extra``: this server's own
        answers for some paths (its ``/games.json`` with its engines); ``nodes``: its
        cluster's nodes, which its pages may connect to."""
        method = getattr(request, "method", "GET")  # websockets < 15 parses GET only
        if method not in ALLOWED_METHODS:
            refusal = _plain(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed\n")
            refusal.headers["Allow"] = ", ".join(ALLOWED_METHODS)
            return refusal
        if method == "HEAD":
            return headers_only(self._get(request, extra, nodes))
        if is_upgrade(request):
            return None
        return self._get(request, extra, nodes)

    def _get(
        self, request: Request, extra: Mapping[str, Asset] | None = None, nodes: Iterable[str] = ()
    ) -> Response:
        path = request.path.split("?", 1)[0].split("#", 1)[0]
        asset = (extra or {}).get(path) or self.assets.get(path)
        if asset is None:
            return _plain(HTTPStatus.NOT_FOUND, "not found\n")
        headers = Headers(
            [
                ("Date", email.utils.formatdate(usegmt=True)),
                ("Connection", "close"),
                ("Cache-Control", "no-cache"),  # revalidate by ETag: upgrades show at once
                ("ETag", asset.etag),
                ("Content-Security-Policy", csp(request.headers.get("Host"), nodes)),
                *SECURITY_HEADERS,
            ]
        )
        if asset.etag in _etags(request.headers.get("If-None-Match", "")):
            headers["Content-Length"] = "0"
            return Response(
                HTTPStatus.NOT_MODIFIED.value, HTTPStatus.NOT_MODIFIED.phrase, headers, b""
            )
        headers["Content-Type"] = asset.content_type
        headers["Content-Length"] = str(len(asset.body))
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, asset.body)


def headers_only(response: Response) -> Response:
    """The answer to HEAD: GET's status and headers (Content-Length included), no body."""
    return Response(response.status_code, response.reason_phrase, response.headers, b"")


def _etags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}


def _plain(status: HTTPStatus, text: str) -> Response:
    body = text.encode()
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(body))),
            ("Content-Security-Policy", csp(None)),
            *SECURITY_HEADERS,
        ]
    )
    return Response(status.value, status.phrase, headers, body)


@cache
def site() -> StaticSite:
    """The packaged site, read on first use and kept for the process's life."""
    return StaticSite.packaged()


def is_upgrade(request: Request) -> bool:
    """A WebSocket upgrade (a GET asking for one)."""
    return (
        getattr(request, "method", "GET") == "GET"
        and request.headers.get("Upgrade", "").strip().lower() == "websocket"
    )


def respond(
    request: Request, extra: Mapping[str, Asset] | None = None, nodes: Iterable[str] = ()
) -> Response | None:
    """``process_request`` helper: serve the browser client, or let the upgrade through.
    An upgrade goes on without the site being read: a server only game clients reach
    never reads it (its files and three languages' catalogs, parsed once, took a third
    of a second of the event loop at the first connection, and their memory)."""
    if is_upgrade(request):
        return None
    return site().respond(request, extra, nodes)


def games_json(description: object) -> Asset:
    """A ``/games.json`` of this server's own (its descriptions with its engines)."""
    return _json(description)
