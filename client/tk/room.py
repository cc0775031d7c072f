"""The room screen: board, players, chat, status line, offer and game-over bars,
and the game's action buttons. Redrawn from each snapshot the bridge hands over."""

from __future__ import annotations

import time
from functools import partial
import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from gridhall.client.session import RoomCopy
from gridhall.client.tk import model
from gridhall.client.tk.boards import BOARDS, BoardCanvas, LinkCanvas
from gridhall.client.tk.bridge import Snapshot
from gridhall.client.tk.chat import ChatPanel
from gridhall.client.views import gomoku, linkmatch
from gridhall.client.views.common import GAME_TITLES, Message, names, player_lines, result_text

Submit = Callable[..., None]
Notify = Callable[[str], None]


class RoomFrame(ttk.Frame):
    """Everything about the room we are in."""

    def __init__(self, master: tk.Misc, game: str, submit: Submit, notify: Notify) -> None:
        super().__init__(master, padding=6)
        self.game = game
        self.submit = submit
        self.notify = notify
        self.copy: RoomCopy | None = None
        self.me: str | None = None
        self.connected = True
        self._received = time.monotonic()

        self.title = ttk.Label(self, style="Title.TLabel")
        self.title.grid(row=0, column=0, columnspan=2, sticky="w", pady=(0, 4))
        self.board: BoardCanvas = BOARDS[game](self, self._intent, width=640, height=560)
        self.board.grid(row=1, column=0, sticky="nsew")

        side = ttk.Frame(self, padding=(8, 0, 0, 0))
        side.grid(row=1, column=1, sticky="ns")
        ttk.Label(side, text="Players", style="Heading.TLabel").pack(anchor="w")
        self.players = tk.Text(side, height=6, width=34, relief="flat", state="disabled",
                               background="#1e1f22", foreground="#dcdcdc", padx=6, pady=4,
                               font=("DejaVu Sans", 10))  # fmt: skip
        self.players.pack(fill="x", pady=(2, 8))
        ttk.Label(side, text="Chat", style="Heading.TLabel").pack(anchor="w")
        self.chat = ChatPanel(side, lambda text: self.submit("chat", text=text))
        self.chat.pack(fill="both", expand=True)

        self.status = ttk.Label(self, style="Status.TLabel", anchor="w")
        self.status.grid(row=2, column=0, columnspan=2, sticky="ew", pady=(6, 0))

        self.offer = ttk.Frame(self, style="Bar.TFrame", padding=4)
        self.offer_text = ttk.Label(self.offer, style="Bar.TLabel")
        self.offer_text.pack(side="left", padx=4)
        self.offer_buttons = {
            key: ttk.Button(self.offer, text=label, command=partial(self._action, key))
            for key, label in (("accept", "Accept"), ("refuse", "Decline"))
        }
        self.banner = ttk.Frame(self, style="Bar.TFrame", padding=4)
        self.banner_text = ttk.Label(self.banner, style="Bar.TLabel")
        self.banner_text.pack(side="left", padx=4)
        self.banner_buttons = {
            key: ttk.Button(self.banner, text=label, command=partial(self._action, key))
            for key, label in (("again", "Play again"), ("agree", "Agree"), ("decline", "Decline"))
        }
        self.offer.grid(row=3, column=0, columnspan=2, sticky="ew", pady=(4, 0))
        self.banner.grid(row=4, column=0, columnspan=2, sticky="ew", pady=(4, 0))

        bar = ttk.Frame(self)
        bar.grid(row=5, column=0, columnspan=2, sticky="ew", pady=(6, 0))
        self.actions: dict[str, ttk.Button] = {}
        for key, label in model.ACTIONS.get(game, []) + model.COMMON_ACTIONS:
            self.actions[key] = ttk.Button(bar, text=label, command=partial(self._action, key))
        self.rowconfigure(1, weight=1)
        self.columnconfigure(0, weight=1)

    # ---- from the server ----------------------------------------------------------------
    def handle(self, msg: Message, snap: Snapshot) -> None:
        """React to one room message (already folded into ``snap``)."""
        self.copy, self.me, self.connected = snap.room, snap.player, snap.connected
        self._received = time.monotonic()
        state = self.copy.state if self.copy else {}
        kind = msg.get("type")
        who = names(state)
        sender = msg.get("from") or msg.get("player")
        sender_name = msg.get("name") or who.get(str(sender), "Someone")
        mine = sender == self.me
        if kind == "moved" and isinstance(self.board, LinkCanvas) and msg.get("by") == self.me:
            view = msg.get("view")
            if isinstance(view, dict) and (msg.get("move") or {}).get("action") == "link":
                self.board.flash_path(view)
        elif kind == "game-over":
            self.notify(result_text(state, self.me))
        elif kind == "play-again" and not mine:
            self.notify(f"{sender_name} wants another game.")
        elif kind == "decline-again" and not mine:
            self.notify(f"{sender_name} declined another game.")
        elif kind == "offer" and not mine:
            self.notify(gomoku.offer_text(state, self.me) or "An offer arrived.")
        elif kind == "answer" and not mine:
            verdict = "accepted" if msg.get("accept") else "declined"
            self.notify(f"{sender_name} {verdict} the {msg.get('kind')} request.")
        elif kind == "resigned" and not mine:
            self.notify(f"{sender_name} resigned.")
        elif kind == "notice":
            data = msg.get("data")
            event = str(msg.get("event"))
            self.notify(linkmatch.notice_text(event, data if isinstance(data, dict) else {}, who))
        elif kind == "joined" and sender and not mine:
            self.notify(f"{sender_name} joined as {msg.get('role', 'player')}.")
        self.redraw()

    def set_connection(self, snap: Snapshot) -> None:
        self.connected = snap.connected
        if snap.room is not None:
            self.copy = snap.room
        self.tick()

    # ---- drawing ------------------------------------------------------------------------
    def redraw(self) -> None:
        copy = self.copy
        if copy is None or not copy.state:
            return
        state = copy.state
        title = GAME_TITLES.get(self.game, self.game)
        self.title.configure(
            text=f"{title} · room {copy.room} · round {int(state.get('round') or 0) + 1}"
        )
        self.board.show(copy, self.me)
        self._players(state)
        self.chat.show(list(state.get("chat") or []))
        self._bars(copy)
        self._buttons(state)
        self.tick()

    def tick(self) -> None:
        """Refresh the status line with clocks run on since the last event."""
        if self.copy is None or not self.copy.state:
            return
        live = RoomCopy(
            room=self.copy.room,
            seq=self.copy.seq,
            state=model.live_state(self.copy.state, time.monotonic() - self._received),
            last_actions=self.copy.last_actions,
        )
        self.status.configure(text=model.status_line(live, self.me, self.connected))
        starts = ((live.state.get("view") or {}).get("starts_in")) or 0
        if self.game == "linkmatch" and starts:
            self.board.copy = live
            self.board.redraw()

    def _players(self, state: Message) -> None:
        lines = player_lines(state, self.me, model.player_roles(state))
        t = self.players
        t.configure(state="normal")
        t.delete("1.0", "end")
        for i, line in enumerate(lines):
            dot = f"dot{i}"
            t.tag_configure(dot, foreground=line.color)
            t.insert("end", "● ", dot)
            t.insert("end", line.name + (" (you)" if line.me else ""), "me" if line.me else "")
            t.insert("end", f"  {line.role}", "dim")
            if not line.connected:
                t.insert("end", "  offline", "off")
            if line.to_move:
                t.insert("end", "  ◀ to move", "turn")
            t.insert("end", "\n")
        spectators = state.get("spectators") or []
        if spectators:
            t.insert("end", "Watching: " + ", ".join(str(s) for s in spectators), "dim")
        t.tag_configure("me", font=("DejaVu Sans", 10, "bold"))
        t.tag_configure("dim", foreground="#8b949e")
        t.tag_configure("off", foreground="#ff6b6b")
        t.tag_configure("turn", foreground="#ffd866")
        t.configure(state="disabled")

    def _bars(self, copy: RoomCopy) -> None:
        offer = model.offer_bar(copy.state, self.me)
        if offer is None:
            self.offer.grid_remove()
        else:
            self.offer_text.configure(text=offer.text)
            _row(list(self.offer_buttons.values()), [offer.can_answer] * 2)
            self.offer.grid()
        banner = model.banner(copy, self.me)
        if banner is None:
            self.banner.grid_remove()
        else:
            self.banner_text.configure(text=banner.text)
            shown = [bool(getattr(banner, key)) for key in self.banner_buttons]
            _row(list(self.banner_buttons.values()), shown)
            self.banner.grid()

    def _buttons(self, state: Message) -> None:
        states = model.action_states(state, self.me)
        buttons = [self.actions[key] for key in states]
        _row(buttons, [visible for visible, _ in states.values()])
        for key, (_, enabled) in states.items():
            self.actions[key].state(["!disabled"] if enabled else ["disabled"])

    # ---- to the server ------------------------------------------------------------------
    def _intent(self, intent: model.Intent) -> None:
        if self.copy is not None and not model.seated(self.copy.state, self.me):
            self.notify("You are watching; spectators cannot play.")
            return
        type_, fields = intent
        self.submit(type_, **fields)

    def _action(self, key: str) -> None:
        intent = model.action_intent(key, self.copy.state if self.copy else {})
        if intent is not None:
            type_, fields = intent
            self.submit(type_, **fields)


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
