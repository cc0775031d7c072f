"""The lobby: public rooms, join or watch by code, and a small create-room form."""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import ttk
from typing import Any

from gridhall.client.views.common import GAME_TITLES, Message
from gridhall.client.views.lobby import PRESETS, room_rows

Submit = Callable[..., None]
Notify = Callable[[str], None]
COLUMNS = (
    ("room", "Code", 90),
    ("game", "Game", 120),
    ("options", "Options", 220),
    ("players", "Players", 220),
    ("spectators", "Watching", 80),
    ("status", "Status", 90),
)


class LobbyFrame(ttk.Frame):
    """Lists rooms (the app refreshes it) and sends create / join requests."""

    def __init__(self, master: tk.Misc, submit: Submit, notify: Notify) -> None:
        super().__init__(master, padding=10)
        self.submit = submit
        self.notify = notify
        ttk.Label(self, text="Rooms on this server", style="Title.TLabel").grid(
            row=0, column=0, sticky="w"
        )
        self.table = ttk.Treeview(self, columns=[c[0] for c in COLUMNS], show="headings",
                                  selectmode="browse", height=12)  # fmt: skip
        for key, label, width in COLUMNS:
            self.table.heading(key, text=label)
            self.table.column(key, width=width, anchor="w")
        self.table.grid(row=1, column=0, sticky="nsew", pady=6)
        self.table.bind("<<TreeviewSelect>>", self._selected)
        self.table.bind("<Double-1>", lambda _e: self.join("player"))

        join = ttk.Frame(self)
        join.grid(row=2, column=0, sticky="ew")
        self.code = tk.StringVar(self)
        self.password = tk.StringVar(self)
        ttk.Label(join, text="Room code").pack(side="left")
        code_entry = ttk.Entry(join, textvariable=self.code, width=10)
        code_entry.pack(side="left", padx=4)
        code_entry.bind("<Return>", lambda _e: self.join("player"))
        ttk.Label(join, text="Password").pack(side="left", padx=(8, 0))
        ttk.Entry(join, textvariable=self.password, show="•", width=14).pack(side="left", padx=4)
        self.join_button = ttk.Button(join, text="Join", command=lambda: self.join("player"))
        self.join_button.pack(side="left", padx=2)
        self.watch_button = ttk.Button(join, text="Watch", command=lambda: self.join("spectator"))
        self.watch_button.pack(side="left", padx=2)
        ttk.Button(join, text="Refresh", command=self.refresh).pack(side="left", padx=2)

        create = ttk.LabelFrame(self, text="New room", padding=8)
        create.grid(row=3, column=0, sticky="ew", pady=(10, 0))
        self.game = tk.StringVar(self, value=GAME_TITLES["gomoku"])
        self.preset = tk.StringVar(self)
        self.private = tk.BooleanVar(self, value=False)
        self.new_password = tk.StringVar(self)
        self.game_box = ttk.Combobox(create, textvariable=self.game, state="readonly", width=14,
                                     values=[GAME_TITLES[g] for g in PRESETS])  # fmt: skip
        self.game_box.pack(side="left")
        self.game_box.bind("<<ComboboxSelected>>", lambda _e: self._game_changed())
        self.preset_box = ttk.Combobox(create, textvariable=self.preset, state="readonly",
                                       width=30)  # fmt: skip
        self.preset_box.pack(side="left", padx=6)
        ttk.Checkbutton(create, text="Private", variable=self.private).pack(side="left")
        ttk.Entry(create, textvariable=self.new_password, show="•", width=12).pack(
            side="left", padx=4
        )
        self.create_button = ttk.Button(create, text="Create", command=self.create)
        self.create_button.pack(side="left", padx=4)
        self._game_changed()
        self.rowconfigure(1, weight=1)
        self.columnconfigure(0, weight=1)

    # ---- rooms --------------------------------------------------------------------------
    def refresh(self) -> None:
        self.submit("list-rooms")

    def show_rooms(self, rooms: list[Message]) -> None:
        """Replace the rows, keeping the selected room selected."""
        keep = self.table.selection()
        self.table.delete(*self.table.get_children())
        for row in room_rows(rooms):
            values = (row.room, row.game, row.options, row.players, row.spectators, row.status)
            self.table.insert("", "end", iid=row.room, values=values)
        for iid in keep:
            if self.table.exists(iid):
                self.table.selection_set(iid)

    def rooms(self) -> list[str]:
        """Codes listed now, top to bottom."""
        return list(self.table.get_children())

    def _selected(self, _event: object = None) -> None:
        for iid in self.table.selection():
            self.code.set(iid)

    def join(self, role: str) -> None:
        code = self.code.get().strip()
        if not code:
            self.notify("Type a room code or pick a room first.")
            return
        fields: dict[str, Any] = {"room": code, "role": role}
        if password := self.password.get():
            fields["password"] = password
        self.submit("join-room", **fields)

    # ---- creating -----------------------------------------------------------------------
    def game_key(self) -> str:
        by_title = {title: key for key, title in GAME_TITLES.items()}
        return by_title.get(self.game.get(), "gomoku")

    def _game_changed(self) -> None:
        labels = [p.label for p in PRESETS[self.game_key()]]
        self.preset_box.configure(values=labels)
        self.preset.set(labels[0])

    def choose(self, game: str, preset: int = 0) -> None:
        """Pick a game and preset (what the combo boxes do)."""
        self.game.set(GAME_TITLES[game])
        self._game_changed()
        self.preset.set(PRESETS[game][preset].label)

    def create(self) -> None:
        """Ask for a room with the chosen game and preset."""
        game = self.game_key()
        options = next((dict(p.options) for p in PRESETS[game] if p.label == self.preset.get()), {})
        fields: dict[str, Any] = {"game": game, "options": options}
        password = self.new_password.get()
        if self.private.get() or password:
            fields["private"] = True
        if password:
            fields["password"] = password
        self.submit("create-room", **fields)
