"""A server's name from the LAN is data: the connect screen shows ``[/]x`` literally
(Rich markup crashed it), and neither it nor ``gridhall --find`` passes on escape
sequences (a title set, a screen clear, an OSC 52 clipboard write)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from textual.widgets import OptionList

from gridhall.client import cli
from gridhall.client.discovery import Browser, FoundServer
from gridhall.client.tui.connect import ConnectApp
from gridhall.server.io.lan import discovery as server_discovery
from gridhall.server.io.lan.discovery import Advertiser
from tests.hostile import EVIL, has_control

WAIT = 30.0


async def test_the_connect_screen_shows_a_markup_name_as_text() -> None:
    evil = FoundServer(
        key="evil._gridhall._tcp.local.",
        name=EVIL,
        host="127.0.0.1",
        port=4567,
        protocol=None,
        rooms=1,
    )
    app = ConnectApp("localhost:8765", Browser(interfaces=["127.0.0.1"]))
    async with app.run_test(size=(100, 30)) as pilot:
        app.show_servers([evil])
        await pilot.pause()
        found = app.query_one("#found", OptionList)
        prompt = str(found.get_option_at_index(0).prompt)
        assert "[/]x" in prompt and "[bold]b[/bold]" in prompt and not has_control(prompt)
        for strip in app.screen._compositor.render_strips():
            assert not has_control(strip.text)
        assert app.is_running


@pytest.mark.usefixtures("loopback_multicast")
async def test_find_prints_an_announced_name_without_control_characters(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tag = uuid.uuid4().hex[:8]
    # zeroconf refuses control characters in the instance label; a hostile announcer puts
    # them in the TXT record's name, which is what clients list
    monkeypatch.setattr(server_discovery, "instance_name", lambda name: f"hostile {tag}")
    advertiser = Advertiser(f"{tag} {EVIL}", 4568, ["127.0.0.1"])
    advertiser.start()
    browser = Browser(interfaces=["127.0.0.1"]).start()
    try:
        deadline = asyncio.get_running_loop().time() + WAIT
        while not any(tag in s.name for s in browser.servers()):
            assert asyncio.get_running_loop().time() < deadline, "the announcement never came"
            await asyncio.sleep(0.05)
        seen = next(s for s in browser.servers() if tag in s.name)
        assert "[/]x" in seen.name and not has_control(seen.name)
        assert await asyncio.to_thread(cli.find_servers, 3.0) == 0
    finally:
        browser.stop()
        await advertiser.close()
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if tag in ln)
    assert "[/]x" in line and "127.0.0.1:4568" in line
    assert not has_control(out.replace("\n", ""))
