"""The link dialog of the Tk client: show a code that carries this player to another
device, or type the code another device shows (``client/linking.py``); and this
player's devices, each of which can be signed out (``client/devices.py``)."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from gridhall import protocol as p
from gridhall.client.devices import FEATURE as DEVICES
from gridhall.client.devices import DeviceRow, device_rows
from gridhall.client.linking import FEATURE, code_lines, parse_code
from gridhall.client.plain import plain
from gridhall.client.session import Session
from gridhall.protocol.i18n import _


class LinkDialog(tk.Toplevel):
    """ "Use on another device" (ask for a code and show it) and "I have a code"."""

    def __init__(self, master: tk.Misc, session: Session, on_close: Callable[[], None]) -> None:
        super().__init__(master)
        self.session = session
        self.on_close = on_close
        self.title(_("Other device"))
        self.resizable(False, False)
        body = ttk.Frame(self, padding=12)
        body.pack(fill="both", expand=True)
        ttk.Label(body, text=_("Use on another device"), style="Title.TLabel").pack(anchor="w")
        self.show_button: ttk.Button | None = None
        if FEATURE in session.features:
            self.show_button = ttk.Button(
                body, text=_("Show a code"), command=session.request_link_code
            )
            self.show_button.pack(anchor="w", pady=4)
        else:
            ttk.Label(body, text=_("This server does not give link codes.")).pack(anchor="w")
        self.code = ttk.Label(body, text="", font=("TkFixedFont", 20, "bold"))
        self.code.pack(anchor="w")
        self.info = ttk.Label(body, text="", wraplength=420, justify="left")
        self.info.pack(anchor="w", pady=(0, 8))
        ttk.Label(body, text=_("I have a code"), style="Title.TLabel").pack(anchor="w")
        row = ttk.Frame(body)
        row.pack(fill="x", pady=4)
        self.entry = ttk.Entry(row, width=14)
        self.entry.pack(side="left")
        self.entry.bind("<Return>", lambda _e: self.use())
        self.use_button = ttk.Button(row, text=_("Use this code"), command=self.use)
        self.use_button.pack(side="left", padx=6)
        self.error = ttk.Label(body, text="", foreground="#ff8c69", wraplength=420)
        self.error.pack(anchor="w")
        self.devices = DeviceList(body, session)
        if DEVICES in session.features:
            self.devices.pack(fill="x", pady=(8, 0))
            session.list_devices()
        ttk.Button(body, text=_("Close"), command=self.close).pack(anchor="e", pady=(8, 0))
        self.protocol("WM_DELETE_WINDOW", self.close)
        self.bind("<Escape>", lambda _e: self.close())

    def show(self, issued: p.LinkCodeIssued) -> None:
        """The server's answer: the code, and how long it works."""
        self.code.configure(text=plain(issued.code))
        self.info.configure(text=plain("\n".join(code_lines(issued.code, issued.expires_at))))

    def use(self) -> None:
        try:
            code = parse_code(self.entry.get())
        except ValueError as exc:
            self.error.configure(text=str(exc))
            return
        self.error.configure(text="")
        self.session.link_with(code)
        self.close()

    def close(self) -> None:
        self.on_close()
        self.destroy()


class DeviceList(ttk.Frame):
    """ "Your devices": each with its name and when it was last seen; the one selected
    can be signed out (this one too: then this window plays as someone new)."""

    def __init__(self, master: tk.Misc, session: Session) -> None:
        super().__init__(master)
        self.session = session
        self.rows: dict[str, DeviceRow] = {}
        ttk.Label(self, text=_("Your devices"), style="Title.TLabel").pack(anchor="w")
        self.table = ttk.Treeview(
            self, columns=("name", "seen"), show="headings", height=5, selectmode="browse"
        )
        self.table.heading("name", text=_("Device"))
        self.table.heading("seen", text=_("Last seen"))
        self.table.column("name", width=220)
        self.table.column("seen", width=200)
        self.table.pack(fill="x", pady=4)
        self.table.bind("<<TreeviewSelect>>", lambda _e: self._selected())
        self.sign_out = ttk.Button(
            self,
            text=_("Sign out the selected device"),
            command=self.sign_out_selected,
            state="disabled",
        )
        self.sign_out.pack(anchor="w")

    def show(self, answer: p.Devices) -> None:
        """The server's list (after ``list-devices`` or a sign-out)."""
        self.table.delete(*self.table.get_children())
        self.rows = {row.device: row for row in device_rows(answer)}
        for row in self.rows.values():
            name = row.name + (" ★" if row.current else "")
            self.table.insert("", "end", iid=row.device, values=(name, row.seen))
        self._selected()

    def _selected(self) -> None:
        chosen = self.table.selection()
        self.sign_out.configure(state="normal" if chosen else "disabled")

    def sign_out_selected(self) -> None:
        chosen = self.table.selection()
        if chosen and chosen[0] in self.rows:
            self.session.sign_out_device(chosen[0])
