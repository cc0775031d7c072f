"""The catalogs the browser loads: ``GET /i18n/index.json`` and ``/i18n/<lang>.json``,
served like the client's other files (same headers, same policy), 404 for the rest."""

from __future__ import annotations

import json

import pytest

from gridhall.protocol import i18n
from gridhall.server.io.net.app import GameServer
from tests.web.test_web_static import get


async def test_the_index_lists_every_language_named_in_itself(server: GameServer) -> None:
    status, headers, body = await get(server, "/i18n/index.json")
    assert status == 200
    assert headers["content-type"] == "application/json; charset=utf-8"
    index = json.loads(body)
    assert index["source"] == "en"
    assert index["languages"] == [
        {"lang": "en", "name": "English"},
        {"lang": "zh_Hans", "name": "简体中文"},
        {"lang": "vi", "name": "Tiếng Việt"},
    ]


@pytest.mark.parametrize("lang", ["zh_Hans", "vi", "en"])
async def test_a_language_is_served_as_its_catalog(server: GameServer, lang: str) -> None:
    status, headers, body = await get(server, f"/i18n/{lang}.json")
    assert status == 200
    assert json.loads(body) == i18n.catalog(lang).to_json()
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in headers["content-security-policy"]
    assert headers["cache-control"] == "no-cache"
    status, _, again = await get(server, f"/i18n/{lang}.json", f"If-None-Match: {headers['etag']}")
    assert status == 304 and again == b""


async def test_the_chinese_catalog_holds_plural_forms_as_lists(server: GameServer) -> None:
    _, _, body = await get(server, "/i18n/zh_Hans.json")
    catalog = json.loads(body)
    assert catalog["plural_categories"] == ["other"]
    assert catalog["messages"]["Resign"] == "认输"
    assert catalog["messages"]["{n} room open"] == ["{n} 个房间开放中"]


@pytest.mark.parametrize(
    "path",
    [
        "/i18n/fr.json",
        "/i18n/zh_Hant.json",
        "/i18n/vi",
        "/i18n/../index.html",
        "/i18n/",
        "/i18n/VI.json",
        "/i18n/vi.json.bak",
        "/i18n/%2e%2e/app.css",
    ],
)
async def test_an_unknown_language_is_not_found(server: GameServer, path: str) -> None:
    status, headers, body = await get(server, path)
    assert status == 404 and body == b"not found\n"
    assert headers["content-type"] == "text/plain; charset=utf-8"
