"""The Tk client's link dialog: one window shows a code, another types it and becomes
the same player (a real server, two real windows on Xvfb)."""

from __future__ import annotations

from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from tests.tk.driver import Opponent, Pump, ServerThread, press, snap
from tests.wsclient import WsClient


def test_a_code_shown_in_one_window_makes_another_the_same_player(
    make_app: Callable[[str], TkApp], pump: Pump
) -> None:
    laptop, phone = make_app("ann"), make_app("phone")
    press(laptop.linking)
    pump.until(lambda: laptop.link_dialog is not None, "the link dialog to open")
    dialog = laptop.link_dialog
    assert dialog is not None and dialog.show_button is not None
    press(dialog.show_button)
    pump.until(lambda: "-" in str(dialog.code.cget("text")), "a code to show")
    code = str(dialog.code.cget("text"))
    assert "min" in str(dialog.info.cget("text"))

    press(phone.linking)
    pump.until(lambda: phone.link_dialog is not None, "the other link dialog")
    other = phone.link_dialog
    assert other is not None
    other.entry.insert(0, "nope")
    press(other.use_button)  # not a code: said in the dialog, nothing sent
    assert "8" in str(other.error.cget("text")) and phone.link_dialog is other
    other.entry.delete(0, "end")
    other.entry.insert(0, code.lower())
    press(other.use_button)
    pump.until(
        lambda: snap(phone).player == snap(laptop).player and snap(phone).connected,
        "the phone to become ann",
    )
    assert phone.link_dialog is None and phone.session.name == "ann"
    pump.until(
        lambda: "another device" in str(laptop.connection.cget("text")),
        "the laptop to say it plays elsewhere now",
    )


def test_the_dialog_lists_the_devices_and_signs_one_out_then_this_one(
    make_app: Callable[[str], TkApp],
    make_opponent: Callable[[str], Opponent],
    pump: Pump,
    server: ServerThread,
) -> None:
    """Ann's phone (a plain client, which names no device) gives the Tk window a code:
    the dialog lists both devices, this one marked; the phone is signed out (its token
    stops at once), then this window, which says so and waits to play as someone new."""
    phone = make_opponent("Ann")
    phone.send("link-code")
    code = phone.expect("link-code")["code"]
    phone_token = phone.client.token
    window = make_app("window")
    pump.until(lambda: snap(window).connected, "the window to connect")
    window.session.link_with(code)
    pump.until(lambda: snap(window).player == phone.player, "the window to become Ann")
    press(window.linking)
    pump.until(lambda: window.link_dialog is not None, "the link dialog")
    dialog = window.link_dialog
    assert dialog is not None
    devices = dialog.devices
    pump.until(lambda: len(devices.table.get_children()) == 2, "both devices listed")
    shown = [devices.table.item(iid, "values") for iid in devices.table.get_children()]
    assert shown[0][0].startswith("Tk · ") and shown[0][0].endswith("★")
    assert shown[0][1] == "this device, now" and shown[1][0] == "an unnamed device"
    assert str(devices.sign_out.cget("state")) == "disabled"  # nothing selected yet
    devices.table.selection_set(devices.table.get_children()[1])
    pump.until(lambda: str(devices.sign_out.cget("state")) == "normal", "the button on")
    press(devices.sign_out)
    pump.until(lambda: len(devices.table.get_children()) == 1, "the phone signed out")
    assert server.call(player_of(server.url, phone_token)) != phone.player
    token = window.session.token
    assert token is not None
    devices.table.selection_set(devices.table.get_children()[0])
    pump.until(lambda: str(devices.sign_out.cget("state")) == "normal", "the button on again")
    press(devices.sign_out)
    pump.until(lambda: "signed out" in str(window.connection.cget("text")), "the window to say so")
    assert window.session.token is None
    assert server.call(player_of(server.url, token)) != phone.player


async def player_of(url: str, token: str) -> str:
    """Whom ``token`` resumes now (a new player once it no longer works)."""
    async with WsClient.connect(url, "x", token) as client:
        return client.player
