"""The host's tools in the Tk room screen: the member list marks the host (and
muted members) and, for the host, opens a context menu on a member (right click,
or the menu key / Shift+F10 on the member picked with the arrow keys): remove for
5/10/30/60 minutes, mute or unmute, make host. Beside it a Lock toggle and, in a
game with computer opponents, a computer player control between games."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from functools import partial
from tkinter import ttk

from gridhall import protocol as p
from gridhall.client.hosting import (
    KICK_CHOICES,
    LEVELS,
    Member,
    computer,
    is_host,
    members,
    request,
)
from gridhall.client.room import RoomCopy
from gridhall.client.views.hosts import level_word, roster_note
from gridhall.protocol.i18n import _

Submit = Callable[[p.Host], None]


class MemberList:
    """The players pane (a read-only ``tk.Text``) with one line per member, and the
    host's menu on a member line."""

    def __init__(self, text: tk.Text, submit: Submit) -> None:
        self.text = text
        self.submit = submit
        self.rows: dict[int, Member] = {}
        """Line number (1-based, as Tk counts) -> the member shown on it."""
        self.picked: int | None = None
        """The line the arrow keys picked (for the menu key)."""
        self.host = False
        self.menu: tk.Menu | None = None
        text.configure(takefocus=1, cursor="arrow")
        text.tag_configure("picked", background="#3a3f4b")
        text.bind("<Button-3>", self._right_click)
        text.bind("<Button-1>", lambda _e: text.focus_set())
        text.bind("<Up>", partial(self._move, -1))
        text.bind("<Down>", partial(self._move, 1))
        for sequence in ("<App>", "<Menu>", "<Shift-F10>"):
            try:
                text.bind(sequence, self._menu_key)
            except tk.TclError:  # a key this display's Tk does not name
                pass

    def lines_of(self, room: RoomCopy, me: str | None) -> list[Member]:
        """The members to list: seated (in seat order), then spectators."""
        state = room.state
        self.host = is_host(state, me)
        return members(state, room.known) if state is not None else []

    def row(self, line: int, member: Member) -> None:
        self.rows[line] = member

    def reset(self) -> None:
        self.rows = {}

    def repick(self) -> None:
        """Keep the arrow keys' pick on screen after a redraw."""
        self.text.tag_remove("picked", "1.0", "end")
        if self.picked is not None and self.picked in self.rows:
            self.text.tag_add("picked", f"{self.picked}.0", f"{self.picked}.end")

    # ---- the menu -----------------------------------------------------------------------
    def _line_at(self, event: tk.Event) -> int:
        return int(self.text.index(f"@{event.x},{event.y}").split(".")[0])

    def _right_click(self, event: tk.Event) -> str:
        line = self._line_at(event)
        if line in self.rows:
            self.picked = line
            self.repick()
            self.open_menu(line, event.x_root, event.y_root)
        return "break"

    def _move(self, step: int, _event: tk.Event) -> str:
        lines = sorted(self.rows)
        if not lines:
            return "break"
        at = lines.index(self.picked) if self.picked in lines else (-1 if step > 0 else 0)
        self.picked = lines[max(0, min(len(lines) - 1, at + step))]
        self.repick()
        return "break"

    def _menu_key(self, _event: tk.Event) -> str:
        line = self.picked if self.picked in self.rows else min(self.rows, default=None)
        if line is None:
            return "break"
        self.picked = line
        self.repick()
        box = self.text.bbox(f"{line}.0")
        x, y = (box[0], box[1] + box[3]) if box else (0, 0)
        self.open_menu(line, self.text.winfo_rootx() + x, self.text.winfo_rooty() + y)
        return "break"

    def menu_for(self, member: Member) -> tk.Menu | None:
        """The host's menu for ``member`` (None: not the host, or nothing to do)."""
        if not self.host or member.player is None:
            return None
        who = member.player
        menu = tk.Menu(self.text, tearoff=False)
        for minutes in KICK_CHOICES:
            menu.add_command(
                label=_("Remove for {n} min", n=minutes),
                command=partial(self.submit, request("kick", who, minutes)),
            )
        if member.bot:
            return menu
        menu.add_separator()
        if member.muted:
            menu.add_command(
                label=_("Unmute"), command=partial(self.submit, request("unmute", who))
            )
        else:
            menu.add_command(label=_("Mute"), command=partial(self.submit, request("mute", who)))
        menu.add_command(
            label=_("Make host"), command=partial(self.submit, request("hand-over", who))
        )
        return menu

    def open_menu(self, line: int, x: int, y: int) -> None:
        member = self.rows.get(line)
        menu = self.menu_for(member) if member is not None else None
        if menu is None:
            return
        if self.menu is not None:
            self.menu.destroy()
        self.menu = menu
        menu.post(x, y)
        menu.focus_set()


class HostBar(ttk.Frame):
    """The host's room-wide tools: a Lock toggle and the computer player control."""

    def __init__(self, master: tk.Misc, submit: Submit, computers: bool) -> None:
        super().__init__(master)
        self.submit = submit
        self.computers = computers
        self.note = ttk.Label(self, style="Heading.TLabel")
        self.note.pack(anchor="w")
        self.locked = tk.BooleanVar(self, value=False)
        self.lock = ttk.Checkbutton(
            self, text=_("Locked (nobody new joins)"), variable=self.locked, command=self._lock
        )
        self.computer = ttk.Menubutton(self, text=_("Computer player"))
        self.computer_menu = tk.Menu(self.computer, tearoff=False)
        self.computer["menu"] = self.computer_menu

    def show(self, room: RoomCopy, me: str | None) -> None:
        state = room.state
        if state is None:
            return
        self.note.configure(text=roster_note(state, room.known))
        host = is_host(state, me)
        self.locked.set(state.locked)
        if host and not self.lock.winfo_manager():
            self.lock.pack(anchor="w")
        elif not host:
            self.lock.pack_forget()
        between = self.computers and state.status != "playing"
        if host and between:
            self._computer_menu(state)
            if not self.computer.winfo_manager():
                self.computer.pack(anchor="w", pady=(2, 0))
        else:
            self.computer.pack_forget()

    def _computer_menu(self, state: p.State) -> None:
        menu = self.computer_menu
        menu.delete(0, "end")
        for level in LEVELS:
            menu.add_command(
                label=_("Computer: {level}", level=level_word(level)),
                command=partial(self.submit, request("computer", level=level)),
            )
        bot = computer(state)
        if bot is not None and bot.player is not None:
            menu.add_command(
                label=_("Remove the computer"),
                command=partial(self.submit, request("kick", bot.player)),
            )

    def _lock(self) -> None:
        """Ask; the box shows the room's state, so it flips when the server says so."""
        want = self.locked.get()
        self.locked.set(not want)
        self.submit(request("lock" if want else "unlock"))
