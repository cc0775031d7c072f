"""The Tk client's link dialog: one window shows a code, another types it and becomes
the same player (a real server, two real windows on Xvfb)."""

from __future__ import annotations

from collections.abc import Callable

from gridhall.client.tk.app import TkApp
from tests.tk.driver import Pump, press, snap


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
