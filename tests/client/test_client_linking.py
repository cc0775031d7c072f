"""Link codes in the shared session and the terminal client, against a real server."""

from __future__ import annotations

import platform
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable, Input, Label

from gridhall import protocol as p
from gridhall.client.devices import device_rows, this_device
from gridhall.client.linking import code_lines, minutes_left, parse_code
from gridhall.client.messages import Connection, Event, Refused
from gridhall.client.tui.app import GridhallApp
from gridhall.client.tui.linking import LinkScreen
from gridhall.protocol import i18n
from tests.client.pilots import run_app
from tests.client.test_client_session import FAST, running
from tests.client.test_client_tui import SIZE, press
from tests.waiting import ui_until, until
from tests.wsclient import WsClient


def test_typed_codes_are_checked_before_they_are_sent() -> None:
    assert parse_code(" k7mq-2d9x ") == "K7MQ2D9X"
    for bad in ("", "K7MQ-2D9", "K7MQ-2D9I", "K7MQ-2D9X-1"):
        with pytest.raises(ValueError, match=r"\w+ \w+ \w+"):  # a sentence
            parse_code(bad)
    assert minutes_left(1000.0 + 541, now=1000.0) == 10
    assert minutes_left(999.0, now=1000.0) == 0
    assert "10" in code_lines("K7MQ-2D9X", 1600.0, now=1000.0)[1]


def test_a_devices_kind_is_named_in_the_viewers_language_its_platform_as_given() -> None:
    assert this_device("tk") == {"kind": "tk", "platform": platform.system()}
    answer = {
        "devices": [
            {"device": "a", "kind": "tk", "platform": "Linux", "name": "Tk · Linux"},
            {"device": "b", "kind": "browser", "platform": None, "name": "Browser"},
            {"device": "c", "kind": "gridhall-ios", "platform": "iPadOS\x1b[2J"},
            {"device": "d", "kind": None, "platform": None, "name": "Ann's\u202e phone"},
            {"device": "e", "name": None},
        ]
    }
    i18n.set_language("zh_Hans")
    try:
        names = [row.name for row in device_rows(answer)]
        unnamed = i18n.gettext("an unnamed device")
    finally:
        i18n.set_language(i18n.SOURCE)
    assert names == [
        "Tk 窗口 · Linux",  # the kind in Chinese, the platform as the device gave it
        "浏览器",
        "gridhall-ios · iPadOS\ufffd[2J",  # a kind this client does not know: its code
        "Ann's\ufffd phone",  # an older client's own name: data, made plain
        unnamed,
    ]


def issued(seen: list[Event]) -> list[p.LinkCodeIssued]:
    return [m for m in seen if isinstance(m, p.LinkCodeIssued)]


async def test_a_second_session_becomes_the_first_and_the_first_stands_aside(
    server_url: str,
) -> None:
    kept: list[str] = []
    async with (
        running(server_url, "ann") as (a, seen_a),
        running(server_url, "phone") as (b, seen_b),
    ):
        assert "link" in a.features
        b.keep_token = kept.append
        a.request_link_code()
        await until(lambda: issued(seen_a))
        code = issued(seen_a)[0].code
        first = (a.player, a.token)
        b.link_with(parse_code(code))
        await until(lambda: b.player == first[0] and b.connected)
        assert b.name == "ann" and b.token != first[1] and kept[-1] == b.token
        await until(lambda: any(isinstance(m, Connection) and m.replaced for m in seen_a))
        assert not a.connected  # it waits to be asked rather than taking it back

        b.link_with(parse_code(code))  # used: refused, and b goes on as itself
        await until(lambda: any(isinstance(m, Refused) and m.code == "bad-link" for m in seen_b))
        refusal = [m for m in seen_b if isinstance(m, Refused)][-1]
        assert refusal.request == "link"
        await until(lambda: b.connected)
        assert b.player == first[0]


async def test_the_terminal_client_shows_a_code_and_takes_one(server_url: str) -> None:
    async with AsyncExitStack() as stack:
        laptop = GridhallApp(server_url, "ann", backoff=FAST)
        pilot = await run_app(stack, laptop, SIZE)
        await ui_until(pilot, lambda: laptop.session.connected)
        await pilot.press("ctrl+o")
        await ui_until(pilot, lambda: isinstance(laptop.screen, LinkScreen))
        await press(pilot, "#link-show")

        def code() -> str:
            return str(laptop.screen.query_one("#link-code", Label).render())

        await ui_until(pilot, lambda: "-" in code())
        assert "min" in str(laptop.screen.query_one("#link-info", Label).render())

        phone = GridhallApp(server_url, "phone", backoff=FAST)
        pilot2 = await run_app(stack, phone, SIZE)
        await ui_until(pilot2, lambda: phone.session.connected)
        other = phone.session.player
        await pilot2.press("ctrl+o")
        await ui_until(pilot2, lambda: isinstance(phone.screen, LinkScreen))
        await pilot2.click("#link-input")
        await pilot2.press(*"ZZ", "enter")  # not a code: said here, nothing sent
        assert "8" in str(phone.screen.query_one("#link-error", Label).render())
        phone.screen.query_one("#link-input", Input).value = code().lower()
        await press(pilot2, "#link-use")
        await ui_until(
            pilot2,
            lambda: phone.session.player == laptop.session.player and phone.session.connected,
        )
        assert phone.session.player != other and phone.session.name == "ann"
        await ui_until(pilot, lambda: "another device" in laptop.sub_title)


async def test_gridhall_link_code_starts_as_the_other_device(
    server_url: str, tmp_path: Path
) -> None:
    async with running(server_url, "ann") as (a, seen_a):
        a.request_link_code()
        await until(lambda: issued(seen_a))
        code = parse_code(issued(seen_a)[0].code)
        app = GridhallApp(server_url, "phone", backoff=FAST, link=code)
        async with app.run_test(size=SIZE) as pilot:
            # the title follows the connection's status event, handled after `connected`
            await ui_until(pilot, lambda: app.session.connected and "ann" in app.sub_title)
            assert app.session.player == a.player


def test_the_link_option_refuses_a_malformed_code(capsys: Any) -> None:
    from gridhall.client.cli import parse_args

    assert parse_args(["--link", "k7mq-2d9x"]).link == "K7MQ2D9X"
    with pytest.raises(SystemExit):
        parse_args(["--link", "nope"])
    assert "K7MQ-2D9X" in capsys.readouterr().err


async def test_the_terminal_client_lists_devices_and_signs_one_out_then_itself(
    server_url: str,
) -> None:
    """Ann's phone (a plain client) gives the terminal a code: the link dialog lists
    both devices, this one marked; the phone is signed out (its token stops at once),
    then this terminal, which says so and forgets its token."""
    async with WsClient.connect(server_url) as phone:
        await phone.send("hello", protocol=1, name="Ann", device="Phone")
        await phone.expect("welcome")
        code = (await phone.request("link-code", "link-code"))["code"]
        phone_id, phone_token = phone.received[0]["player"], phone.received[0]["token"]
    app = GridhallApp(server_url, "x", backoff=FAST, link=parse_code(code))
    async with app.run_test(size=SIZE) as pilot:
        await ui_until(pilot, lambda: app.session.connected and app.session.player == phone_id)
        await pilot.press("ctrl+o")
        await ui_until(pilot, lambda: isinstance(app.screen, LinkScreen))
        table = app.screen.query_one("#devices", DataTable)
        await ui_until(pilot, lambda: table.row_count == 2)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(2)]
        assert rows[0][0].startswith("Terminal · ") and rows[0][0].endswith("★")
        assert rows[0][1] == "this device, now" and rows[1][0] == "Phone"
        table.move_cursor(row=1)
        await press(pilot, "#device-sign-out")
        await ui_until(pilot, lambda: table.row_count == 1)
        assert await player_of(server_url, phone_token) != phone_id
        mine = app.session.token
        assert mine is not None
        table.move_cursor(row=0)
        await press(pilot, "#device-sign-out")
        await ui_until(pilot, lambda: "signed out" in str(app.sub_title))
        assert app.session.token is None and not app.session.connected
    assert await player_of(server_url, mine) != phone_id


async def player_of(url: str, token: str) -> str:
    """Whom ``token`` resumes now (a new player once it no longer works)."""
    async with WsClient.connect(url, "x", token) as client:
        return client.player
