"""The connect screen of the window client: servers found on this network, or an
address typed in. Shown by ``gridhall --tk`` when no ``--server`` is given; the
lobby replaces it in the same window once a server is chosen."""

from __future__ import annotations

import contextlib
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk

from gridhall.client.discovery import Browser, FoundServer, search_text
from gridhall.client.tk.tables import table
from gridhall.protocol.address import AddressError, server_url
from gridhall.protocol.i18n import N_, _

POLL_MS = 300
"""How often the list looks at what the browser (on its own thread) has found."""


class ConnectFrame(ttk.Frame):
    """Lists found servers; double-click, enter or *Join* chooses one, *Connect* the
    typed address; either calls ``choose`` with the ``--server`` text."""

    def __init__(
        self,
        master: tk.Misc,
        default: str,
        choose: Callable[[str], None],
        browser: Browser | None = None,
    ) -> None:
        super().__init__(master, padding=12)
        self.choose = choose
        self.browser = browser or Browser()
        self.found: list[FoundServer] = []
        ttk.Label(self, text=_("Servers on this network"), style="Title.TLabel").grid(
            row=0, column=0, columnspan=3, sticky="w"
        )
        columns = (
            ("name", N_("Server"), 260),
            ("address", N_("Address"), 180),
            ("rooms", N_("Rooms open"), 100),
        )
        self.table = table(self, columns, 8)
        self.table.grid(row=1, column=0, columnspan=3, sticky="nsew", pady=6)
        self.table.bind("<Double-1>", lambda _e: self.connect_selected())
        self.table.bind("<Return>", lambda _e: self.connect_selected())
        self.note = ttk.Label(self, text=search_text([], None), wraplength=560)
        self.note.grid(row=2, column=0, columnspan=2, sticky="w")
        self.join_button = ttk.Button(self, text=_("Join"), command=self.connect_selected)
        self.join_button.grid(row=2, column=2, sticky="e")
        ttk.Label(self, text=_("Or type an address")).grid(
            row=3, column=0, sticky="w", pady=(10, 0)
        )
        self.address = tk.StringVar(self, value=default)
        entry = ttk.Entry(self, textvariable=self.address, width=30)
        entry.grid(row=3, column=1, sticky="ew", padx=6, pady=(10, 0))
        entry.bind("<Return>", lambda _e: self.connect_typed())
        self.connect_button = ttk.Button(self, text=_("Connect"), command=self.connect_typed)
        self.connect_button.grid(row=3, column=2, sticky="e", pady=(10, 0))
        self.error = ttk.Label(self, foreground="#ff8c69")
        self.error.grid(row=4, column=0, columnspan=3, sticky="w", pady=(6, 0))
        self.rowconfigure(1, weight=1)
        self.columnconfigure(1, weight=1)
        self._poll_job: str | None = None
        self.browser.start()
        self._poll()

    def _poll(self) -> None:
        servers = self.browser.servers()
        if servers != self.found or (not servers and self.browser.error):
            self.show_servers(servers)
        self._poll_job = self.after(POLL_MS, self._poll)

    def show_servers(self, servers: list[FoundServer]) -> None:
        """Replace the rows, keeping the selected server selected (or the first)."""
        keep = self.table.selection()
        self.found = list(servers)
        self.table.delete(*self.table.get_children())
        for s in self.found:
            rooms = "" if s.rooms is None else str(s.rooms)
            name = (
                s.name
                if s.compatible
                else _("{name} (needs another gridhall version)", name=s.name)
            )
            self.table.insert("", "end", iid=s.key, values=(name, s.address, rooms))
        chosen = [iid for iid in keep if self.table.exists(iid)] or [s.key for s in self.found[:1]]
        if chosen:
            self.table.selection_set(chosen)
            self.table.focus(chosen[0])
        self.note.configure(text=search_text(self.found, self.browser.error))

    def connect_selected(self) -> None:
        """The highlighted server (double-click, enter, *Join*)."""
        chosen = next((s for s in self.found if s.key in self.table.selection()), None)
        if chosen is None:
            self.error.configure(text=_("No server is selected; pick one or type an address."))
        elif not chosen.compatible:
            self.error.configure(
                text=_(
                    "{name} speaks protocol {protocol}; it needs another version of gridhall.",
                    name=chosen.name,
                    protocol=chosen.protocol,
                )
            )
        else:
            self._done(chosen.address)

    def connect_typed(self) -> None:
        """The typed address (enter in the field, *Connect*)."""
        text = self.address.get().strip()
        try:
            server_url(text)
        except AddressError as exc:
            self.error.configure(text=str(exc))
            return
        self._done(text)

    def _done(self, server: str) -> None:
        self.close()
        self.choose(server)

    def close(self) -> None:
        """Stop browsing (the window goes on to the lobby, or closes)."""
        if self._poll_job is not None:
            with contextlib.suppress(tk.TclError):
                self.after_cancel(self._poll_job)
            self._poll_job = None
        self.browser.stop()


def ask_server(root: tk.Tk, default: str, browser: Browser | None = None) -> str | None:
    """Show the connect screen in ``root`` until a server is chosen (its ``--server``
    text) or the window is closed (None)."""
    chosen: list[str] = []
    done = tk.StringVar(root)

    def choose(server: str) -> None:
        chosen.append(server)
        done.set("chosen")

    frame = ConnectFrame(root, default, choose, browser)
    frame.pack(fill="both", expand=True)
    root.protocol("WM_DELETE_WINDOW", lambda: done.set("closed"))
    root.wait_variable(done)
    frame.close()
    with contextlib.suppress(tk.TclError):
        frame.destroy()
    return chosen[0] if chosen else None
