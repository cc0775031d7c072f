"""The room screen: board, players, chat, status line, offer and game-over bars,
and the game's action buttons (with their keys). Redrawn from each snapshot the
bridge hands over.

Game-agnostic: what a game adds comes from its view class and its board canvas.
"""

from __future__ import annotations

import time
import tkinter as tk
from collections.abc import Callable
from functools import partial
from tkinter import ttk
from typing import Any

from gridhall import protocol as p
from gridhall.client.clocktime import shown_time
from gridhall.client.hostcommands import typed
from gridhall.client.hosting import Member
from gridhall.client.messages import Request, RoomEvent
from gridhall.client.ratings import rating_change
from gridhall.client.room import RoomCopy
from gridhall.client.tk.boards import BoardCanvas, board_for
from gridhall.client.tk.bridge import Snapshot
from gridhall.client.tk.chat import ChatPanel
from gridhall.client.tk.hosttools import HostBar, MemberList
from gridhall.client.views import view_for
from gridhall.client.views.base import (
    AGAIN_KEYS,
    ANSWER_KEYS,
    COMMON_ACTIONS,
    action_request,
    action_states,
    again_request,
    answer_request,
    banner,
    confirmation,
    in_live_game,
    offer_bar,
    status_line,
    yes_no_request,
)
from gridhall.client.views.common import player_lines, seated
from gridhall.client.views.hosts import computer_game, event_text
from gridhall.protocol.i18n import N_, _

Submit = Callable[..., None]
Notify = Callable[[str], None]
TYPING = (tk.Entry, tk.Text, tk.Spinbox, ttk.Entry)
"""Widgets whose keys are text, never shortcuts."""


def tk_sequence(keys: str) -> str | None:
    """A Textual key name (``d``, ``R``, ``ctrl+l``) as a Tk event sequence."""
    if len(keys) == 1 and keys.isalpha():
        return f"<KeyPress-{keys}>"
    if keys.startswith("ctrl+") and len(keys) == 6 and keys[-1].isalpha():
        return f"<Control-{keys[-1]}>"
    return None


class RoomFrame(ttk.Frame):
    """Everything about the room we are in."""

    def __init__(self, master: tk.Misc, game: str, submit: Submit, notify: Notify) -> None:
        super().__init__(master, padding=6)
        self.game = game
        self.view = view_for(game)
        self.submit = submit
        self.notify = notify
        self.room: RoomCopy | None = None
        self.me: str | None = None
        self.connected = True
        self.offline_since: float | None = None

        self.title = ttk.Label(self, style="Title.TLabel")
        self.title.grid(row=0, column=0, columnspan=2, sticky="w", pady=(0, 4))
        self.board: BoardCanvas = board_for(game)(self, self._intent, width=640, height=560)
        self.board.grid(row=1, column=0, sticky="nsew")
        self.board.clock = self.now

        side = ttk.Frame(self, padding=(8, 0, 0, 0))
        side.grid(row=1, column=1, sticky="ns")
        ttk.Label(side, text=_("Players"), style="Heading.TLabel").pack(anchor="w")
        self.players = tk.Text(
            side,
            height=6,
            width=34,
            relief="flat",
            state="disabled",
            background="#1e1f22",
            foreground="#dcdcdc",
            padx=6,
            pady=4,
            font=("DejaVu Sans", 10),
        )
        self.players.pack(fill="x", pady=(2, 4))
        self.member_list = MemberList(self.players, self.submit)
        self.host_bar = HostBar(side, self.submit, computer_game(self.view))
        self.host_bar.pack(fill="x", pady=(0, 8))
        ttk.Label(side, text=_("Chat"), style="Heading.TLabel").pack(anchor="w")
        self.chat = ChatPanel(side, self._typed)
        self.chat.pack(fill="both", expand=True)

        self.status = ttk.Label(self, style="Status.TLabel", anchor="w")
        self.status.grid(row=2, column=0, columnspan=2, sticky="ew", pady=(6, 0))

        self.offer = ttk.Frame(self, style="Bar.TFrame", padding=4)
        self.offer_text = ttk.Label(self.offer, style="Bar.TLabel")
        self.offer_text.pack(side="left", padx=4)
        self.offer_buttons = {
            key: ttk.Button(
                self.offer, text=_(label), command=partial(self._answer, key == "accept")
            )
            for key, label in (("accept", N_("Accept")), ("refuse", N_("Decline")))
        }
        self.banner = ttk.Frame(self, style="Bar.TFrame", padding=4)
        self.banner_text = ttk.Label(self.banner, style="Bar.TLabel")
        self.banner_text.pack(side="left", padx=4)
        self.banner_buttons = {
            key: ttk.Button(self.banner, text=_(label), command=partial(self._again, key))
            for key, label in (
                ("again", N_("Play again")),
                ("agree", N_("Agree")),
                ("decline", N_("Decline")),
            )
        }
        self.offer.grid(row=3, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.banner.grid(row=4, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.asking: str | None = None
        """The action (resign, leave) whose question the confirm bar shows."""
        self.confirm = ttk.Frame(self, style="Bar.TFrame", padding=4)
        self.confirm_text = ttk.Label(self.confirm, style="Bar.TLabel")
        self.confirm_text.pack(side="left", padx=4)
        self.confirm_yes = ttk.Button(self.confirm, command=self._confirmed)
        self.confirm_no = ttk.Button(self.confirm, text=_("Cancel"), command=self._cancel)
        for button in (self.confirm_yes, self.confirm_no):
            button.pack(side="left", padx=3)
            button.bind("<Return>", partial(_invoke, button))
        self.confirm.grid(row=6, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.confirm.grid_remove()

        bar = ttk.Frame(self)
        bar.grid(row=5, column=0, columnspan=2, sticky="ew", pady=(6, 0))
        self.actions: dict[str, ttk.Button] = {
            a.key: ttk.Button(bar, text=a.label, command=partial(self._action, a.key))
            for a in (*self.view.actions, *COMMON_ACTIONS)
        }
        self.rowconfigure(1, weight=1)
        self.columnconfigure(0, weight=1)
        self._keys: list[tuple[str, str]] = []
        self._bind_keys()

    # ---- keys ---------------------------------------------------------------------------
    def _bind_keys(self) -> None:
        """The same keys as the terminal client, on the window while this room shows."""
        top = self.winfo_toplevel()
        keyed = [
            (a.keys, partial(self._action, a.key)) for a in (*self.view.actions, *COMMON_ACTIONS)
        ]
        keyed += [(AGAIN_KEYS["again"], partial(self._again, "again"))]
        keyed += [(key, partial(self._yes_no, yes)) for yes, key in ANSWER_KEYS.items()]
        for keys, run in keyed:
            sequence = tk_sequence(keys)
            if sequence is not None:
                funcid = top.bind(sequence, partial(self._key, run), add="+")
                self._keys.append((sequence, funcid))
        self._keys.append(("<Escape>", top.bind("<Escape>", self._escape, add="+")))

    def _escape(self, _event: tk.Event) -> str | None:
        """Escape answers the confirm bar's question with *Cancel*."""
        if self.asking is None:
            return None
        self._cancel()
        return "break"

    def _key(self, run: Callable[[], None], event: tk.Event) -> str | None:
        if isinstance(self.focus_get(), TYPING):
            return None  # typing a chat line or a code
        run()
        return "break"

    def destroy(self) -> None:
        top = self.winfo_toplevel()
        for sequence, funcid in self._keys:
            top.unbind(sequence, funcid)
        self._keys = []
        super().destroy()

    # ---- from the server ----------------------------------------------------------------
    def handle(self, msg: RoomEvent, snap: Snapshot) -> None:
        """React to one room event (already folded into ``snap``)."""
        self.room, self.me, self.connected = snap.room, snap.player, snap.connected
        self.offline_since = snap.offline_since
        if isinstance(msg, p.ChatEvent) and msg.sender == self.me:
            self.chat.own_line_relayed()
        if self.room is not None:
            text = self.view.event_text(msg, self.room, self.me)
            if text:
                self.notify(text)
            change = rating_change(getattr(msg, "ratings", None), self.me)
            if isinstance(msg, p.GameOver) and change:
                self.notify(change)  # a rated game: how our rating moved
        self.board.room_event(msg)
        self.redraw()

    def set_connection(self, snap: Snapshot) -> None:
        self.connected = snap.connected
        self.offline_since = snap.offline_since
        if snap.room is not None:
            self.room = snap.room
        self.tick()

    # ---- drawing ------------------------------------------------------------------------
    def redraw(self) -> None:
        room = self.room
        if room is None or room.state is None:
            return
        state = room.state
        self.title.configure(
            text=f"{self.view.heading} · "
            + _("room {code}", code=room.room)
            + " · "
            + _("round {round}", round=state.round + 1)
        )
        self.board.show(room, self.me)
        self._players(state)
        self.chat.show(list(state.chat), self._note_text)
        self._bars(room)
        self._buttons(state)
        self.tick()

    def tick(self) -> None:
        """Refresh the status line (clocks run on between events) and moving boards."""
        if self.room is None or self.room.state is None:
            return
        line = status_line(self.view, self.room, self.me, self.connected, self.now())
        self.status.configure(text=line.replace("⏱", "◷"))  # common fonts lack the stopwatch
        self.board.tick()

    def now(self) -> float:
        """The time the clocks show: they stand still while offline."""
        return shown_time(time.time(), self.offline_since)

    def _note_text(self, event: dict[str, Any]) -> str:
        room = self.room
        return event_text(event, room.state if room else None, room.known if room else {}, self.me)

    def _players(self, state: p.State) -> None:
        lines = player_lines(state, self.me, self.view.roles(state))
        room = self.room
        everyone = self.member_list.lines_of(room, self.me) if room is not None else []
        self.member_list.reset()
        if room is not None:
            self.host_bar.show(room, self.me)
        t = self.players
        t.configure(state="normal")
        t.delete("1.0", "end")
        for i, (line, member) in enumerate(zip(lines, everyone)):
            self.member_list.row(i + 1, member)
            dot = f"dot{i}"
            t.tag_configure(dot, foreground=line.color)
            t.insert("end", "● ", dot)
            t.insert(
                "end", line.name + (" " + _("(you)") if line.me else ""), "me" if line.me else ""
            )
            t.insert("end", f"  {line.role}", "dim")
            if not line.connected:
                t.insert("end", "  " + _("offline"), "off")
            if line.to_move:
                t.insert("end", "  ◀ " + _("to move"), "turn")
            self._marks(member)
            t.insert("end", "\n")
        watching = everyone[len(lines) :]
        for n, member in enumerate(watching):
            self.member_list.row(len(lines) + n + 1, member)
            t.insert(
                "end",
                "👁 "
                + member.name
                + (" " + _("(you)") if member.player == self.me and member.player else ""),
                "dim",
            )
            t.insert("end", "  " + _("watching"), "dim")
            self._marks(member)
            t.insert("end", "\n")
        self.member_list.repick()
        t.tag_configure("me", font=("DejaVu Sans", 10, "bold"))
        t.tag_configure("dim", foreground="#8b949e")
        t.tag_configure("off", foreground="#ff6b6b")
        t.tag_configure("turn", foreground="#ffd866")
        t.tag_configure("host", foreground="#c678dd")
        t.configure(state="disabled")

    def _marks(self, member: Member) -> None:
        """The host's star and a muted member's mark after a member's line."""
        if member.host:
            self.players.insert("end", "  ★ " + _("host"), "host")
        if member.muted:
            self.players.insert("end", "  " + _("muted"), "off")

    def _bars(self, room: RoomCopy) -> None:
        if self.asking is not None and not in_live_game(room.state, self.me):
            self._cancel()  # the game ended meanwhile: nothing is left to give up
        offer = offer_bar(self.view, room.state, self.me) if room.state else None
        if offer is None:
            self.offer.grid_remove()
        else:
            self.offer_text.configure(text=offer.text)
            _row(list(self.offer_buttons.values()), [offer.can_answer] * 2)
            self.offer.grid()
        over = banner(self.view, room, self.me)
        if over is None:
            self.banner.grid_remove()
        else:
            self.banner_text.configure(text=over.text)
            shown = [bool(getattr(over, key)) for key in self.banner_buttons]
            _row(list(self.banner_buttons.values()), shown)
            self.banner.grid()

    def _buttons(self, state: p.State) -> None:
        states = action_states(self.view, state, self.me)
        _row([self.actions[a.action.key] for a in states], [a.shown for a in states])
        for a in states:
            self.actions[a.action.key].state(["!disabled"] if a.enabled else ["disabled"])

    # ---- to the server ------------------------------------------------------------------
    def _intent(self, request: Request) -> None:
        state = self.room.state if self.room else None
        if state is not None and not seated(state, self.me):
            self.notify(_("You are watching; spectators cannot play."))
            return
        self.submit(request)

    def _typed(self, line: str) -> None:
        """Enter in the chat line: a host command goes as its request (an unknown or
        refused one is told here), anything else as chat."""
        room = self.room
        state, known = (room.state, room.known) if room else (None, {})
        said = typed(line, state, known, self.me, self.chat.draft)
        if said.error is not None:
            self.notify(f"{said.title}: {said.error}")
        self._send(said.request)
        if said.clear:
            self.chat.clear()

    def _send(self, request: Request | None) -> None:
        if request is not None:
            self.submit(request)

    def _action(self, key: str) -> None:
        """An action's button or key; resigning or leaving a game we play asks first,
        in the confirm bar (its *Cancel* has the focus)."""
        state = self.room.state if self.room else None
        request = action_request(self.view, key, state, self.me) if state else None
        ask = confirmation(key, state, self.me) if request is not None else None
        if ask is None:
            self._send(request)
            return
        self.asking = key
        self.confirm_text.configure(text=ask.question)
        self.confirm_yes.configure(text=ask.yes)
        self.confirm.grid()
        self.confirm_no.focus_set()

    def _confirmed(self) -> None:
        key, self.asking = self.asking, None
        self.confirm.grid_remove()
        if key is not None:  # still only if it applies now
            state = self.room.state if self.room else None
            self._send(action_request(self.view, key, state, self.me) if state else None)

    def _cancel(self) -> None:
        if self.asking is not None:
            self.asking = None
            self.confirm.grid_remove()

    def _again(self, key: str) -> None:
        self._send(again_request(key))

    def _yes_no(self, yes: bool) -> None:
        """``y`` / ``n``: answer the pending offer, else the question of another game."""
        room = self.room
        self._send(yes_no_request(self.view, room, self.me, yes) if room is not None else None)

    def _answer(self, accept: bool) -> None:
        state = self.room.state if self.room else None
        self._send(answer_request(offer_bar(self.view, state, self.me) if state else None, accept))


def _invoke(button: ttk.Button, _event: tk.Event) -> str:
    """Enter on a focused button presses it (as space does in Tk)."""
    button.invoke()
    return "break"


def _row(buttons: list[ttk.Button], visible: list[bool]) -> None:
    """Show the visible buttons of a row, left to right in their fixed order."""
    now = [b for b in buttons if b.winfo_manager()]
    want = [b for b, v in zip(buttons, visible) if v]
    if now == want:
        return
    for button in now:
        button.pack_forget()
    for button in want:
        button.pack(side="left", padx=3)
