"""The room's chat: a read-only log and a line to type into (Enter sends)."""

from __future__ import annotations

import time
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Any

from gridhall.client.chatdraft import ChatDraft
from gridhall.client.room import NOTE_KEY
from gridhall.client.views.common import Message
from gridhall.protocol.i18n import _


class ChatPanel(ttk.Frame):
    """Shows the room's chat history; ``on_send`` gets each line typed (as typed: the
    room reads host commands in it, :func:`~gridhall.client.hostcommands.typed`)."""

    def __init__(self, master: tk.Misc, on_send: Callable[[str], None]) -> None:
        super().__init__(master)
        self.on_send = on_send
        self.draft = ChatDraft()
        self._shown: list[tuple[object, object, object]] = []
        self.log = tk.Text(
            self,
            height=10,
            width=34,
            wrap="word",
            state="disabled",
            relief="flat",
            background="#1e1f22",
            foreground="#dcdcdc",
            padx=6,
            pady=4,
            font=("DejaVu Sans", 10),
        )
        self.log.tag_configure("time", foreground="#7d8590")
        self.log.tag_configure("name", foreground="#6cb6ff", font=("DejaVu Sans", 10, "bold"))
        self.log.tag_configure("note", foreground="#c678dd", font=("DejaVu Sans", 10, "italic"))
        self.log.tag_configure("announce", foreground="#ffd866", font=("DejaVu Sans", 10, "bold"))
        scroll = ttk.Scrollbar(self, command=self.log.yview)
        self.log.configure(yscrollcommand=scroll.set)
        self.entry = ttk.Entry(self)
        self.entry.bind("<Return>", self._send)
        self.send_button = ttk.Button(self, text=_("Send"), command=self._send, width=6)
        self.log.grid(row=0, column=0, columnspan=2, sticky="nsew")
        scroll.grid(row=0, column=2, sticky="ns")
        self.entry.grid(row=1, column=0, sticky="ew", pady=(4, 0))
        self.send_button.grid(row=1, column=1, columnspan=2, sticky="e", pady=(4, 0))
        self.rowconfigure(0, weight=1)
        self.columnconfigure(0, weight=1)

    def _send(self, _event: object = None) -> str:
        """Hand the line on; a chat line stays in the entry until the server accepts it."""
        self.on_send(self.entry.get())
        return "break"

    def clear(self) -> None:
        self.entry.delete(0, "end")

    def own_line_relayed(self) -> None:
        """The server accepted our line: clear the entry (unless typed on since)."""
        if self.draft.accepted(self.entry.get()):
            self.entry.delete(0, "end")

    def show(
        self,
        chat: list[Message],
        note: Callable[[dict[str, Any]], str] | None = None,
    ) -> None:
        """Append lines we have not shown yet (or rebuild after a fresh snapshot); a
        line that is a note (a host event, an announcement) is worded by ``note``."""
        keys = [(c.get("ts"), c.get("from"), c.get("text") or str(c.get(NOTE_KEY))) for c in chat]
        if keys[: len(self._shown)] != self._shown:
            self._shown = []
            self._edit(lambda: self.log.delete("1.0", "end"))
        new = chat[len(self._shown) :]
        if not new:
            return
        self._shown = keys

        def write() -> None:
            for entry in new:
                ts = entry.get("ts")
                stamp = (
                    time.strftime("%H:%M", time.localtime(ts))
                    if isinstance(ts, int | float)
                    else ""
                )
                self.log.insert("end", f"{stamp} ", "time")
                event = entry.get(NOTE_KEY)
                if isinstance(event, dict):
                    kind = "announce" if event.get("type") == "announce" else "note"
                    self.log.insert("end", (note(event) if note else "") + "\n", kind)
                    continue
                self.log.insert("end", f"{entry.get('name')}: ", "name")
                self.log.insert("end", f"{entry.get('text')}\n")
            self.log.see("end")

        self._edit(write)

    def lines(self) -> list[str]:
        """The log's text lines (what a player reads)."""
        return [ln for ln in self.log.get("1.0", "end").splitlines() if ln.strip()]

    def _edit(self, change: Callable[[], None]) -> None:
        self.log.configure(state="normal")
        change()
        self.log.configure(state="disabled")
