"""The terminal client's connect screen lists the servers found on this network
(on 127.0.0.1 here) and joins one by enter; a typed address works too; and the
client remembers a server only once it has answered."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
from textual.widgets import Input, Label, OptionList

from gridhall.client import cli, config
from gridhall.client.discovery import Browser
from gridhall.client.messages import Connection
from gridhall.client.tui.connect import ConnectApp
from gridhall.server.io.lan.discovery import Advertiser
from tests.waiting import ui_until

WAIT = 30.0
SIZE = (100, 30)
SNAPSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screens"


def snapshot(app: ConnectApp, name: str) -> None:
    """Save an SVG and a text capture to docs/screens when GRIDHALL_SNAPSHOTS=1."""
    if os.environ.get("GRIDHALL_SNAPSHOTS") == "1":
        app.save_screenshot(str(SNAPSHOTS / f"{name}.svg"))
        text = "\n".join(s.text.rstrip() for s in app.screen._compositor.render_strips())
        (SNAPSHOTS / f"{name}.txt").write_text(text + "\n", "utf-8")


@pytest.mark.usefixtures("loopback_multicast")
async def test_connect_screen_lists_found_servers_and_enter_joins_one() -> None:
    name = f"Kitchen hall {uuid.uuid4().hex[:4]}"
    advertiser = Advertiser(name, 4567, ["127.0.0.1"])
    advertiser.start()
    app = ConnectApp("localhost:8765", Browser(interfaces=["127.0.0.1"]))
    try:
        async with app.run_test(size=SIZE) as pilot:
            found = app.query_one("#found", OptionList)
            await ui_until(
                pilot, lambda: any(s.name == name for s in app.found), "the server listed"
            )
            index = next(i for i, s in enumerate(app.found) if s.name == name)
            assert f"{name}  127.0.0.1:4567 · 0 rooms open" in str(
                found.get_option_at_index(index).prompt
            )
            assert "press enter" in str(app.query_one("#found-note", Label).render())
            found.focus()
            found.highlighted = index
            await pilot.pause()
            snapshot(app, "connect")
            await pilot.press("enter")
            await ui_until(pilot, lambda: app.return_value is not None, "the screen to close")
    finally:
        await advertiser.close()
    assert app.return_value == "127.0.0.1:4567"


async def test_connect_screen_takes_a_typed_address_and_refuses_a_bad_one() -> None:
    app = ConnectApp("localhost:8765", Browser(interfaces=["127.0.0.1"]))
    async with app.run_test(size=SIZE) as pilot:
        address = app.query_one("#address", Input)
        assert address.value == "localhost:8765"  # the last server, ready to take
        address.value = "kitchen:99999"
        await pilot.click("#address")
        await pilot.press("enter")
        await pilot.pause()
        assert app.return_value is None and app.is_running  # the error is shown instead
        address.value = "kitchen:8000"
        await pilot.press("enter")
        await ui_until(pilot, lambda: app.return_value is not None, "the screen to close")
    assert app.return_value == "kitchen:8000"


def test_the_server_is_remembered_only_after_it_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRIDHALL_CONFIG_DIR", str(tmp_path))
    config.save(config.Config(name="Ann", server="home:8765"))
    listener = cli.remember_when_connected("typo-host:8765")
    listener(Connection("connecting"))
    listener(Connection("failed", reason="no such host"))
    assert config.load().server == "home:8765"
    listener(Connection("connected"))
    saved = json.loads((tmp_path / "config.json").read_text())
    assert saved == {"name": "Ann", "server": "typo-host:8765", "tokens": {}}


def test_find_says_what_to_do_when_nothing_answers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("gridhall.client.discovery.find", lambda wait: ([], None))
    assert cli.find_servers() == 1
    out = capsys.readouterr().out
    assert "No gridhall servers found" in out and "UDP port 5353" in out and "--server" in out
